"""Build one game's rulebook: load its source against the game's facts, then write
rulebook.pdf (and rulebook-booklet.pdf when asked) to temporary files that the game build
renames into place with the rest of the kit."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import presets
from ..game.loader import GameSource
from . import booklet, document, source
from .facts import Facts
from .figures import Components
from .markdown import Story
from .styles import FACES, Styles

HALF = {"letter": (139.7, 215.9), "a4": (148.5, 210.0)}
"""The booklet page for each paper: half the sheet, turned upright."""


@dataclass
class RulebookResult:
    path: Path
    pages: int
    warnings: list = field(default_factory=list)
    booklet: Path | None = None
    sheets: int = 0            # booklet sheets (each printed both sides)


def check(game: GameSource, components: Components, printed: dict, paper: str) -> bool:
    """Load the rulebook and build its story without writing it: every expression, figure and
    reference is checked. Returns False when the game has no rulebook."""
    path = source.find(game.root)
    if path is None:
        return False
    src = source.load(path, game.rel(path), Facts(game, printed))
    page = document.PageSpec.for_paper(presets.papers()[paper])
    styles = Styles(src.front.language)
    document.title_page(src, game.game.title, components, styles, page)
    Story(src, styles, components, page.column_width * document.MM, page.body_height * document.MM).build()
    return True


def write_rulebook(game: GameSource, components: Components, printed: dict, paper: str, outdir: Path,
                   temp, want_booklet: bool) -> tuple[RulebookResult, list[tuple[str, Path]]] | None:
    """Write the game's rulebook to temporary files; returns the result and the
    (temporary file, target) pairs to rename, or None when the game has no rulebook.
    `temp(name)` makes a temporary file for out/<game>/<name>.pdf."""
    path = source.find(game.root)
    if path is None:
        return None
    src = source.load(path, game.rel(path), Facts(game, printed))
    subject = game.game.credits
    target = outdir / "rulebook.pdf"
    tmp = temp("rulebook")
    written = [(tmp, target)]
    try:
        page = document.PageSpec.for_paper(presets.papers()[paper])
        pages = document.write(tmp, src, game.game.title, components, page, subject)
        os.chmod(tmp, 0o644)
        result = RulebookResult(target, pages, src.missing_glyphs(list(FACES)))
        if want_booklet or src.front.booklet:
            half = tempfile.mkstemp(prefix=".rulebook-half.", suffix=".pdf.part", dir=outdir)
            os.close(half[0])
            try:
                document.write(half[1], src, game.game.title, components, document.PageSpec.for_paper(HALF[paper]),
                               subject)
                sheet_w, sheet_h = presets.papers()[paper]
                btmp = temp("rulebook-booklet")
                written.append((btmp, outdir / "rulebook-booklet.pdf"))
                sides = booklet.impose(half[1], btmp, (sheet_h * document.MM, sheet_w * document.MM),
                                       f"{src.front.title or game.game.title} - Rules (booklet)")
            finally:
                os.unlink(half[1])
            os.chmod(btmp, 0o644)
            result.booklet, result.sheets = outdir / "rulebook-booklet.pdf", sides // 2
    except BaseException:
        for t, _ in written:
            try:
                os.unlink(t)
            except OSError:
                pass
        raise
    return result, written
