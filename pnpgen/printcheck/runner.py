"""Run every print check over every face of a planned game, a few faces at a time; a face
already inspected in this process, just as it is now (memo.py), is not inspected again."""

from __future__ import annotations

from collections.abc import Iterator

from ..sheets.seams import crossed
from .boards import board_tiling, region_keeps, text_keeps
from .checks import ACROSS, CHECKS
from .faces import Face, Where, read_face
from .findings import Finding, Gathered, Hit
from .memo import Remembered
from .placing import Placements
from .raster import Backgrounds

CHUNK = 48
"""Faces laid out, rendered and checked together: memory stays flat however large the deck."""


def check_faces(plan, printing=None) -> list[Finding]:
    """The print findings of a game, from its plan (a pnpgen.build.GamePlan: the game, its
    resources and icons, and each deck's and board's layouter and cards) and how it goes
    onto paper (a pnpgen.build.printing.Printing; without it, nothing is checked against
    the page), gathered by check and template line. Raises InputError where a face cannot
    be laid out."""
    limits = plan.game.game.print
    if limits.margin is None:
        limits = limits.model_copy(update={"margin": plan.game.game.printer_margin})
    placements = Placements(printing)
    gathered = Gathered(limits.severity)
    backgrounds = Backgrounds(plan.icons, plan.resources.converted)
    run = Run(limits, backgrounds, Remembered(plan.icons, plan.game.root, limits))
    chunk: list[Face] = []
    for face in _faces(plan, placements):
        chunk.append(face)
        if len(chunk) == CHUNK:
            run.check(chunk, gathered)
            chunk = []
    if chunk:
        run.check(chunk, gathered)
    return gathered.findings()


class Run:
    """One game's faces checked, a chunk at a time: a face whose digest is remembered (memo.py)
    has the hits found on it before, and only the checks across faces run on it again."""

    def __init__(self, limits, backgrounds: Backgrounds, remembered: Remembered):
        self.limits, self.backgrounds, self.remembered = limits, backgrounds, remembered
        self.seen = {name: {} for name in ACROSS}
        self.pixels = any(check.PIXELS for name, check in CHECKS.items() if name not in self.seen)
        self.pixels_across = any(CHECKS[name].PIXELS for name in self.seen)

    def check(self, faces: list[Face], gathered: Gathered) -> None:
        keys = [self.remembered.key(face) for face in faces]
        known = [self.remembered.found(key) for key in keys]
        render = faces if self.pixels_across else [f for f, k in zip(faces, known) if k is None]
        if render and (self.pixels or self.pixels_across):
            self.backgrounds.prepare(render)
        for face, key, hits in zip(faces, keys, known):
            if hits is None:
                hits = self._inspect(face)
                self.remembered.keep(key, hits)
            for name in CHECKS:
                if name in self.seen:
                    gathered.extend(CHECKS[name].inspect(face, self.limits, self.backgrounds, self.seen[name]))
                else:
                    gathered.extend(Hit(check, where, face, *rest) for check, where, *rest in hits.get(name, ()))

    def _inspect(self, face: Face) -> dict[str, tuple]:
        """What each check that looks at one face at a time finds on it, as memo.FOUND keeps it
        (the checks that found nothing left out: most faces are kept as an empty dict)."""
        found = {}
        for name, check in CHECKS.items():
            if name not in self.seen:
                hits = tuple((hit.check, hit.where, hit.value, hit.what, hit.advice, hit.limit, hit.subject)
                             for hit in check.inspect(face, self.limits, self.backgrounds))
                if hits:
                    found[name] = hits
        return found


def _faces(plan, placements: Placements) -> Iterator[Face]:
    """Every distinct face, as the exports see them: each card entry's front and its own back
    (one copy each), each deck's common back, each side of each board."""
    for deck in plan.decks:
        source = deck.source
        seen = set()
        for card in deck.cards:
            if card.entry.index in seen:
                continue
            seen.add(card.entry.index)
            entry = (str(source.cards_path), card.entry.line)
            yield _face(plan, deck, card.code, "front", card, card.front, entry,
                        placements.of(deck.id, "front", card.entry.index))
            if card.back and (card.unique_back or source.deck.pack):
                yield _face(plan, deck, card.code, "back", card if card.unique_back else None, card.back, entry,
                            placements.of(deck.id, "back", card.entry.index))
        back = source.deck.back
        if back and not back.per_card and not source.deck.pack:
            yield _face(plan, deck, "", "back", None, back.template, None, placements.of(deck.id, "back", None))
    for board in plan.boards:
        yield from _board_faces(plan, board, placements)


def _board_faces(plan, board, placements: Placements) -> list[Face]:
    """Each side of a board, with what its seams go through when tiled on the game's paper."""
    faces = [_face(plan, board, "", side, board.card, template, None, placements.of(board.id, side, None))
             for side, template in zip("ab", board.sides)]
    keeps = [region_keeps(board.source)] + [text_keeps(face) for face in faces]
    layout = placements.board_layout(board.id) or \
        board_tiling(plan.game.game, board.source.board, [k for ks in keeps for k in ks])
    faces[0].seams = crossed(keeps[0], layout.cuts_x, layout.cuts_y)
    for face, own in zip(faces, keeps[1:]):
        face.seams += crossed(own, layout.cuts_x, layout.cuts_y)
    return faces


def _face(plan, deck, code: str, side: str, card, template: str, entry, placed: list) -> Face:
    """One face laid out element by element, each thing on it located at its template line."""
    tpl = plan.game.templates[template]
    path = str(tpl.doc.path)

    def where(index) -> Where:
        if index == "code":
            return Where(path, tpl.doc.line(("code",)), "code")
        return Where(path, tpl.doc.line(("elements", index)), f"elements[{index}]")

    size = tpl.template.size or deck.layouter.size
    face = Face(plan.game.id, deck.id, code, side, entry, size, tpl.template.shape, plan.game.game.bleed,
                template=path, placements=placed, outline=tpl.template.outline(size))
    return read_face(face, deck.layouter.layout_by_element(card, template), where)
