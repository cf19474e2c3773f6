"""Build a game: plan it, draw every deck, board and the rulebook into temporary files,
then rename them all into place with out/<game>/manifest.json, so a problem found in the
last deck leaves no new file behind."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path

from .. import files
from ..errors import InputError, Notice
from ..expr.kept import keep_all
from ..game.loader import GameSource
from ..layout.imagestore import ImageStore
from .cache import PageCache, prune_images
from .decks import build_deck
from .manifest import Manifest
from .options import Options
from .plan import DeckPlan, GamePlan, plan_game, refuse_if_strict, with_game_layout
from .project import Project, load
from .results import DeckResult, Result
from .rulebooks import build_rulebook
from .shared import build_shared, remove_stale, shared_only
from .sharing import Sharing, share_game


def build_game(project: Project, game_id: str, options: Options) -> list[Result]:
    """Build every deck of one game. Raises InputError before writing if the input is bad."""
    return build_loaded(load(project, game_id, options), options)


def build_loaded(game: GameSource, options: Options) -> list[Result]:
    """Build every deck, board and the rulebook of an already loaded game."""
    options = with_game_layout(game, options)
    return build_planned(plan_game(game, options), options)


def build_planned(plan: GamePlan, options: Options) -> list[Result]:
    """Build every deck, board and the rulebook of a planned game (plan_game with `options`:
    a caller that looks at the plan first, as `build --strict` does, plans once)."""
    game, options = plan.game, with_game_layout(plan.game, options)
    outdir = options.out / game.id
    files.remove_leftovers(outdir)     # (files a killed build was writing)
    results: list[Result] = []
    cache = PageCache(options.out / ".cache" / "pages.sqlite" if options.cache else None, options.progress)
    book = Manifest(game) if options.manifest else None
    with image_store(options) as folder:
        plan.resources.converted.store = ImageStore(folder, game.id)
        _build_all(plan, outdir, options, cache, book, results)
        if options.cache:
            prune_images(plan.resources.converted, options.out / ".cache" / "pages.sqlite", game.id)
    keep_all()          # (what drawing compiled: expr/kept.py)
    return results


@contextmanager
def image_store(options: Options):
    """Where resampled art is kept: out/.cache/images, or, without the build cache, a
    temporary folder that the build's worker processes share and that goes with the build."""
    if options.cache:
        yield options.out / ".cache" / "images"
        return
    with tempfile.TemporaryDirectory(prefix="pnpgen-images-") as folder:
        yield Path(folder)


def _build_all(plan: GamePlan, outdir: Path, options: Options, cache: PageCache, book: Manifest | None,
               results: list) -> None:
    """Draw everything, then put the files and the manifest in place together."""
    try:
        with files.Staged() as staged:
            sharing = _build_components(plan, outdir, options, cache, book, staged, results)
            if book is not None:    # renamed last, with the PDFs it describes
                staged.adopt([book.write(outdir)])
                files.remove_quietly(outdir / "manifest.json")  # (first: PDFs half renamed must not seem described)
            staged.commit()
        remove_stale(outdir, plan.game, sharing)
        cache.commit()
    finally:
        cache.close()
        if book is not None:
            book.close()


def _build_components(plan: GamePlan, outdir: Path, options: Options, cache: PageCache, book: Manifest | None,
                      staged: files.Staged, results: list) -> Sharing:
    """Draw every deck, board and the rulebook into files staged for renaming; returns the
    sheets the decks share."""
    game = plan.game
    sharing = share_game(plan, options)
    for deck in plan.decks:
        if not deck.cards:
            if book is not None:
                _record_empty_deck(book, deck, plan.icons)
            results.append(DeckResult(deck.id, outdir / f"{deck.id}.pdf", 0, 0, 0, 0,
                                      [Notice(deck.source.doc.path, None, "every card has count 0: no PDF written")]))
            continue
        own = sharing.own_cards(deck, deck.cards)
        if not own:     # every card on shared sheets
            results.append(shared_only(deck, plan.icons, book, outdir / f"{sharing.files_of(deck.id)[0]}.pdf"))
            continue
        options.progress(f"{game.id}/{deck.id}: {len(deck.cards)} cards ...")
        r, temps = build_deck(game, deck, own, plan.icons, outdir, options, cache, book)
        staged.adopt(temps)
        refuse_if_strict(r.warnings, options)
        options.progress(f"  drew {r.path}: {r.sheets} sheet{'s' if r.sheets != 1 else ''} "
                         f"({r.per_sheet} cards a sheet, {r.pages} pages"
                         + (f"; {r.kept} unchanged, copied from the cache" if r.kept else "") + ")")
        results.append(r)
    for shared in sharing.shared:
        options.progress(f"{game.id}/{shared.name}: {sum(len(c) for _, c in shared.parts)} cards of "
                         f"{len(shared.parts)} decks on {shared.sheets} shared sheets ({shared.saved} saved) ...")
        records = {d.id: book.record_of(d.source) for d, _ in shared.parts} if book is not None else None
        r, temps = build_shared(game, shared, plan.icons, records, outdir, options, cache)
        r.saved = shared.saved
        staged.adopt(temps)
        refuse_if_strict(r.warnings, options)
        results.append(r)
    for board in plan.boards:
        from .boards import build_board     # (only now: a game of cards alone never tiles a board)
        options.progress(f"{game.id}/{board.id}: board ...")
        r, tmp = build_board(game, board, plan.icons, outdir, options, book)
        staged.adopt([(tmp, r.path)])
        refuse_if_strict(r.warnings, options)
        results.append(r)
    if options.rulebook:
        staged.adopt(build_rulebook(plan, outdir, options, results, cache))
    return sharing


def _record_empty_deck(book: Manifest, deck: DeckPlan, icons: dict) -> None:
    """A deck with no card to print goes into the manifest with its common back, if that draws."""
    common = None
    if deck.has_common_back and not deck.source.deck.pack:
        try:
            common = deck.common_back_form()
        except InputError:
            common = None      # (the build draws no back for it, so it is no error here either)
    book.empty_deck(deck.source, {**icons, **deck.layouter.forms}, common)
