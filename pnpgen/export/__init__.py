"""Every way a kit leaves the machine besides home sheets: PNG card faces, print-shop
uploads (The Game Crafter, MakePlayingCards, DriveThruCards) and Tabletop Simulator decks.

faces (one face a page, drawn like the sheets) -> raster (pages to exact-size PNGs) -> a
writer per format (png, shop, tts; registered in formats). Everything lands in
out/<game>/<format>/, written into a folder beside it that replaces it whole once complete,
so a failed export leaves the old one as it was."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import files
from ..build import Options
from ..errors import InputError
from ..game.loader import GameSource
from ..pdf.colour import FLATTEN_PPI
from .faces import deck_faces
from .formats import FORMATS
from .job import Job
from .progress import faces_to_draw
from .raster import RENDERED, one_pool
from .tts import checked_url_base

MAX_DPI = 1200


@dataclass
class ExportResult:
    """What an export wrote and what it has to say."""

    format: str
    folder: Path
    files: int
    notes: list = field(default_factory=list)   # lines to print, and located Notices (templates flattened)


def check_options(fmt: str, dpi: float = 300, url_base: str | None = None) -> str | None:
    """Refuse what no game can export (exit status 2): an unknown format, a DPI out of range,
    --url-base that is no folder URL, or one given to a format that names no URLs. Returns
    --url-base as used (ending in '/')."""
    if fmt not in FORMATS:
        raise InputError.at("pnpgen export", None, f"unknown format '{fmt}'; choose one of {', '.join(FORMATS)}")
    if not 50 <= dpi <= MAX_DPI:
        raise InputError.at("pnpgen export", None, f"--dpi {dpi:g}: give 50 to {MAX_DPI}")
    if url_base is not None and not FORMATS[fmt].url_base:
        users = ", ".join(name for name, f in FORMATS.items() if f.url_base)
        raise InputError.at("--url-base", None, f"{fmt} files name no URLs: --url-base is for {users} only; "
                            "leave it out")
    return checked_url_base(url_base)


def export_game(game: GameSource, fmt: str, out: Path, dpi: float = 300, bleed: bool = True,
                url_base: str | None = None, workers: int | None = None,
                rendered: Callable[[int, int], None] | None = None,
                flatten_ppi: float = FLATTEN_PPI) -> ExportResult:
    """Export every deck of `game` as `fmt` into out/<game>/<fmt>/ (replacing what was there);
    `rendered` is told (faces drawn so far, faces in all) as the work goes (a progress line).
    A PDF/X file's see-through faces are flattened at `flatten_ppi`."""
    url_base = check_options(fmt, dpi, url_base)
    decks = [d for d in deck_faces(game, Options(), boards=FORMATS[fmt].boards) if d.fronts]
    target = out / game.id / fmt
    work = files.temp_folder_beside(target)
    job = Job(fmt, game, decks, work, target, dpi, bleed, url_base, workers, flatten_ppi)
    telling = RENDERED.set(None)
    try:
        if rendered is not None:
            RENDERED.set(_running_count(rendered, faces_to_draw(job)))
        with one_pool(workers):
            notes = FORMATS[fmt].write(job)
        count = sum(1 for p in work.rglob("*") if p.is_file())
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        RENDERED.reset(telling)
    files.replace_folder(work, target)
    return ExportResult(fmt, target, count, notes)


def _running_count(rendered: Callable[[int, int], None], total: int) -> Callable[[int], None]:
    """What the writers tell (faces drawn just now) as `rendered` takes it: (so far, in all)."""
    done = 0

    def told(faces: int) -> None:
        nonlocal done
        done += faces
        rendered(done, total)
    return told
