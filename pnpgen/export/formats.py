"""The export formats, registered once: PNG faces, a format per print shop of
presets/shops.yaml, and Tabletop Simulator. `pnpgen export FORMAT` offers these names, and
export_game dispatches on them. A format is its name, whether boards go too, and its writer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import presets


@dataclass
class Job:
    """One export under way: what to write, into the work folder that becomes out/<game>/<format>/."""

    format: str
    game: object          # the GameSource
    decks: list           # its DeckFaces
    work: Path
    target: Path
    dpi: float
    bleed: bool
    url_base: str | None
    workers: int | None


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its name, whether boards go too, and its writer."""

    name: str
    boards: bool
    """Boards are exported too (as images), not only card decks."""
    write: Callable[[Job], list[str]]
    """Writes the files into job.work; returns the notes to print."""


def _png(job: Job) -> list[str]:
    from . import _png as write_png
    return write_png(job.game, job.decks, job.work, job.dpi, job.bleed, job.workers)


def _shop(job: Job) -> list[str]:
    from . import _shop as write_shop
    return write_shop(job.game, job.decks, job.work, job.format, job.workers)


def _tts(job: Job) -> list[str]:
    from .tts import export_tts
    return export_tts(job.game, job.decks, job.work, job.url_base or (job.target.resolve().as_uri() + "/"),
                      job.workers)


FORMATS: dict[str, ExportFormat] = {
    "png": ExportFormat("png", True, _png),
    **{shop: ExportFormat(shop, False, _shop) for shop in presets.shops()},
    "tts": ExportFormat("tts", True, _tts),
}
"""Every export format by name, in the order `pnpgen export` lists them."""
