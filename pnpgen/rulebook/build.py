"""Build one game's rulebook: load its source against the game's facts, then write
rulebook.pdf (and rulebook-booklet.pdf when asked) to temporary files that the game build
renames into place with the rest of the kit."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import files, presets
from ..game.loader import GameSource
from . import document, printing, source
from .facts import Facts
from .figures import Components
from .markdown import Story
from .printing import Kit
from .styles import FACES, Styles

HALF = {"letter": (139.7, 215.9), "a4": (148.5, 210.0)}
"""The booklet page for each paper: half the sheet, turned upright."""


@dataclass
class RulebookResult:
    """What building the rulebook wrote."""

    path: Path
    pages: int
    warnings: list = field(default_factory=list)
    booklet: Path | None = None
    sheets: int = 0            # booklet sheets (each printed both sides)


def check(game: GameSource, components: Components, printed: dict, paper: str, kit: Kit | None = None) -> bool:
    """Load the rulebook and build its story without writing it: every expression, figure and
    reference is checked. Returns False when the game has no rulebook."""
    path = source.find(game.root)
    if path is None:
        return False
    src = source.load(path, game.rel(path), Facts(game, printed))
    if kit is not None:
        printing.append(src, kit)
        components.kit = kit
    page = document.PageSpec.for_paper(presets.papers()[paper])
    styles = Styles(src.front.language)
    document.title_page(src, game.game.title, components, styles, page)
    Story(src, styles, components, page.column_width * document.MM, page.body_height * document.MM).build()
    return True


def write_rulebook(game: GameSource, components: Components, printed: dict, paper: str, outdir: Path,
                   want_booklet: bool, kit: Kit | None = None) -> tuple[RulebookResult, list[tuple[str, Path]]] | None:
    """Write the game's rulebook to temporary files, ending with the section on printing and
    building `kit` when given; returns the result and the (temporary file, target) pairs to
    rename, or None when the game has no rulebook."""
    path = source.find(game.root)
    if path is None:
        return None
    src = source.load(path, game.rel(path), Facts(game, printed))
    if kit is not None:
        printing.append(src, kit)
        components.kit = kit
    target = outdir / "rulebook.pdf"
    with files.Staged() as staged:
        tmp = staged.add(target)
        page = document.PageSpec.for_paper(presets.papers()[paper])
        pages, notes = document.write(tmp, src, game.game.title, components, page, game.game.credits)
        files.finish(tmp, target)
        result = RulebookResult(target, pages, src.missing_glyphs(list(FACES)) + notes)
        if want_booklet or src.front.booklet:
            result.booklet = outdir / "rulebook-booklet.pdf"
            result.sheets = _write_booklet(game, src, components, paper, staged.add(result.booklet), result.booklet)
        written, staged.written = staged.written, []
    return result, written


def _write_booklet(game: GameSource, src, components: Components, paper: str, tmp: str, target: Path) -> int:
    """The rules typeset again on half sheets and imposed for folding; returns the sheets."""
    from . import booklet       # (only now: it brings pypdf, which a rulebook without a booklet never needs)
    half = files.temp_beside(target.with_name("rulebook-half.pdf"))
    try:
        document.write(half, src, game.game.title, components, document.PageSpec.for_paper(HALF[paper]),
                       game.game.credits)     # (its one column is wider: the Letter page's warnings stand)
        sheet_w, sheet_h = presets.papers()[paper]
        sides = booklet.impose(half, tmp, (sheet_h * document.MM, sheet_w * document.MM),
                               f"{src.front.title or game.game.title} - Rules (booklet)")
    finally:
        files.remove_quietly(half)
    files.finish(tmp, target)
    return sides // 2
