"""Build games: load and check each game, lay out and impose its decks, and write one
PDF per deck to out/<game>/<deck>.pdf, and out/<game>/manifest.json: what each card printed
and where (pnpgen.manifest). Every file is written to a temporary name and renamed into
place only when complete, so a failed build leaves no half-written PDF."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .. import fonts, presets
from ..game.expand import assign_numbers, expand, looks
from ..layout.context import Expressions
from ..errors import InputError, Notice, Problem
from ..game.loader import DeckSource, GameSource, _shown, discover, load_game
from ..sheets.impose import impose, pack
from ..layout.layouter import Layouter, icon_forms
from ..layout.lint import check_template
from ..ops import Form, FormDef
from ..layout.boards import board_card
from ..pdf.canvas import BoardCanvas, CardCanvas
from ..sheets.tile import poster, tile
from ..layout.resources import Resources
from .cache import PageCache, PageKeys, charset, font_key, page_images
from ..pdf.canvas import SheetPage
from .manifest import Manifest
from ..rulebook.source import FILE as RULEBOOK


COMMON_BACK_FORM = "back:common"
COMMON_BACK = [Form(COMMON_BACK_FORM)]
"""A common back is one shared form, drawn once and placed on every back slot (the ':' in
its name keeps it apart from every template's forms)."""


@dataclass
class Project:
    """Where games, templates and output live."""

    root: Path = Path(".")

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def templates(self) -> Path:
        return self.root / "templates"


@dataclass
class Options:
    out: Path = Path("out")
    paper: str | None = None     # overrides the game's paper
    flip: str | None = None      # overrides the game's flip edge
    back_offset: tuple[float, float] | None = None  # overrides the game's back_offset (mm, back-page axes)
    strict: bool = False         # text cut to fit and missing characters are errors
    seed: int | None = None      # another seed for generated boards
    poster: str | None = None    # boards whole on one page of this paper (tabloid, a3, a2, a1)
    volume_sheets: int = 250     # sheets per PDF: a longer deck is split into <deck>-1.pdf, <deck>-2.pdf...
    booklet: bool = False        # also impose the rulebook as a saddle-stitched booklet
    rulebook: bool = True        # write the rulebook when the game has one
    lenient_rulebook: bool = False   # a rulebook naming what the game lacks is skipped with a warning
    layout: "SheetLayout | None" = None  # card decks of its size on this custom sheet layout (sheetlayout.load)
    slug_note: str = ""          # said on every card sheet's slug after the deck (reprints name their revision)
    cache: bool = True           # keep drawn pages in <out>/.cache and copy the unchanged ones next time
    manifest: bool = True        # write out/<game>/manifest.json: each card's print digests and where it is printed
    progress: Callable[[str], None] = lambda message: None


@dataclass
class DeckResult:
    deck: str
    path: Path
    cards: int
    sheets: int
    pages: int
    per_sheet: int
    warnings: list[Notice] = field(default_factory=list)
    volumes: list[Path] = field(default_factory=list)   # every PDF of the deck, when split into volumes
    kept: int = 0      # pages copied from the build cache
    drawn: int = 0     # pages drawn anew


def games(project: Project) -> list[str]:
    return discover(project.cards)


def load(project: Project, game_id: str) -> GameSource:
    return load_game(project.cards, project.templates, game_id)


def build_game(project: Project, game_id: str, options: Options) -> list[DeckResult]:
    """Build every deck of one game. Raises InputError before writing if the input is bad."""
    return build_loaded(load(project, game_id), options)


def _prepare(game: GameSource, options: Options):
    """Everything drawing needs, with every template checked first: the shared resources and
    icons, each deck's layouter and cards, each board's layouter and card."""
    numbers = assign_numbers(game)
    res = Resources(game)
    exprs = Expressions()
    icons = icon_forms(game, res, exprs)
    plans = []
    for deck in game.decks:  # check every template before drawing anything
        layouter = Layouter(game, deck, res, exprs)
        cards = expand(game, deck, numbers)
        kinds = looks(cards)
        used = {front for front, _, _ in kinds} | {back for _, back, unique in kinds if back and unique}
        for name in sorted(used):
            layouter.warnings += check_template(game, deck, game.templates[name], exprs.env, common=False)
        common = deck.deck.back and not deck.deck.back.per_card
        if common:
            layouter.warnings += check_template(game, deck, game.templates[deck.deck.back.template], exprs.env,
                                                common=True)
        plans.append((deck, layouter, cards))
    boards = []
    for board in game.boards:
        deck, card = board_card(game, board, options.seed)
        layouter = Layouter(game, deck, res, exprs)
        for name in filter(None, (board.board.template, board.board.back)):
            layouter.warnings += check_template(game, deck, game.templates[name], exprs.env, common=False)
        boards.append((board, layouter, card))
    return res, icons, plans, boards


def check_rulebook(game: GameSource) -> bool:
    """Run the game's rulebook source as far as a build would short of writing the PDF: its
    expressions, its Markdown and every figure it names. Raises InputError on a broken
    reference; returns whether the game has a rulebook."""
    if not (game.root / RULEBOOK).is_file():
        return False
    from ..rulebook.build import check
    from ..rulebook.figures import Components

    res, icons, plans, boards = _prepare(game, Options())
    components = Components(game, {d.id: (lay, cards) for d, lay, cards in plans},
                            {b.id: (lay, card) for b, lay, card in boards}, icons, res.converted)
    return check(game, components, {d.id: cards for d, _, cards in plans}, game.game.paper)


def build_loaded(game: GameSource, options: Options) -> list[DeckResult]:
    """Build every deck of an already loaded game. Each PDF is written to a temporary file;
    all are renamed into place only when every deck has been drawn, so a problem found in
    the last deck leaves no new file behind."""
    game_id = game.id
    if options.layout is None and game.game.layout:
        options = replace(options, layout=game_layout(game))
    res, icons, plans, boards = _prepare(game, options)
    outdir = options.out / game_id
    results, written = [], []
    cache = PageCache(options.out / ".cache" / "pages.sqlite" if options.cache else None)
    book = Manifest(game) if options.manifest else None
    try:
        for deck, layouter, cards in plans:
            if not cards:
                if book is not None:
                    book.empty_deck(deck, layouter, icons)
                results.append(DeckResult(deck.id, outdir / f"{deck.id}.pdf", 0, 0, 0, 0,
                                          [Notice(deck.doc.path, None, "every card has count 0: no PDF written")]))
                continue
            options.progress(f"{game_id}/{deck.id}: {len(cards)} cards ...")
            r, temps = _build_deck(game, deck, layouter, icons, cards, outdir, options, cache, book)
            written += temps
            _refuse_if_strict(r, options)
            options.progress(f"  drew {r.path}: {r.sheets} sheet{'s' if r.sheets != 1 else ''} "
                             f"({r.per_sheet} cards a sheet, {r.pages} pages"
                             + (f"; {r.kept} unchanged, copied from the cache" if r.kept else "") + ")")
            results.append(r)
        for board, layouter, card in boards:
            options.progress(f"{game_id}/{board.id}: board ...")
            r, tmp = _build_board(game, board, layouter, icons, card, outdir, options, book)
            written.append((tmp, r.path))
            _refuse_if_strict(r, options)
            results.append(r)
        if options.rulebook:
            written += _build_rulebook(game, plans, boards, icons, res, outdir, options, results)
        if book is not None:    # renamed last, with the PDFs it describes
            written.append(book.write(outdir))
            _remove(written[-1][1])     # (the old one first: PDFs half renamed must not seem described)
        put_in_place(written)
        written = []
        cache.commit()
    finally:
        cache.close()
        if book is not None:
            book.close()
        for tmp, _ in written:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return results


def _build_rulebook(game: GameSource, plans, boards, icons, res, outdir: Path, options: Options,
                    results: list) -> list[tuple[str, Path]]:
    """The rulebook, with figures drawn by the same layouters as the sheets; returns the
    temporary files to rename."""
    if not (game.root / RULEBOOK).is_file():
        return []     # (checked before importing: the rulebook press is slow to load)
    from reportlab.platypus.doctemplate import LayoutError as PlatypusError

    from ..rulebook.build import write_rulebook
    from ..rulebook.figures import Components
    from ..rulebook.source import find
    options.progress(f"{game.id}/rulebook ...")
    components = Components(game, {d.id: (lay, cards) for d, lay, cards in plans},
                            {b.id: (lay, card) for b, lay, card in boards}, icons, res.converted)
    paper = options.paper or game.game.paper
    try:
        made = write_rulebook(game, components, {d.id: cards for d, _, cards in plans}, paper, outdir,
                              lambda name: _temp_pdf(outdir, name), options.booklet)
    except InputError as exc:
        if not options.lenient_rulebook:
            raise
        # --no-check: the decks are built; a rulebook that names what they lack is not
        results.append(DeckResult("rulebook", outdir / "rulebook.pdf", 0, 0, 0, 0, [
            Notice(p.path, p.line, f"{p.message} (rulebook not written)") for p in exc.problems]))
        return []
    except PlatypusError as exc:
        raise InputError.at(game.rel(find(game.root)), None, f"a block of the rulebook cannot be laid out "
                            f"({str(exc).splitlines()[0][:200]}); split a long table or call-out") from None
    except OSError as exc:
        raise _unwritable(outdir / "rulebook.pdf", exc) from None
    result, written = made
    pages = result.pages
    rulebook = DeckResult("rulebook", result.path, 0, 0, pages, 0, result.warnings)
    try:
        _refuse_if_strict(rulebook, options)
    except InputError:
        for tmp, _ in written:
            _remove(tmp)
        raise
    results.append(rulebook)
    options.progress(f"  wrote {result.path}: {pages} pages" +
                     (f"; booklet {result.booklet}: {result.sheets} sheets, print duplex flipped on the short "
                      "edge, fold and staple" if result.booklet else ""))
    return written


def game_layout(game: GameSource):
    """The sheet layout game.yaml names: a preset, or a file inside the game folder."""
    from ..game.loader import confined
    from ..sheets.custom_layout import is_path, load

    spec, line = game.game.layout, game.doc.line(("layout",))
    if is_path(spec):
        try:
            spec = str(confined(game.root, spec))
        except ValueError as exc:
            raise InputError.at(game.rel(game.doc.path), line, f"layout: {exc}") from None
    try:
        return load(spec)
    except InputError as exc:
        if any(str(p.path) in ("--layout", game.game.layout) for p in exc.problems):   # name it where it is written
            raise InputError([Problem(game.rel(game.doc.path), line, f"layout: {p.message}") for p in exc.problems]) \
                from None
        raise


def _refuse_if_strict(result: DeckResult, options: Options) -> None:
    """Under --strict, text cut short and characters no font has stop the build."""
    strict = [w for w in result.warnings if w.strict]
    if options.strict and strict:
        raise InputError([Problem(w.path, w.line, w.message + " (an error under --strict)") for w in strict])


def put_in_place(written: list[tuple[str, Path]]) -> None:
    """Rename each finished temporary file onto its target."""
    for tmp, target in written:
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _unwritable(target, exc) from None


def _unwritable(path: Path, exc: OSError) -> InputError:
    return InputError.at(_shown(path), None, f"cannot write here: {exc.strerror or exc}; choose another "
                         "output folder with --out, or make this one writable")


def _build_deck(game: GameSource, deck: DeckSource, layouter: Layouter, icons: dict, cards, outdir: Path,
                options: Options, cache: PageCache | None = None,
                manifest: Manifest | None = None) -> tuple[DeckResult, list[tuple[str, Path]]]:
    """Draw one deck into temporary files next to their targets (one, or one per volume);
    returns the result and the (temporary file, target) pairs the caller renames into place.
    With `manifest`, each card entry's print digests and where its first copy went are
    recorded there, from the bodies laid out for the sheets."""
    g = game.game
    paper = options.paper or g.paper
    page = presets.papers()[paper]
    flip_edge = options.flip or g.flip
    offset = options.back_offset if options.back_offset is not None else g.back_offset
    notes = []   # from a custom sheet layout
    if deck.deck.pack:   # tokens: each at its own size and shape, as many to a sheet as fit
        token_looks = [game.templates[c.front].template for c in cards]
        placed = pack(page, [t.size or deck.size for t in token_looks], [t.shape for t in token_looks], g.bleed,
                      g.printer_margin, flip_edge)
        starts = [sum(p.per_sheet for p in placed[:i]) for i in range(len(placed))]
        layout = [(p, cards[a:a + p.per_sheet]) for p, a in zip(placed, starts)]
    else:
        sheet, notes = options.layout.for_deck(game, deck, options.flip) if options.layout else (None, [])
        if sheet is None:
            sheet = impose(page, deck.size, g.bleed, g.printer_margin, g.cut, flip_edge)
        else:   # a custom layout: its own paper and (unless --flip) its own flip edge
            page, flip_edge = sheet.page, sheet.flip
        n = sheet.per_sheet
        layout = [(sheet, cards[i:i + n]) for i in range(0, len(cards), n)]
    sheets = len(layout)
    kinds = looks(cards)
    has_backs = any(back for _, back, _ in kinds)

    # prepare every template (and so every shared form) before drawing
    for name in sorted({front for front, _, _ in kinds} | {back for _, back, _ in kinds if back}):
        layouter.plan(name)
    forms = {}
    if deck.deck.back and not deck.deck.back.per_card:
        forms[COMMON_BACK_FORM] = FormDef(deck.size, tuple(layouter.layout(None, deck.deck.back.template)), True)
    forms.update(icons)
    forms.update(layouter.forms)
    record = manifest.deck(deck, forms) if manifest is not None else None
    if record is not None and COMMON_BACK_FORM in forms and not deck.deck.pack:
        record.common_back(forms[COMMON_BACK_FORM].body)

    # a very long deck is split into volumes: reportlab keeps every page of a PDF in memory
    # until it is saved, so this keeps a 20,000-card build as small as a 2,000-card one
    size = max(1, options.volume_sheets)
    volumes = [layout[i:i + size] for i in range(0, sheets, size)]
    slug_font = fonts.ensure("sans", fonts.BUILTIN["sans"])
    flip = "long-edge" if flip_edge == "long" else "short-edge"

    def slug(s, side, v):
        how = f", duplex {flip} flip" if has_backs else ", single-sided"
        if side == "BACK" and any(offset):   # say so: a stray back offset is then easy to spot
            side += f" (shifted {offset[0]:+.2f}, {offset[1]:+.2f} mm)"
        volume = f" (volume {v + 1} of {len(volumes)})" if len(volumes) > 1 else ""
        note = f" \u00b7 {options.slug_note}" if options.slug_note else ""
        return (f"{g.title} \u00b7 {deck.deck.name}{note} \u00b7 sheet {s + 1} of {sheets}{volume} \u00b7 {side} \u00b7 "
                f"print at 100 % (actual size){how}")

    cache = cache or PageCache(None)
    written = []
    kept = drawn = 0
    try:
        for v, volume in enumerate(volumes):
            name = deck.id if len(volumes) == 1 else f"{deck.id}-{v + 1}"
            target, tmp = outdir / f"{name}.pdf", _temp_pdf(outdir, name)
            written.append((tmp, target))
            if record is not None:
                record.file(target.name)
            pages = []
            for s, (sheet, chunk) in enumerate(volume, v * size):
                chunk = list(chunk)     # (the deck's cards are made when asked for: once a sheet)
                fronts, backs = sheet.slots_for(len(chunk), offset)   # backs moved, fronts never
                cards_ = []
                for slot, card in zip(fronts, chunk):
                    look = game.templates[card.front].template
                    body = layouter.layout(card, card.front)
                    cards_.append((slot, body, slot_h(slot, sheet), look.shape))
                    if record is not None and card.copy == 1:
                        record.front(card, body, look, len(pages), slot)
                pages.append(SheetPage(cards_, sheet.ticks_for(len(chunk)), sheet.marks_for(len(chunk)),
                                       sheet.cuts_for(len(chunk)) if deck.deck.pack else (),
                                       (sheet, slug(s, "FRONT \u00b7 cut this side", v))))
                if has_backs:
                    cards_ = []
                    for slot, card in zip(backs, chunk):
                        if card.back is not None:
                            common = not card.unique_back and not deck.deck.pack
                            body = COMMON_BACK if common else layouter.layout(card if card.unique_back else None,
                                                                              card.back)
                            look = game.templates[card.front].template
                            cards_.append((slot, body, slot_h(slot, sheet), look.shape))
                            if record is not None and card.copy == 1:
                                record.back_of(card, None if common else body, look, len(pages), slot)
                    pages.append(SheetPage(cards_, slug=(sheet, slug(s, "BACK", v))))
            canvas = CardCanvas(tmp, page, f"{g.title} - {deck.deck.name}" + (f" ({v + 1} of {len(volumes)})"
                                if len(volumes) > 1 else ""), forms, g.bleed, slug_font, g.credits,
                                layouter.res.converted)
            fonts_used = charset(pages, forms, slug_font)
            canvas.seed_fonts(fonts_used)
            canvas.define_forms(sorted(forms))
            keys = PageKeys(forms, game.root, font_key(fonts_used), page, g.bleed)
            if record is not None:
                record.share(keys)      # the faces it digested are not walked again for the page keys
            used = []
            for sheet_page in pages:
                key = keys.key(sheet_page)
                entry = cache.get(key)
                if entry is not None:
                    canvas.replay_page(entry)
                    kept += 1
                else:
                    canvas.draw_page(sheet_page, slug_font)
                    entry = canvas.record_page(page_images(sheet_page))
                    drawn += 1
                    if entry is not None:
                        cache.put(key, entry)
                if entry is not None:
                    used.append(key)
            del pages
            _save(canvas, tmp, target)
            del canvas
            cache.keep(f"{game.id}/{name}", used)
    except BaseException:
        for tmp, _ in written:
            _remove(tmp)
        raise
    per_sheet = max(p.per_sheet for p, _ in layout) if layout else 0
    return DeckResult(deck.id, written[0][1], len(cards), sheets, sheets * (2 if has_backs else 1), per_sheet,
                      notes + list(layouter.warnings), [t for _, t in written], kept, drawn), written


def slot_h(slot, sheet) -> float:
    """The height of the card in a slot, in its own upright frame (turned cards swap w and h)."""
    w, h = slot.trim[2], slot.trim[3]
    return w if slot.turned else h


def _temp_pdf(outdir: Path, name: str) -> str:
    """A temporary file beside out/<game>/<name>.pdf, renamed into place once the game is done."""
    target = outdir / f"{name}.pdf"
    try:
        outdir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".pdf.part", dir=outdir)
        os.close(fd)
    except OSError as exc:
        raise _unwritable(target if not outdir.is_file() else outdir, exc) from None
    return tmp


def _save(canvas, tmp: str, target: Path) -> None:
    """Write the PDF to its temporary file; a disk that refuses is an input error, not a traceback."""
    try:
        canvas.save()
        os.chmod(tmp, 0o644)
    except OSError as exc:
        raise _unwritable(target, exc) from None


def _build_board(game: GameSource, board, layouter: Layouter, icons: dict, card, outdir: Path,
                 options: Options, manifest: Manifest | None = None) -> tuple[DeckResult, str]:
    """Draw a board (each side once, as a form) onto tiles or a poster page."""
    g, b = game.game, board.board
    page = presets.papers()[options.poster or options.paper or g.paper]
    if options.poster:
        layout = poster(page, b.size, g.bleed, g.printer_margin)
    else:
        layout = tile(page, b.size, g.bleed, g.printer_margin, b.overlap)
    sides = [(f"board:{board.id}:a", b.template)] + ([(f"board:{board.id}:b", b.back)] if b.back else [])
    forms = dict(icons)
    for name, template in sides:
        forms[name] = FormDef(b.size, tuple(layouter.layout(card, template)), True)
    forms.update(layouter.forms)
    target = outdir / f"{board.id}.pdf"
    tmp = _temp_pdf(outdir, board.id)
    try:
        font = fonts.ensure("sans", fonts.BUILTIN["sans"])
        canvas = BoardCanvas(tmp, layout.page, f"{g.title} - {b.name}", forms, g.bleed, font, g.credits,
                             layouter.res.converted)
        canvas.define_forms(sorted(forms))
        pages = 0
        placed = {}     # side -> [(page, tile)], for the manifest
        for side, (form, _) in enumerate(sides):
            if not layout.poster and len(layout.tiles) > 1:
                canvas.assembly(layout, form, f"{b.name}" + (f", side {'AB'[side]}" if len(sides) > 1 else ""),
                                font, len(sides))
                pages += 1
            for t in layout.tiles:
                where = "poster" if layout.poster else f"page {t.label} (column {t.label[:-len(str(t.row + 1))]} of " \
                    f"{layout.cols}, row {t.row + 1} of {layout.rows})"
                side_name = f" \u00b7 side {'AB'[side]}" if len(sides) > 1 else ""
                canvas.tile(layout, t, form, b.size[1], f"{g.title} \u00b7 {b.name}{side_name} \u00b7 {where} \u00b7 "
                            "print at 100 % (actual size)", font)
                placed.setdefault(side, []).append((pages, t))
                pages += 1
        _save(canvas, tmp, target)
        if manifest is not None:
            manifest.board(board, forms, sides, layout, placed)
    except BaseException:
        _remove(tmp)
        raise
    return DeckResult(board.id, target, 0, len(layout.tiles), pages, 0, list(layouter.warnings)), tmp


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass
