"""What the print checks report. A check yields a Hit for each thing it finds on one face;
hits of the same check at the same template line and limit are gathered into one Finding,
which names the worst case and every card it is on."""

from __future__ import annotations

from dataclasses import dataclass, field

from .faces import Face, Where

SHOWN_CODES = 6
"""Card codes a finding's message lists before '... and N more' (its `cards` has them all)."""


@dataclass
class Hit:
    """One thing a check found on one face: `value` is what it measured (smaller is worse),
    `what` says it for this face, `advice` the limit it misses and how to fix it, `limit`
    that limit; hits of one template line are told apart by `subject` (e.g. a colour) too."""

    check: str
    where: Where
    face: Face
    value: float
    what: str
    advice: str
    limit: float
    subject: str = ""


@dataclass
class Finding:
    """Hits of one check at one template line, gathered: located at the template line,
    naming the deck, the worst case and the faces (card codes) it is on."""

    game: str
    deck: str
    check: str
    severity: str
    path: str
    line: int | None
    part: str
    advice: str
    limit: float
    value: float                 # the worst value measured
    what: str                    # the worst case, in words
    worst_on: str                # the face it is on
    faces: list = field(default_factory=list)   # (label, (deck file, line) or None), each face once
    alike: list = field(default_factory=list)   # (part, line) of other elements found just the same

    @property
    def rule(self) -> str:
        return f"print-{self.check}"

    @property
    def cards(self) -> list[str]:
        """The codes of the cards it is on (a common back or a board has none)."""
        return [label for label, card in self.faces if card]

    @property
    def lines(self) -> list[int | None]:
        """The template lines it is at: its own, then those of the elements found alike."""
        return [self.line] + [line for _, line in self.alike]

    @property
    def message(self) -> str:
        return f"{self._parts()}: {self.what}, {self.advice}; {self._on()}"

    def _parts(self) -> str:
        if not self.alike:
            return self.part
        lines = ", ".join(str(line) for _, line in self.alike[:SHOWN_CODES])
        more = ", ..." if len(self.alike) > SHOWN_CODES else ""
        return f"{self.part} and {len(self.alike)} more element{'s' if len(self.alike) > 1 else ''} alike " \
               f"(line{'s' if len(self.alike) > 1 else ''} {lines}{more})"

    def _on(self) -> str:
        faces = self.faces
        if len(faces) == 1:
            label, card = faces[0]
            return f"on {label}" + (f" ({card[0]}:{card[1]})" if card else "")
        shown = ", ".join(label for label, _ in faces[:SHOWN_CODES])
        more = f" and {len(faces) - SHOWN_CODES} more" if len(faces) > SHOWN_CODES else ""
        worst = f" (worst on {self.worst_on})" if self.worst_on != faces[0][0] else ""
        return f"on {len(faces)} faces{worst}: {shown}{more}"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        tag = "" if self.severity == "error" else " (warning)"
        return f"{where}: {self.game}/{self.deck}: {self.rule}{tag}: {self.message}"

    def as_dict(self) -> dict:
        return {"game": self.game, "deck": self.deck, "rule": self.rule, "check": self.check,
                "severity": self.severity, "message": self.message, "file": self.path, "line": self.line,
                "lines": self.lines, "value": round(self.value, 2), "limit": self.limit, "cards": self.cards,
                "faces": [label for label, _ in self.faces]}


class Gathered:
    """Findings as hits come in, one per deck, check, template line, advice and subject, in
    the order first found. Only labels are kept, not faces, so a large deck's check stays small."""

    def __init__(self, severity: str):
        self.severity = severity
        self._found: dict[tuple, Finding] = {}

    def add(self, hit: Hit) -> None:
        w, face = hit.where, hit.face
        key = (face.deck, hit.check, w.path, w.line, w.part, hit.advice, hit.subject)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = Finding(face.game, face.deck, hit.check, self.severity, w.path, w.line,
                                               w.part, hit.advice, hit.limit, hit.value, hit.what, face.label)
        elif hit.value < found.value:
            found.value, found.what, found.worst_on = hit.value, hit.what, face.label
        if not found.faces or found.faces[-1][0] != face.label:
            found.faces.append((face.label, face.card))

    def extend(self, hits) -> None:
        for hit in hits:
            self.add(hit)

    def findings(self) -> list[Finding]:
        """The findings, those of one template that say the very same thing about the same
        faces (a row of 40 identical labels) told once, at the first one's line."""
        merged: dict[tuple, Finding] = {}
        for found in self._found.values():
            key = (found.deck, found.check, found.path, found.advice, found.what, tuple(found.faces))
            first = merged.setdefault(key, found)
            if first is not found:
                first.alike.append((found.part, found.line))
        return list(merged.values())
