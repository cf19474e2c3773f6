"""Where each face prints on the paper, from the build's own sheets and tiles (a
pnpgen.build.printing.Printing): for a card entry's front or back, every slot its copies
fill; for a deck's common back, every back slot; for a board's side, every tile."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Placement:
    """One place a face prints: the page (w, h mm), the matrix from the face's mm (y down)
    to the page's mm (y up), the part of the page it may print in (x, y, w, h) and the trim
    of a card there ((x, y, w, h), None for a board's tile)."""

    page: tuple
    matrix: tuple
    clip: tuple
    trim: tuple | None


class Placements:
    """Each face's placements, worked out one deck at a time as its faces come."""

    def __init__(self, printing):
        self.printing = printing
        self._deck = None
        self._slots: dict[tuple, set] = {}

    def board_layout(self, board_id: str):
        """The board's tiles as the build lays them out (a sheets.tile.Layout), or None."""
        return None if self.printing is None else self.printing.boards[board_id]

    def of(self, deck_id: str, side: str, entry: int | None) -> list[Placement]:
        """Where the face prints: `side` 'front' or 'back' of entry `entry` (None: every back
        slot, for a common back) of a deck, or 'a' / 'b' of a board."""
        if self.printing is None:
            return []
        if side in ("a", "b"):
            layout = self.board_layout(deck_id)
            return [Placement(layout.page, t.place, t.clip, None) for t in layout.tiles]
        if deck_id != self._deck:
            self._deck, self._slots = deck_id, _slots(self.printing.decks[deck_id])
        return sorted(self._slots.get((side, entry), ()), key=repr)


def _slots(sheets) -> dict[tuple, set]:
    """(side, entry index) -> the placements of that face, and (back, None) -> every back."""
    out: dict[tuple, set] = {}
    for sheet, cards in sheets.runs:
        fronts, backs = sheet.slots_for(len(cards), sheets.offset)
        for k, card in enumerate(cards):
            for side, slot in (("front", fronts[k]), ("back", backs[k])):
                placed = Placement(sheet.page, slot.transform, slot.clip, slot.trim)
                out.setdefault((side, card.entry.index), set()).add(placed)
                if side == "back":
                    out.setdefault(("back", None), set()).add(placed)
    return out
