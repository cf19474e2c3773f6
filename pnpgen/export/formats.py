"""The export formats, registered once: PNG faces (png), a format per print shop of
presets/shops.yaml (shop), and Tabletop Simulator (tts). `pnpgen export FORMAT` offers these
names and export_game dispatches on them. A format is its name, whether boards go too, and
its writer, which fills a Job's work folder and returns the notes to print."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import presets
from .job import Job
from .png import write_png
from .shop import write_shop
from .tts import write_tts


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its name, whether boards go too, and its writer."""

    name: str
    boards: bool
    """Boards are exported too (as images), not only card decks."""
    write: Callable[[Job], list[str]]
    """Writes the files into job.work; returns the notes to print."""
    url_base: bool = False
    """Takes --url-base (where the files will be served from)."""


FORMATS: dict[str, ExportFormat] = {
    "png": ExportFormat("png", True, write_png),
    **{shop: ExportFormat(shop, False, write_shop) for shop in presets.shops()},
    "tts": ExportFormat("tts", True, write_tts, url_base=True),
}
"""Every export format by name, in the order `pnpgen export` lists them."""
