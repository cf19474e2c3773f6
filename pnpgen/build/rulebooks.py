"""The rulebook of a game's kit: typeset from rulebook.md with figures drawn by the same
layouters as the sheets, written beside the decks (and as a booklet when asked)."""

from __future__ import annotations

from pathlib import Path

from .. import files
from ..errors import InputError, Notice
from ..game.loader import GameSource
from .options import Options
from .plan import GamePlan, has_rulebook, plan_game, refuse_if_strict
from .results import RulebookResult


def components_of(plan: GamePlan):
    """What a rulebook's figures may show: every deck's and board's faces, drawn by their layouters."""
    from ..rulebook.figures import Components
    return Components(plan.game, {d.id: (d.layouter, d.cards) for d in plan.decks},
                      {b.id: (b.layouter, b.card) for b in plan.boards}, plan.icons, plan.resources.converted)


def check_rulebook(game: GameSource) -> bool:
    """Run the game's rulebook source as far as a build would short of writing the PDF: its
    expressions, its Markdown and every figure it names. Raises InputError on a broken
    reference; returns whether the game has a rulebook."""
    if not has_rulebook(game):
        return False
    plan = plan_game(game, Options())
    from ..rulebook.build import check
    from .printing import kit, printing
    return check(game, components_of(plan), plan.deck_cards(), game.game.paper, kit(plan, printing(plan)))


def build_rulebook(plan: GamePlan, outdir: Path, options: Options,
                   results: list) -> list[tuple[str, Path]]:
    """The rulebook, with figures drawn by the same layouters as the sheets; returns the
    temporary files to rename."""
    game = plan.game
    if not has_rulebook(game):
        return []     # (checked before importing: the rulebook press is slow to load)
    from reportlab.platypus.doctemplate import LayoutError as PlatypusError

    from ..rulebook.build import write_rulebook
    from ..rulebook.source import find
    from .printing import kit, printing
    options.progress(f"{game.id}/rulebook ...")
    paper = options.paper or game.game.paper
    try:
        result, written = write_rulebook(game, components_of(plan), plan.deck_cards(), paper, outdir, options.booklet,
                                         kit(plan, printing(plan, options), options))
    except InputError as exc:
        if not options.lenient_rulebook:
            raise
        # --no-check: the decks are built; a rulebook that names what they lack is not
        results.append(RulebookResult(outdir / "rulebook.pdf", 0, [
            Notice(p.path, p.line, f"{p.message} (rulebook not written)") for p in exc.problems]))
        return []
    except PlatypusError as exc:
        raise InputError.at(game.rel(find(game.root)), None, f"a block of the rulebook cannot be laid out "
                            f"({str(exc).splitlines()[0][:200]}); split a long table or call-out") from None
    except OSError as exc:
        raise files.unwritable(outdir / "rulebook.pdf", exc) from None
    rulebook = RulebookResult(result.path, result.pages, result.warnings)
    try:
        refuse_if_strict(rulebook.warnings, options)
    except InputError:
        for tmp, _ in written:
            files.remove_quietly(tmp)
        raise
    results.append(rulebook)
    options.progress(f"  wrote {result.path}: {result.pages} pages" +
                     (f"; booklet {result.booklet}: {result.sheets} sheets, print duplex flipped on the short "
                      "edge, fold and staple" if result.booklet else ""))
    return written
