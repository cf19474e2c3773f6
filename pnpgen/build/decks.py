"""A card deck onto sheets: plan the sheets (pages.py), then write each volume's PDF
(volumes.py), laying out only the pages the build cache knows nothing about (inputs.py,
facts.py), copying the pages it holds, drawing the rest (for a long deck, in worker
processes: workers.py), and leaving in place a PDF that would come out the same."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .. import files
from ..game.expand import PrintCard
from ..game.loader import GameSource
from .cache import PageCache
from .manifest import Manifest
from .options import Options
from .pages import Slug, deck_forms, plan_sheets
from .plan import COMMON_BACK_FORM, DeckPlan
from .results import DeckResult
from .volumes import DeckWriter, Volume


def build_deck(game: GameSource, deck: DeckPlan, cards: Sequence[PrintCard], icons: dict, outdir: Path,
               options: Options, cache: PageCache | None = None,
               manifest: Manifest | None = None) -> tuple[DeckResult, list[tuple[str, Path]]]:
    """Draw `cards` of one deck into temporary files next to their targets (one, or one per
    volume); returns the result and the (temporary file, target) pairs the caller renames
    into place: a volume the build cache shows to be in place already as this build would
    write it is left there, so it has none. With `manifest`, each card entry's print digests
    and where its first copy went are recorded there."""
    sheets = plan_sheets(game, deck, cards, options)
    forms = deck_forms(deck, cards, icons)
    record = manifest.deck(deck.source, forms) if manifest is not None else None
    if record is not None and COMMON_BACK_FORM in forms and not deck.source.deck.pack:
        record.common_back(forms[COMMON_BACK_FORM].body)
    size = max(1, options.volume_sheets)
    volumes = sheets.volumes(size)
    g = game.game
    slug = Slug(g.title, deck.source.deck.name, options.slug_note, sheets.sheets, len(volumes), sheets.flip_edge,
                sheets.has_backs, sheets.offset)
    staged = files.Staged()
    with staged:
        batch = []
        for v, runs in enumerate(volumes):
            name = deck.id if len(volumes) == 1 else f"{deck.id}-{v + 1}"
            title = f"{g.title} - {deck.source.deck.name}" + (f" ({v + 1} of {len(volumes)})" if len(volumes) > 1
                                                                else "")
            batch.append(Volume(name, outdir / f"{name}.pdf", title, runs, v * size, v, options.press()))
        writer = DeckWriter(game, deck, sheets, forms, slug, cache or PageCache(None), record, options.workers,
                            staged, options.out)
        kept, drawn = writer.write_all(batch)
        written, staged.written = staged.written, []
    targets = [v.target for v in batch]
    result = DeckResult(deck.id, targets[0], len(cards), sheets.sheets,
                        sheets.sheets * sheets.pages_per_sheet, sheets.per_sheet,
                        sheets.notes + list(deck.layouter.warnings), targets, kept, drawn)
    return result, written
