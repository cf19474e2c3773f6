"""A volume's pages laid out and drawn by worker processes at once, each a fork of the build
(so it starts with the game, the plan, the fonts and the volume's page facts already loaded),
while the build puts their pages into the PDF in order, exactly as it puts back the pages the
build cache keeps.

Two steps, because a page's bytes depend on the PDF's font state: each worker lays out those
of its pages the build has no facts for (facts.py) and sends their facts; the build seeds its
fonts with every character of the volume and hands the same set back; each worker seeds its
own canvas the same way and draws those of its pages the cache does not hold. A page a worker
cannot vouch for (see pdf/replay.py) is drawn again by the build itself, so the PDF is byte
for byte the one a single process writes."""

from __future__ import annotations

import gc
import os
import pickle
from dataclasses import dataclass

from ..expr import kept
from ..pdf.canvas import CardCanvas
from ..pdf.replay import Entry
from .cache import PageCache, font_key, page_images

SHEETS_EACH = 6
"""The fewest sheets worth a worker of their own: starting one costs about as much as
drawing a few sheets."""


def worker_count(sheets: int, wanted: int | None) -> int:
    """How many workers to draw `sheets` sheets with: `wanted` (None: one a core), fewer when
    there are too few sheets to share out, and one (no worker at all) where processes cannot
    be forked."""
    if wanted == 1 or sheets // SHEETS_EACH < 2 or not hasattr(os, "fork"):
        return 1
    import multiprocessing      # (only now: a deck of a few sheets is drawn by the build itself)
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(wanted or cores, sheets // SHEETS_EACH))


@dataclass
class Share:
    """One worker's part of a volume: its pages (by their place in the volume) and its pipe."""

    pages: list[int]
    conn: object = None
    process: object = None


@dataclass
class Shared:
    """The workers of a volume, each with its part."""

    parts: list[Share]


def shares(pages: list[int], count: int) -> list[Share]:
    """The pages cut into `count` runs in a row, as even as can be."""
    out, start = [], 0
    for k in range(count):
        end = start + (len(pages) - start) // (count - k)
        out.append(Share(pages[start:end]))
        start = end
    return out


class NotShared(Exception):
    """The workers' fonts cannot be matched in the build's PDF: write the volume in one process."""


class Job:
    """What a worker needs to lay out and draw its pages; the build fills it in and forks."""

    def __init__(self, finder, page_keys, cache_path, sheets, forms: dict, bleed: float, images: dict):
        self.finder = finder              # facts.FactFinder: lays pages out, says what each told
        self.page_keys = page_keys        # cache.PageKeys, or None: no build cache
        self.cache_path = cache_path      # the build cache to skip kept pages by, or None
        self.sheets, self.forms, self.bleed, self.images = sheets, forms, bleed, images

    def start(self, share: Share, work) -> None:
        """Fork a worker for `share`, one of the parts of the volume `work` (volumes.VolumeWork)."""
        import multiprocessing      # (imported by worker_count already)
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        share.process = context.Process(target=self._work, args=(share, work, child), daemon=True)
        gc.freeze()         # the worker's collector then leaves the build's objects alone (and unshared pages)
        try:
            share.process.start()
        finally:
            gc.unfreeze()
        child.close()
        share.conn = parent

    def _work(self, share: Share, work, conn) -> None:
        """In the worker: lay out what has no facts, send them, wait for the font set, draw, send."""
        try:
            marked = kept.marks()
            per_sheet = self.sheets.pages_per_sheet
            found = []
            for p in share.pages:
                if work.facts[p] is None:
                    work.laid[p], work.facts[p] = self.finder.lay_out(work.plans[p // per_sheet], p % per_sheet)
                    found.append((p, work.facts[p]))
            conn.send(("laid", found))
            seeded = conn.recv()
            conn.send(("drawn", self._draw(share, work, seeded, per_sheet), kept.added_since(marked)))
        except BaseException as exc:      # (any failure goes to the build, which raises it)
            try:
                conn.send(("error", exc))
            except (pickle.PicklingError, TypeError, AttributeError):
                conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
        finally:
            conn.close()
            os._exit(0)

    def _draw(self, share: Share, work, seeded: dict, per_sheet: int) -> list:
        """Each page's drawing as the parts of an Entry, or None: the cache holds the page
        already, or the page cannot be replayed."""
        slug_font = self.finder.slug_font
        canvas = CardCanvas(os.devnull, self.sheets.page, "", self.forms, self.bleed, slug_font, "", self.images)
        canvas.seed_fonts(seeded)
        canvas.define_forms(sorted(self.forms))
        cache = PageCache(self.cache_path) if self.cache_path is not None else None
        fonts_state = font_key(seeded) if self.page_keys is not None else None
        out = []
        for p in share.pages:
            if cache is not None and cache.holds(self.page_keys.drawn(work.facts[p].content, fonts_state)):
                out.append(None)
                continue
            page = work.laid.pop(p, None) or self.finder.maker.page(work.plans[p // per_sheet], p % per_sheet)
            canvas.draw_page(page, slug_font)
            entry = canvas.record_page(page_images(page))
            out.append(None if entry is None else (entry.content, entry.forms, entry.images, entry.gstates))
        return out


class Drawn:
    """The pages a volume's workers drew, taken from each worker as the build reaches its part."""

    def __init__(self, shared: Shared | None):
        self.parts = shared.parts if shared is not None else []
        self.any = bool(self.parts)
        self._of = {p: k for k, part in enumerate(self.parts) for p in part.pages}
        self._entries: dict[int, tuple | None] = {}

    def entry(self, p: int) -> Entry | None:
        """The entry a worker drew for page `p` of the volume, or None (no worker drew it)."""
        k = self._of.pop(p, None)
        if k is None:
            return None
        if p not in self._entries:
            part = self.parts[k]
            drawn, found = receive(part, "drawn")
            kept.take(found)        # (what the worker's expressions compiled to: kept by this process)
            self._entries.update(zip(part.pages, drawn))
        got = self._entries.pop(p)
        return Entry(*got) if got is not None else None


def receive(part: Share, step: str):
    """The next report of a worker: what it sends after `step`, or the error it met, raised."""
    try:
        kind, *report = part.conn.recv()
    except EOFError:
        raise RuntimeError(f"a build worker ended without a word (exit status {part.process.exitcode})") from None
    if kind == "error":
        raise report[0]
    if kind != step:
        raise RuntimeError(f"a build worker said {kind!r}, not {step!r}")
    return report


def stop(parts: list[Share]) -> None:
    """End every worker still running (after an error, or once done) and wait for it."""
    for part in parts:
        if part.process is None:
            continue
        if part.process.is_alive():
            part.process.terminate()
        part.process.join()
        part.conn.close()


def merge_charsets(charsets: list[dict]) -> dict[str, str]:
    """One font set for the whole volume, as `charset` would give it for all its pages."""
    merged: dict[str, set] = {}
    for used in charsets:
        for name, chars in used.items():
            merged.setdefault(name, set()).update(chars)
    return {name: "".join(sorted(chars)) for name, chars in sorted(merged.items())}
