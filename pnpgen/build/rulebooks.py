"""The rulebook of a game's kit: typeset from rulebook.md with figures drawn by the same
layouters as the sheets, written beside the decks (and as a booklet when asked)."""

from __future__ import annotations

from pathlib import Path

from .. import files
from ..errors import InputError, Notice
from ..game.loader import GameSource
from .cache import PageCache
from .kept_rulebook import KeptRulebook, Told
from .options import Options
from .plan import GamePlan, has_rulebook, plan_game, refuse_if_strict
from .results import RulebookResult


def components_of(plan: GamePlan):
    """What a rulebook's figures may show: every deck's and board's faces, drawn by their layouters."""
    from ..rulebook.figures import Components
    return Components(plan.game, {d.id: (d.layouter, d.cards) for d in plan.decks},
                      {b.id: (b.layouter, b.card) for b in plan.boards}, plan.icons, plan.resources.converted)


def check_rulebook(game: GameSource, plan: GamePlan | None = None) -> bool:
    """Run the game's rulebook source as far as a build would short of writing the PDF: its
    expressions, its Markdown and every figure it names (drawn by `plan`'s layouters: the
    game planned with the default options, as `pnpgen check` has it). Raises InputError on a
    broken reference; returns whether the game has a rulebook."""
    if not has_rulebook(game):
        return False
    plan = plan or plan_game(game, Options())
    from ..rulebook.build import check
    from .printing import kit, printing
    return check(game, components_of(plan), plan.deck_cards(), game.game.paper, kit(plan, printing(plan)))


def build_rulebook(plan: GamePlan, outdir: Path, options: Options, results: list,
                   cache: PageCache) -> list[tuple[str, Path]]:
    """The rulebook, with figures drawn by the same layouters as the sheets; returns the
    temporary files to rename (none when the rulebook in out/ is kept: kept_rulebook.py)."""
    if not has_rulebook(plan.game):
        return []     # (checked before importing: the rulebook press is slow to load)
    kept = KeptRulebook(plan, outdir, options, cache)
    told, written = kept.unchanged(), []
    if told is None:
        typeset = _typeset(plan, outdir, options, results)
        if typeset is None:
            return []
        told, written = typeset
    try:
        refuse_if_strict(told.warnings, options)
    except InputError:
        for tmp, _ in written:
            files.remove_quietly(tmp)
        raise
    results.append(RulebookResult(outdir / "rulebook.pdf", told.pages, told.warnings))
    kept.written(told, written)
    files_of = told.files(outdir)
    options.progress(f"  {'wrote' if written else 'kept'} {files_of[0]}: {told.pages} pages" +
                     (f"; booklet {files_of[1]}: {told.sheets} sheets, print duplex flipped on the short "
                      "edge, fold and staple" if told.sheets else "") +
                     ("" if written else " (nothing it is made from changed)"))
    return written


def _typeset(plan: GamePlan, outdir: Path, options: Options, results: list) -> tuple[Told, list] | None:
    """Typeset the rulebook (and its booklet) into temporary files: what it said and the
    (temporary file, target) pairs; None when --no-check leaves out a rulebook that names
    what the game lacks (its warnings are in `results` then)."""
    from reportlab.platypus.doctemplate import LayoutError as PlatypusError

    from ..rulebook.build import write_rulebook
    from ..rulebook.source import find
    from .printing import kit, printing
    game = plan.game
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
        return None
    except PlatypusError as exc:
        raise InputError.at(game.rel(find(game.root)), None, f"a block of the rulebook cannot be laid out "
                            f"({str(exc).splitlines()[0][:200]}); split a long table or call-out") from None
    except OSError as exc:
        raise files.unwritable(outdir / "rulebook.pdf", exc) from None
    return Told(result.pages, result.warnings, result.sheets if result.booklet else 0), written
