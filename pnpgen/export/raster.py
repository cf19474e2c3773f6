"""Faces to PNG files: drawn one to a page (faces.write_pages), then each page rendered with
pdfium (pypdfium2) at exactly the pixel size asked for, pages shared out over worker processes
(rendering is CPU-bound and pdfium is not thread-safe, so processes, not threads)."""

from __future__ import annotations

import contextlib
import math
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextvars import ContextVar
from pathlib import Path
from typing import Callable

from .faces import DeckFaces, Face, write_pages

PARALLEL_FROM = 24
"""Pages below which one process renders everything (starting workers costs more)."""

PNG_LEVEL = 3
"""zlib's level for the faces an export writes as PNG files: at 3 a 300 DPI face is compressed
in about 60 % of the time of Pillow's default (6); `pnpgen export png` of the five bundled games
took 25.8-26.0 s, not 31.2-31.7, for 7 % more bytes (2 December); 1 is no faster, and larger.
Tabletop Simulator's images are written at SHARED_LEVEL instead."""

SHARED_LEVEL = 6
"""zlib's level for Tabletop Simulator's sheets and tokens (Pillow's default): every player at
the table downloads them, and at PNG_LEVEL the five bundled games' came out 13 % larger."""

BATCH = 16
"""Pages rendered between two reports to RENDERED."""

RENDERED: ContextVar[Callable[[int], None] | None] = ContextVar("rendered", default=None)
"""Told how many more pages are rendered as each batch is done (an export's progress line)."""


class _Pool:
    """Worker processes for rendering, started when first needed and kept for what follows."""

    def __init__(self, workers: int):
        self.workers = workers
        self.executor: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(max_workers=self.workers)
        return self.executor


_POOL: ContextVar[_Pool | None] = ContextVar("render_pool", default=None)


@contextlib.contextmanager
def one_pool(workers: int | None = None):
    """Render everything inside with one set of worker processes, started when first needed:
    an export renders sheet after sheet, and starting workers for each (forking the whole
    process) took longer than rendering a small sheet."""
    pool = _Pool(workers or min(os.cpu_count() or 1, 8))
    token = _POOL.set(pool)
    try:
        yield
    finally:
        _POOL.reset(token)
        if pool.executor is not None:
            pool.executor.shutdown(wait=True, cancel_futures=True)


def render_faces(deck: DeckFaces, faces: list[Face], paths: list[Path], sizes: list[tuple[int, int]],
                 bleed_mm: float, dpi: float, work: Path, workers: int | None, alpha: bool = False,
                 level: int = PNG_LEVEL) -> None:
    """Draw `faces` one to a page with `bleed_mm` round each, then render face i to paths[i]
    at exactly sizes[i] pixels, a PNG compressed at zlib's `level` (the folders are made; the
    page PDF is a passing file in `work`)."""
    pdf = work / f".{deck.id}.faces.pdf"
    write_pages(pdf, faces, deck, bleed_mm, deck.name)
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
    render_pages(pdf, [(i, size, path) for i, (size, path) in enumerate(zip(sizes, paths))], dpi, workers, alpha,
                 level=level)
    pdf.unlink()


def render_pages(pdf: Path | str, jobs: list[tuple[int, tuple[int, int], Path]], dpi: float,
                 workers: int | None = None, alpha: bool = False, passing: bool = False,
                 level: int = PNG_LEVEL) -> None:
    """Render page i of `pdf` to a PNG of exactly (w, h) pixels at path, compressed at zlib's
    `level`, for each job; with `alpha`, what the page leaves undrawn is transparent (round
    tokens). `passing` files are read back at once and removed (tiles of a sheet): they are
    raw pixels (PPM), not PNGs, some 20 times quicker to write and read."""
    shared = _POOL.get()
    workers = shared.workers if shared is not None else workers or min(os.cpu_count() or 1, 8)
    told = RENDERED.get() or (lambda pages: None)
    if len(jobs) < PARALLEL_FROM or workers < 2:
        for start in range(0, len(jobs), BATCH):
            _render(str(pdf), jobs[start:start + BATCH], dpi, alpha, passing, level)
            told(len(jobs[start:start + BATCH]))
        return
    size = max(1, min(BATCH, -(-len(jobs) // workers)))
    with contextlib.ExitStack() as own:
        pool = shared.get() if shared is not None else own.enter_context(ProcessPoolExecutor(max_workers=workers))
        batches = {pool.submit(_render, str(pdf), jobs[i:i + size], dpi, alpha, passing, level): len(jobs[i:i + size])
                   for i in range(0, len(jobs), size)}
        for done in as_completed(batches):
            done.result()
            told(batches[done])


def _rendered(page, w: int, h: int, alpha: bool):
    """The page as a Pillow image of exactly w x h pixels, scaled to the width. pdfium rounds
    the bitmap's size up, and a face's width and height in pixels are each rounded, so it
    often draws one more column or row (821 x 1121 asked, 822 x 1122 drawn): that one, in the
    bleed at the right or bottom edge, is cut off. Resampling the whole picture for it blurred
    it a little and took about as long as compressing it. A size further off is resampled."""
    pw, ph = page.get_size()
    scale = w / pw
    one = 0.5 / scale              # (page units that pdfium rounds up to one pixel)
    crop = (0, one if math.ceil(ph * scale) == h + 1 else 0, one if math.ceil(pw * scale) == w + 1 else 0, 0)
    if alpha:
        image = page.render(scale=scale, crop=crop, may_draw_forms=False, fill_color=(255, 255, 255, 0)).to_pil()
        image = image.convert("RGBA")
    else:
        image = page.render(scale=scale, crop=crop, may_draw_forms=False).to_pil().convert("RGB")
    return image if image.size == (w, h) else image.resize((w, h))


def _render(pdf: str, jobs, dpi: float, alpha: bool = False, passing: bool = False, level: int = PNG_LEVEL) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for index, (w, h), path in jobs:
            page = doc[index]
            image = _rendered(page, w, h, alpha)
            tmp = Path(f"{path}.part")
            if passing:
                image.save(tmp, format="PPM")
            else:
                image.save(tmp, format="PNG", dpi=(dpi, dpi), compress_level=level)
            os.replace(tmp, path)
            page.close()
    finally:
        doc.close()
