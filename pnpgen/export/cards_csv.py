"""cards.csv beside a deck's images: each card's code, title, copies and the files of its two
faces, for an uploader's quantities. A face is named only if its file was written; a card
with no back has none."""

from __future__ import annotations

import csv
from pathlib import Path

from .faces import DeckFaces, Face


def write_cards_csv(path: Path, deck: DeckFaces, written: dict[int, str]) -> None:
    """Write `path`: one row per card of `deck`. `written` maps id(face) to the name of the
    file that face was written to, relative to the csv's folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["code", "title", "copies", "front", "back"])
        for front in deck.fronts:
            out.writerow([front.code, front.title, front.count, _name(front, written),
                          _name(deck.back_of(front), written)])


def _name(face: Face | None, written: dict[int, str]) -> str:
    return written.get(id(face), "") if face is not None else ""
