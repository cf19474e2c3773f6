"""Print-shop uploads, one format per shop of presets/shops.yaml: The Game Crafter and
MakePlayingCards take <deck>/fronts/<code>.png, back.png (a common back) and backs/<code>.png
(cards' own backs) at the shop's exact pixel size; DriveThruCards takes one PDF/X-1a file per
deck, a card face a page with its bleed, each card's front followed by its back (a face that
draws anything see-through flattened to one image: pdf/flatten.py). Each deck gets cards.csv;
a deck no product fits is left out."""

from __future__ import annotations

from .. import presets
from ..build import Options, plan_game
from ..errors import InputError
from ..game.loader import GameSource
from ..pdf.colour import PressColours
from ..pdf.flatten import face_notes
from ..pdf.pdfx import VERSION, make_pdfx
from .cards_csv import write_cards_csv
from .faces import DeckFaces, Face, write_pages
from .job import INCH, Job
from .raster import RENDERED, render_faces


def write_shop(job: Job) -> list:
    """Every card deck as the shop's upload files into job.work; returns the notes (and, for a
    PDF/X file, a located Notice per template flattened)."""
    shop = presets.shops()[job.format]
    notes, exported = [], set()
    for deck in job.decks:
        if deck.pack:
            notes.append(f"{deck.id}: tokens, not cards: not exported for {shop['name']}")
            continue
        try:
            product, trim = fits(shop, deck, job.game)
        except InputError as exc:     # e.g. a player-aid sheet among the cards: the others still go
            notes.append("warning: " + str(exc.problems[0]) + " (deck not exported)")
            continue
        bleed_mm = shop["bleed_px"] / shop["dpi"] * INCH
        if bleed_mm > job.game.game.bleed + 0.01:
            notes.append(f"{deck.id}: the game's bleed ({job.game.game.bleed:g} mm) is less than {shop['name']}'s "
                         f"({bleed_mm:.2f} mm): the outer edge repeats no art")
        size = tuple(round(t / INCH * shop["dpi"] + 2 * shop["bleed_px"]) for t in trim)
        write = _pdf if shop["format"] == "pdf" else _images
        notes.append(f"{deck.id}: {product}, " + write(job, shop, deck, size, bleed_mm))
        exported.add(deck.id)
    if shop["format"] == "pdf" and exported:
        notes += face_notes(plan_game(job.game, Options()), job.flatten_ppi, exported)
    return notes


def _images(job: Job, shop: dict, deck: DeckFaces, size: tuple[int, int], bleed_mm: float) -> str:
    """fronts/<code>.png, backs/<code>.png and back.png, every one `size` pixels; cards.csv."""
    faces = deck.faces()
    names = [f"fronts/{f.code}.png" for f in deck.fronts] + [f"backs/{f.code}.png" for f in deck.backs] \
        + (["back.png"] if deck.common_back else [])
    folder = job.work / deck.id
    render_faces(deck, faces, [folder / n for n in names], [size] * len(faces), bleed_mm, shop["dpi"], job.work,
                 job.workers)
    write_cards_csv(folder / "cards.csv", deck, {id(f): n for f, n in zip(faces, names)})
    return f"{len(names)} images of {size[0]} x {size[1]} px"


def _pdf(job: Job, shop: dict, deck: DeckFaces, size: tuple[int, int], bleed_mm: float) -> str:
    """<deck>.pdf as DriveThruCards' card guide asks: PDF/X-1a:2003 (CMYK through the press
    profile, TrimBox at the cut, BleedBox at the page edge), a card face a page with its
    bleed, and every card of the deck as its front followed by its back (its own back, else
    the deck's common back, else a blank page), each copy in turn, as the deck is printed from
    the file page by page; cards.csv for reference. A see-through face is flattened (pdf/flatten.py)."""
    faces: list[Face | None] = []
    for front in deck.fronts:
        faces += [front, deck.back_of(front)] * front.count
    folder = job.work / deck.id
    folder.mkdir(parents=True, exist_ok=True)
    press = PressColours(flatten_ppi=job.flatten_ppi)
    path = folder / f"{deck.id}.pdf"
    write_pages(path, faces, deck, bleed_mm, f"{job.game.game.title} - {deck.name}", press)
    (RENDERED.get() or (lambda pages: None))(len(faces))
    make_pdfx(path, press)
    write_cards_csv(folder / "cards.csv", deck, {})
    return (f"{VERSION}, {len(faces)} pages of {size[0] / shop['dpi']:g} x {size[1] / shop['dpi']:g} in: "
            f"{len(faces) // 2} cards, each front then back")


def fits(shop: dict, deck: DeckFaces, game: GameSource) -> tuple[str, tuple[float, float]]:
    # raises InputError naming the shop's sizes when it has none like the deck's
    """The shop's card product whose trim matches the deck's (either way round), trim in mm."""
    w, h = deck.fronts[0].size
    for name, (pw, ph) in shop["products"].items():
        pw, ph = pw * INCH, ph * INCH
        if abs(w - pw) < 0.3 and abs(h - ph) < 0.3:
            return name, (pw, ph)
        if abs(w - ph) < 0.3 and abs(h - pw) < 0.3:
            return name, (ph, pw)
    sizes = ", ".join(f"{n} {a:g} x {b:g} in" for n, (a, b) in shop["products"].items())
    path = next((d.path for d in game.decks if d.id == deck.id), deck.id)
    raise InputError.at(game.rel(path), None, f"the deck's cards are {w:g} x {h:g} mm: {shop['name']} has no card "
                        f"of that size (it prints {sizes}); choose another card_size or another shop")
