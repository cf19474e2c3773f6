"""The preview's live state: for each game its last good snapshot, its current input errors
and layout warnings, with --since what changed since that revision, and a version that
rises with every change. The watcher calls `refresh`; the server reads `state_json`,
`image` and `change_picture`, and its event stream waits on `wait`. Drawing happens under
one lock (reportlab and pdfium keep process-wide state); reading the state never waits for it."""

from __future__ import annotations

import json
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

from ..build import Project, load
from ..errors import InputError, Notice, Problem
from ..game.loader import GameSource, discover
from ..revisions import GameChanges, Revision, compare_game
from .changes import Pictures, changes_json, sources
from .snapshot import FaceRef, Images, Snapshot, layout_warnings, print_findings, take


@dataclass
class GameState:
    """One game as the page shows it: the last snapshot that drew, and what is wrong now."""

    id: str
    snapshot: Snapshot | None = None
    problems: list[Problem] = field(default_factory=list)   # bad input: why the snapshot is the last good one
    warnings: list[Notice] = field(default_factory=list)
    prints: list = field(default_factory=list)   # printcheck.Finding: what `pnpgen check` finds in print
    game: GameSource | None = None   # loaded, its layout warnings and print findings not yet gathered
    told: set = field(default_factory=set)                # warnings already printed in the terminal
    seconds: float = 0.0          # the last reload, load to thumbnails
    updated: float = 0.0
    # --since: the changes of the last good load, and the load still to compare (faces come first)
    changes: GameChanges | None = None
    changes_problems: list[str] = field(default_factory=list)   # the revision's side cannot be drawn
    compare: GameSource | None = None
    pictures: dict = field(default_factory=dict)          # picture key -> (Change, side)
    compare_seconds: float = 0.0
    said: str = ""                # the changes' summary last printed in the terminal


class Live:
    """The games being previewed, kept up to date by `refresh`."""

    def __init__(self, project: Project, names: tuple[str, ...] = (), images: Images | None = None,
                 log: Callable[[str], None] | None = None, since: Revision | None = None):
        self.project = project
        self.since = since                  # --since: the revision every reload is compared with (kept open)
        self.pictures = Pictures()
        self.names = tuple(names)           # empty: every game under cards/, found afresh on each change
        self.images = images or Images()
        self.log = log or (lambda message: None)
        self.games: dict[str, GameState] = {}
        self.lock = threading.Lock()        # drawing: one reload or render at a time
        self._changed = threading.Condition()
        self.version = 0                    # the state's
        self.tick = 0                       # any news for the event stream: a new version, busy or not
        self.busy = False
        self.closed = False
        self._json = b'{"version":0,"games":[],"errors":0,"loading":true}'

    # --- updating -----------------------------------------------------------------------
    def ids(self) -> list[str]:
        return list(self.names) if self.names else discover(self.project.cards)

    def refresh(self, ids=None) -> None:
        """Reload the games named (all by default) and publish their faces. Bad input keeps
        the last good faces, with the problems beside them. With --since, each game that
        loaded is then compared with the revision and published again: the faces do not
        wait for it. Layout warnings wait for `settle`: they take a second pass over every
        card, which a burst of saves should not have to wait for."""
        with self.lock:
            current = self.ids()
            for gone in [g for g in self.games if g not in current]:
                del self.games[gone]
            wanted = [g for g in current if ids is None or g in ids or g not in self.games]
            self._set_busy(True)
            try:
                for game_id in wanted:
                    self._reload(self.games.setdefault(game_id, GameState(game_id)))
                keep = set()
                for state in self.games.values():
                    if state.snapshot:
                        keep |= state.snapshot.digests()
                self.images.prune(keep)
            finally:
                self._set_busy(False)
            for state in list(self.games.values()):
                if state.compare is not None:
                    self._compare(state)

    def settle(self) -> None:
        """The layout warnings and print findings of every game reloaded since the last call
        (the watcher calls this once the saves have stopped for a moment)."""
        with self.lock:
            for state in list(self.games.values()):
                if state.game is not None:
                    self._warn(state)

    def _reload(self, state: GameState) -> None:
        start = time.perf_counter()
        try:
            game = load(self.project, state.id)
            snap = take(game, self.images)
        except InputError as exc:
            self._failed(state, exc.problems)
            return
        except Exception as exc:   # a bug in pnpgen: say so on the page, keep serving
            self._failed(state, [_bug(state.id, exc)])
            return
        state.snapshot, state.problems, state.game = snap, [], game
        if self.since is not None:
            state.compare = game
        state.seconds, state.updated = time.perf_counter() - start, time.time()
        self.log(f"{state.id}: {snap.rendered} face{'s' if snap.rendered != 1 else ''} rendered "
                 f"in {state.seconds:.2f} s" + (f", {len(snap.rules)} rule finding(s)" if snap.rules else ""))
        self._publish()

    def _warn(self, state: GameState) -> None:
        game, state.game = state.game, None
        try:
            state.warnings = layout_warnings(game)
            state.prints = print_findings(game)
        except InputError as exc:     # a later copy of a card that cannot be drawn: the build would stop too
            self._failed(state, exc.problems)
            return
        except Exception as exc:
            self._failed(state, [_bug(state.id, exc)])
            return
        said = [str(n) for n in state.warnings] + [str(f) for f in state.prints]
        fresh = set(said) - state.told
        state.told = set(said)
        for text in said:
            if text in fresh:    # each warning and print finding once in the terminal, not on every save
                self.log(text)
        self._publish()

    def _compare(self, state: GameState) -> None:
        """What prints differently in the game just loaded than at the revision (the faces
        at the revision are drawn once and kept by the Revision)."""
        game, state.compare = state.compare, None
        start = time.perf_counter()
        try:
            state.changes, state.changes_problems = compare_game(self.since, state.id, game), []
        except InputError as exc:    # the game at the revision cannot be drawn: say so, keep the faces
            state.changes, state.changes_problems = None, [str(p) for p in exc.problems]
        except Exception as exc:
            state.changes, state.changes_problems = None, [str(_bug(state.id, exc))]
        state.compare_seconds = time.perf_counter() - start
        state.pictures = sources(state.changes)
        keep = set()
        for other in self.games.values():
            keep |= other.pictures.keys()
        self.pictures.prune(keep)
        said = "; ".join(state.changes_problems) or _summary(state.changes)
        if said != state.said:      # in the terminal when it says something new, not on every save
            state.said = said
            self.log(f"{state.id} since {self.since.label}: {said}")
        self._publish()

    def _failed(self, state: GameState, problems: list[Problem]) -> None:
        state.problems, state.updated, state.game = list(problems), time.time(), None
        for problem in problems:
            self.log(str(problem))
        self._publish()

    # --- reading ------------------------------------------------------------------------
    def state_json(self) -> bytes:
        return self._json

    def image(self, game_id: str, digest: str, full: bool) -> bytes | None:
        """A face's PNG: the thumbnail, or the full-size face (drawn now if need be)."""
        if not full:
            return self.images.thumb(digest)
        state = self.games.get(game_id)
        snap = state.snapshot if state else None
        if snap is None or digest not in snap.sources:
            return None
        deck, face = snap.sources[digest]
        with self.lock:
            return self.images.full_face(digest, deck, face, snap.bleed)

    def change_picture(self, game_id: str, key: str) -> bytes | None:
        """A change's picture (before | now | difference), drawn when first asked for."""
        png = self.pictures.pngs.get(key)
        if png is not None:
            return png
        state = self.games.get(game_id)
        source = state.pictures.get(key) if state else None
        if source is None:
            return None
        with self.lock:
            png = self.pictures.pngs.get(key)
            if png is None:
                change, side = source
                png = self.pictures.pngs[key] = self.pictures.draw(change, side, self.since.label)
                self.pictures.log.append(key)
        return png

    def wait(self, tick: int, timeout: float) -> int:
        """Block until there is news after `tick` (or the timeout, or close); the current tick."""
        with self._changed:
            self._changed.wait_for(lambda: self.tick != tick or self.closed, timeout)
            return self.tick

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    # --- publishing ---------------------------------------------------------------------
    def _set_busy(self, busy: bool) -> None:
        with self._changed:
            self.busy = busy
            self.tick += 1
            self._changed.notify_all()

    def _publish(self) -> None:
        with self._changed:
            self.version += 1
            self._json = json.dumps(self.state(), separators=(",", ":")).encode()
            self.tick += 1
            self._changed.notify_all()

    def state(self) -> dict:
        """What the page shows, as JSON-able data."""
        games = [game_json(self.games[g], self.since) for g in self.ids() if g in self.games]
        return {"version": self.version, "games": games,
                "errors": sum(len(g["errors"]) + g["rule_errors"] + g["print_errors"] for g in games)}


def _bug(game_id: str, exc: Exception) -> Problem:
    """A failure that is not the input's fault, for the page; the traceback goes to the terminal."""
    traceback.print_exc(file=sys.stderr)
    return Problem(game_id, None, f"internal error: {type(exc).__name__}: {exc} (please report it; the "
                   "traceback is in the terminal)")


def _summary(changes: GameChanges | None) -> str:
    if changes is None:
        return ""
    if changes.status == "added":
        return "a new game, every card added"
    counts = changes.counts()
    said = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    if any(d.back for d in changes.decks):
        said += (", " if said else "") + "common back changed"
    return said or "nothing prints differently"


def game_json(state: GameState, since: Revision | None = None) -> dict:
    """One game for the page: its decks and cards, each card marked with what concerns it;
    with `since`, what changed since that revision."""
    snap = state.snapshot
    rules = snap.rules if snap else []
    by_code: dict[str, list[dict]] = {}
    by_line: dict[tuple[str, int], list[dict]] = {}
    rules_out = []
    for v in rules:
        item = {"text": str(v), "severity": v.severity, "cards": list(v.cards), "kind": "rule"}
        rules_out.append(item)
        for code in v.cards:
            by_code.setdefault(code, []).append(item)
    for p in state.problems:     # bad input at a card's entry: mark the card in the last good render
        by_line.setdefault((str(p.path), p.line), []).append({"text": str(p), "severity": "error", "cards": [],
                                                             "kind": "input"})
    prints_out = []
    for f in state.prints:     # what `pnpgen check` finds in print, on the cards it names
        item = {"text": str(f), "severity": f.severity, "cards": f.cards, "kind": "print", "check": f.rule}
        prints_out.append(item)
        for code in f.cards:
            by_code.setdefault(code, []).append(item)
    warnings_out = []
    for n in state.warnings:
        item = {"text": str(n), "severity": "warning", "cards": [], "kind": "layout", "strict": n.strict}
        warnings_out.append(item)
        by_line.setdefault((str(n.path), n.line), []).append(item)
    decks = []
    for deck in snap.decks if snap else []:
        cards = []
        for card in deck.cards:
            marks = by_code.get(card.code, []) if card.code else []
            found = by_line.get(card.entry, [])
            for item in found:
                if card.code and card.code not in item["cards"]:
                    item["cards"].append(card.code)
            cards.append({"key": card.key, "code": card.code, "title": card.title, "count": card.count,
                          "front": _face(state.id, card.front, snap.bleed),
                          "back": _face(state.id, card.back, snap.bleed),
                          "entry": _at(card.entry), "template": _at(card.template),
                          "back_template": _at(card.back_template),
                          "marks": [{"text": m["text"], "severity": m["severity"], "kind": m["kind"]}
                                    for m in marks + found]})
        decks.append({"id": deck.id, "key": f"{deck.kind}:{deck.id}", "name": deck.name, "kind": deck.kind,
                      "file": deck.path, "size": list(deck.size), "copies": deck.copies, "cards": cards,
                      "common_back": _face(state.id, deck.common_back, snap.bleed),
                      "back_template": _at(deck.back_template)})
    rule_errors = sum(1 for v in rules if v.severity == "error")
    return {"id": state.id, "title": snap.title if snap else state.id, "errors": [str(p) for p in state.problems],
            "stale": bool(state.problems and snap), "rules": rules_out, "rule_count": snap.rule_count if snap else 0,
            "rule_errors": rule_errors, "warnings": warnings_out, "warnings_pending": state.game is not None,
            "prints": prints_out, "print_errors": sum(1 for f in state.prints if f.severity == "error"),
            "decks": decks, "seconds": round(state.seconds, 3), "updated": state.updated,
            "rendered": snap.rendered if snap else 0, "changes": _changes(state, since)}


def _changes(state: GameState, since: Revision | None) -> dict | None:
    if since is None:
        return None
    out = {"since": since.label, "ref": since.ref, "sha": since.sha, "pending": state.compare is not None,
           "problems": state.changes_problems, "seconds": round(state.compare_seconds, 3), "ready": False,
           "status": None, "counts": {}, "back_changed": False, "items": []}
    if state.changes is not None:
        out.update(changes_json(state.id, state.changes, state.snapshot), ready=True)
    return out


def _face(game_id: str, face: FaceRef | None, bleed: float) -> dict | None:
    if face is None:
        return None
    base = f"/img/{game_id}/{face.digest}.png"
    return {"digest": face.digest, "thumb": base, "full": f"{base}?full=1&bleed={bleed:g}",
            "w": face.size[0], "h": face.size[1], "shape": face.shape, "board": face.board, "bleed": bleed}


def _at(where: tuple[str, int] | None) -> str | None:
    return f"{where[0]}:{where[1]}" if where else None
