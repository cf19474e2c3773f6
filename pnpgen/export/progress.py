"""How many faces an export draws, known before it starts: the total on its progress line.
Each format's writer tells raster.RENDERED how many faces it has drawn as it goes (rendered to
PNG, or drawn as pages of a PDF/X file); the total here counts the same faces the same way."""

from __future__ import annotations

from .. import presets
from ..errors import InputError
from .faces import BoardFaces, DeckFaces
from .job import Job
from .shop import fits
from .tts_sheets import runs


def faces_to_draw(job: Job) -> int:
    """The faces `job`'s writer will draw, all decks (and boards) together."""
    if job.format == "png":
        return sum(len(deck.faces()) for deck in job.decks)
    if job.format == "tts":
        return sum(_tts_faces(deck) for deck in job.decks)
    shop = presets.shops()[job.format]
    return sum(_shop_faces(shop, deck, job) for deck in job.decks)


def _shop_faces(shop: dict, deck: DeckFaces, job: Job) -> int:
    """A print shop's: every distinct face once as an image, or in its PDF/X file every copy's
    front and back as a page each; none for a deck the shop does not print."""
    if deck.pack:
        return 0
    try:
        fits(shop, deck, job.game)
    except InputError:
        return 0
    return 2 * sum(front.count for front in deck.fronts) if shop["format"] == "pdf" else len(deck.faces())


def _tts_faces(deck: DeckFaces | BoardFaces) -> int:
    """Tabletop Simulator's: a board's sides; each token's faces; a deck's fronts sheet by
    sheet, with each sheet's backs where some card has its own, else the common back once."""
    if deck.kind == "board":
        return len(deck.faces())
    if deck.pack:
        return len(deck.fronts) + len(deck.backs)
    count, common = 0, 0
    for run in runs(len(deck.fronts)):
        backs = [deck.back_of(deck.fronts[i]) for i in run]
        count += len(run)
        if any(back is not None and back is not deck.common_back for back in backs):
            count += sum(back is not None for back in backs)
        else:
            common = 1 if deck.common_back is not None else 0
    return count + common
