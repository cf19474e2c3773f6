"""What one export is given: the game, its decks' faces, the options, and the work folder that
becomes out/<game>/<format>/ once every file is written. Each format's writer takes a Job."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..pdf.colour import FLATTEN_PPI

INCH = 25.4


@dataclass
class Job:
    """One export under way: what to write, into the work folder that becomes out/<game>/<format>/."""

    format: str
    game: object          # the GameSource
    decks: list           # its DeckFaces (boards too, for the formats that take them)
    work: Path
    target: Path
    dpi: float
    bleed: bool
    url_base: str | None  # checked already (ends in '/'), or None
    workers: int | None
    flatten_ppi: float = FLATTEN_PPI   # a PDF/X file's see-through faces are flattened at this resolution


def px(mm: float, dpi: float) -> int:
    """A length in millimetres as whole pixels at `dpi`."""
    return round(mm / INCH * dpi)
