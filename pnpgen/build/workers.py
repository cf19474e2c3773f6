"""A volume's sheets laid out and drawn by worker processes at once, each a fork of the build
(so it starts with the game, the plan and the fonts already loaded), while the build puts
their pages into the PDF in order, exactly as it puts back the pages the build cache keeps.

Two steps, because a page's bytes depend on the PDF's font state: each worker lays its
sheets out and says which characters they use; the build seeds its fonts with all of them
and hands the same set back; each worker seeds its own canvas the same way and draws. A page
a worker cannot vouch for (see pdf/replay.py) is drawn again by the build itself, so the
PDF is byte for byte the one a single process writes."""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
from dataclasses import dataclass

from .. import fonts
from ..pdf.canvas import CardCanvas
from .cache import PageCache, PageKeys, charset, font_key, page_images
from .pages import assemble_pages

SHEETS_EACH = 6
"""The fewest sheets worth a worker of their own: starting one costs about as much as
drawing a few sheets."""


def worker_count(sheets: int, wanted: int | None) -> int:
    """How many workers to draw `sheets` sheets with: `wanted` (None: one a core), fewer when
    there are too few sheets to share out, and one (no worker at all) where processes cannot
    be forked."""
    if wanted == 1 or not hasattr(os, "fork") or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(wanted or cores, sheets // SHEETS_EACH))


@dataclass
class Share:
    """One worker's part of a volume: its sheets, where they start, and its pipe."""

    runs: list
    first_sheet: int     # in the deck
    first_page: int      # in the volume
    conn: object = None
    process: object = None


@dataclass
class Shared:
    """A volume being written by workers: its parts and, once they have laid out, the font set."""

    volume: object
    parts: list[Share]
    fonts: dict | None = None


def shares(runs: list, first_sheet: int, pages_per_sheet: int, count: int) -> list[Share]:
    """The volume's sheets cut into `count` runs of sheets in a row, as even as can be."""
    out, start = [], 0
    for k in range(count):
        end = start + (len(runs) - start) // (count - k)
        out.append(Share(runs[start:end], first_sheet + start, start * pages_per_sheet))
        start = end
    return out


class NotShared(Exception):
    """The workers' fonts cannot be matched in the build's PDF: write the volume in one process."""


class Job:
    """What a worker needs to lay out and draw its sheets; the build fills it in and forks."""

    def __init__(self, game, deck, sheets, forms, slug, record_prints, cache_path):
        self.game, self.deck, self.sheets, self.forms, self.slug = game, deck, sheets, forms, slug
        self.record_prints = record_prints    # the manifest's Fingerprints, or None: no manifest
        self.cache_path = cache_path          # the build cache to skip kept pages by, or None

    def start(self, share: Share, volume_index: int) -> None:
        """Fork a worker for `share`, one of the parts of volume `volume_index`."""
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        share.process = context.Process(target=self._work, args=(share, volume_index, child), daemon=True)
        gc.freeze()         # the worker's collector then leaves the build's objects alone (and unshared pages)
        try:
            share.process.start()
        finally:
            gc.unfreeze()
        child.close()
        share.conn = parent

    def _work(self, share: Share, volume_index: int, conn) -> None:
        """In the worker: lay out, report the characters, wait for the font set, draw, report."""
        try:
            record = None
            if self.record_prints is not None:
                from .manifest import DeckRecord
                record = DeckRecord(self.deck.source, self.record_prints)
                record.log = []
            warned = len(self.deck.layouter.warnings)
            pages = assemble_pages(self.game, self.deck, self.sheets, share.runs, share.first_sheet,
                                  volume_index, self.slug, record, share.first_page)
            slug_font = fonts.ensure("sans", fonts.BUILTIN["sans"])
            used = charset(pages, self.forms, slug_font)
            conn.send(("laid", used, font_files(used), self.deck.layouter.warnings[warned:]))
            seeded = conn.recv()
            conn.send(("drawn", self._draw(pages, seeded, slug_font, record), record.log if record else None))
        except BaseException as exc:      # (any failure goes to the build, which raises it)
            try:
                conn.send(("error", exc))
            except (pickle.PicklingError, TypeError, AttributeError):
                conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
        finally:
            conn.close()
            os._exit(0)

    def gather_fonts(self, parts: list[Share]) -> dict[str, str]:
        """In the build: every part laid out; their warnings taken in order, the fonts they met
        registered here too, and the one font set for the volume."""
        charsets = []
        for part in parts:
            used, files, warnings = receive(part, "laid")
            self.deck.layouter.absorb(warnings)
            for name, origin in files.items():
                if not fonts.known(name) and (origin is None or fonts.ensure(*origin) != name):
                    raise NotShared(name)
            charsets.append(used)
        return merge_charsets(charsets)

    def _draw(self, pages, seeded: dict, slug_font: str, record) -> list:
        """Each page as (cache key or None, entry or None): no entry when the cache holds the
        page already or the page cannot be replayed."""
        g = self.game.game
        canvas = CardCanvas(os.devnull, self.sheets.page, "", self.forms, g.bleed, slug_font, "",
                            self.deck.layouter.res.converted)
        canvas.seed_fonts(seeded)
        canvas.define_forms(sorted(self.forms))
        cache = PageCache(self.cache_path) if self.cache_path is not None else None
        keys = None
        if cache is not None:
            keys = PageKeys(self.forms, self.game.root, font_key(seeded), self.sheets.page, g.bleed)
            if record is not None:
                record.share(keys)
        out = []
        for page in pages:
            key = keys.key(page) if keys is not None else None
            if key is not None and cache.holds(key):
                out.append((key, None))
                continue
            canvas.draw_page(page, slug_font)
            entry = canvas.record_page(page_images(page))
            out.append((key, None if entry is None else (entry.content, entry.forms, entry.images, entry.gstates)))
        return out


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


def font_files(used: dict) -> dict:
    """The file behind each font named in `used` (a worker may have met a font the build has
    not registered yet): reportlab name -> (our name, path)."""
    return {name: fonts.origin(name) for name in used}


def merge_charsets(charsets: list[dict]) -> dict[str, str]:
    """One font set for the whole volume, as `charset` would give it for all its pages."""
    merged: dict[str, set] = {}
    for used in charsets:
        for name, chars in used.items():
            merged.setdefault(name, set()).update(chars)
    return {name: "".join(sorted(chars)) for name, chars in sorted(merged.items())}
