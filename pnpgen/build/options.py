"""What a build is asked to do: the settings the command line and game.yaml choose between
(paper, flip edge, back offset, strictness, cache, PDF/X...), in one dataclass."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..sheets.custom_layout import SheetLayout


@dataclass
class Options:
    """What a build is asked to do (see the module docstring)."""

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
    layout: "SheetLayout | None" = None  # card decks of its size on this custom sheet layout (custom_layout.load)
    slug_note: str = ""          # said on every card sheet's slug after the deck (reprints name their revision)
    cache: bool = True           # keep drawn pages in <out>/.cache and copy the unchanged ones next time
    manifest: bool = True        # write out/<game>/manifest.json: each card's print digests and where it is printed
    image_ppi: float | None = None   # overrides the game's images.ppi (and max_ppi: 1.5 times it)
    keep_images: bool = False     # every image into the PDFs as it is (no resampling)
    workers: int | None = 1       # processes laying out and drawing a long deck: None, one a core; 1, this one
    pdfx: bool = False           # decks and boards as PDF/X-1a for a print shop: CMYK through the press profile
    flatten_ppi: float = 600     # PDF/X: a see-through face is flattened to an image at this resolution
    progress: Callable[[str], None] = lambda message: None     # a line on how the build goes
    step: Callable[[str, int, int], None] = lambda label, done, total: None   # pages of a deck done so far

    def __post_init__(self):
        if self.pdfx:     # every page drawn here, in CMYK: none copied from the (RGB) cache or drawn by workers
            self.cache, self.workers = False, 1

    def press(self):
        """The press colours a PDF/X build draws with (pdf.colour.PressColours), or None."""
        if not self.pdfx:
            return None
        from ..pdf.colour import shared
        return shared(self.flatten_ppi)
