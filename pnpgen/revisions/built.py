"""A folder an earlier `pnpgen build` wrote (out/, a copy of it, or one game's out/<game>/), as
a revision to compare with. It holds no YAML, only each game's manifest.json
(pnpgen.manifest) and its PDFs: cards are compared by the digests the build recorded, and a
picture of a card as it was is cut out of the PDF it was printed in (its recorded page and
trim rectangle, turned upright), rendered by pdfium at the pixel size the card is drawn at
now, so that the difference lines up."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw

from ..errors import InputError
from ..export.faces import BoardFaces, DeckFaces, Face
from ..build.manifest import CARD_COLUMNS, NAME, read
from ..pdf.canvas import MM
from ..sources.confine import Refused, inside
from .revision import Revision
from .side import Side

MAX_MANIFEST_BYTES = 64_000_000
"""The largest kept manifest read (a 20,000-card deck's is about 2.5 MB)."""
MAX_MM = 5000.0
"""The largest length or coordinate a kept manifest may give, mm."""
MAX_PIECES = 1000
"""The most pieces (tiled pages) of a board side that are put together into its picture."""
ROTATE = {0: 0, 90: 1, 180: 2, 270: 3}
"""pdfium's rotation of the rendered page (quarter turns clockwise) that undoes a card's turn
(degrees anticlockwise on the page)."""


@dataclass
class Where:
    """Where a face was printed: a page of a PDF and the face's trim rectangle on it (mm, from
    the page's bottom-left corner, y up), turned `turn` degrees anticlockwise; a board, in
    pieces (page, (x, y, w, h) of the board from its top-left corner, y down, and the page
    point (mm) where that rectangle's top-left corner is printed)."""

    pdf: Path
    page: int | None = None
    rect: tuple | None = None
    turn: int = 0
    pieces: tuple = ()


@dataclass
class PrintedFace(Face):
    """A face of an earlier build: no drawing, its digests as the build recorded them, and
    where it was printed."""

    digest: str = ""
    blind: str = ""
    where: Where | None = None


@dataclass
class BuildRevision(Revision):
    """A build folder: the games it has a manifest for."""

    folder: Path | None = None
    manifests: dict = field(default_factory=dict, repr=False)    # game id -> (path, data)

    def games(self) -> list[str]:
        return sorted(self.manifests)

    def load(self, game_id: str):
        return None      # (no YAML: see side)

    def faces(self, game_id: str) -> list[DeckFaces]:
        if game_id not in self._faces:
            path, data = self.manifests[game_id] if game_id in self.manifests else (None, None)
            self._faces[game_id] = _decks(path, data) if path else []
        return self._faces[game_id]

    def side(self, game_id: str):
        if game_id not in self.manifests:
            return None
        path, data = self.manifests[game_id]
        decks = self.faces(game_id)
        return Side(decks, float(data.get("bleed") or 0.0), None, str(data.get("title") or game_id))


def open_build(since: str, folder: Path) -> BuildRevision | None:
    """The build folder `folder` (holding <game>/manifest.json files, or one game's folder
    holding manifest.json), or None when it holds no manifest. A manifest pnpgen cannot use
    is an InputError."""
    single = (folder / NAME).exists()
    paths = [folder / NAME] if single else sorted(folder.glob(f"*/{NAME}"))
    if not paths:
        return None
    manifests = {}
    for path in paths:
        data = _read(folder, path)
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise _damaged(path, "no game id")
        manifests.setdefault(game, (path, data))
    here = folder.resolve()
    name = f"{here.parent.name}/{here.name}" if single else here.name
    return BuildRevision(since, f"build {name}", None, None, only=sorted(manifests) if single else None,
                         folder=folder, manifests=manifests)


def _read(folder: Path, path: Path) -> dict:
    """A kept manifest, read only when it is a regular file of at most MAX_MANIFEST_BYTES
    inside the folder --since names (links followed)."""
    try:
        inside(folder, path.relative_to(folder), MAX_MANIFEST_BYTES, folder="build folder")
        return read(path)
    except Refused as exc:
        raise InputError.at(str(path), None, f"{exc}; give the folder an earlier build wrote") from None
    except RecursionError:
        raise _damaged(path, "nested too deeply") from None


def _damaged(path: Path, why: str) -> InputError:
    return InputError.at(str(path), None, f"a damaged manifest ({why}): rebuild that folder with `pnpgen build`, or "
                         "compare with a git revision")


def _decks(path: Path, data: dict) -> list[DeckFaces]:
    """A manifest's decks and boards as faces that carry their digests and where they were printed."""
    try:
        if list(data["card_columns"]) != list(CARD_COLUMNS):
            raise ValueError("its card columns are not those this pnpgen writes")
        return [_deck(path.parent, d) for d in data["decks"]]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
        raise _damaged(path, f"{type(exc).__name__}: {exc}") from None


def _mm(values, count: int) -> tuple[float, ...]:
    """`count` lengths or coordinates (mm) of a manifest, each finite and within MAX_MM."""
    out = tuple(float(v) for v in values)
    if len(out) != count or not all(math.isfinite(v) and abs(v) <= MAX_MM for v in out):
        raise ValueError(f"{list(values)!r} is not {count} lengths within {MAX_MM} mm")
    return out


def _pdf(folder: Path, name) -> Path:
    """A PDF a manifest names: a file in the manifest's own folder, links followed."""
    if not isinstance(name, str) or name != Path(name).name:
        raise ValueError(f"{name!r} is not a file name in the manifest's folder")
    return inside(folder, name, folder="manifest's folder")


def _deck(folder: Path, d: dict) -> DeckFaces:
    files = [_pdf(folder, name) for name in d["files"]]
    if d["kind"] == "board":
        size = _mm(d["size"], 2)
        (code, title, _count, front, front_blind, back, back_blind, *_), = d["cards"]
        pieces = {side: tuple((int(p[0]), _mm(p[1:5], 4), _mm(p[5:7], 2)) for p in found[:MAX_PIECES])
                  for side, found in d["pieces"].items()}
        fronts = [PrintedFace("a", "front", title, 1, size, "rect", [], front, front_blind,
                              Where(files[0], pieces=pieces.get("front", ())))]
        backs = [PrintedFace("b", "back", title, 1, size, "rect", [], back, back_blind,
                             Where(files[0], pieces=pieces.get("back", ())))] if back else []
        return BoardFaces(d["id"], d["name"], fronts, backs, {}, {})
    slots = [(*_mm((x, y, w, h), 4), int(turn)) for x, y, w, h, turn in d["slots"]]
    deck_size = _mm(d["size"], 2)

    def where(file, page, slot) -> Where | None:
        if page is None or slot is None:
            return None
        x, y, w, h, turn = slots[slot]
        if turn not in ROTATE:
            raise ValueError(f"a card turned {turn} degrees")
        return Where(files[file], int(page), (x, y, w, h), turn)

    def size(slot) -> tuple:
        if slot is None:
            return deck_size
        _, _, w, h, turn = slots[slot]
        return (w, h) if turn in (0, 180) else (h, w)

    shapes = d.get("shapes") or {}
    fronts, backs = [], []
    for code, title, count, front, front_blind, back, back_blind, file, front_page, front_slot, back_page, back_slot \
            in d["cards"]:
        shape = shapes.get(code, "rect")
        fronts.append(PrintedFace(code, "front", title, count, size(front_slot), shape, [], front, front_blind,
                                  where(file, front_page, front_slot)))
        if back is not None:
            on = back_slot if back_slot is not None else front_slot
            backs.append(PrintedFace(code, "back", title, count, size(on), shape, [], back, back_blind,
                                     where(file, back_page, back_slot)))
    common = None
    if d.get("back"):
        b = d["back"]
        common = PrintedFace("back", "back", f"{d['name']} back", sum(int(r[2]) for r in d["cards"]), deck_size, "rect",
                             [], b["digest"], b["digest"], where(b["file"], b["page"], b["slot"]))
    return DeckFaces(d["id"], d["name"], fronts, backs, {}, {}, pack=bool(d["pack"]), common_back=common)


def cut(jobs: list[tuple[PrintedFace, tuple[int, int], float]]) -> list[Image.Image]:
    """Each face as it was printed, cut out of its build's PDF: (face, (w, h) px, bleed mm) ->
    an RGB image of exactly w x h px showing its trim plus that bleed, upright. A face the
    build never printed (a common back no card wore) is a plain grey panel."""
    import pypdfium2 as pdfium

    docs: dict[Path, object] = {}
    out = []
    try:
        for face, (w, h), bleed in jobs:
            where = face.where
            if where is None or (where.rect is None and not where.pieces):
                out.append(Image.new("RGB", (w, h), (225, 225, 225)))
                continue
            doc = docs.get(where.pdf)
            if doc is None:
                try:
                    doc = docs[where.pdf] = pdfium.PdfDocument(str(where.pdf))
                except (OSError, pdfium.PdfiumError) as exc:
                    raise InputError.at(str(where.pdf), None, f"cannot read it ({exc}): the pictures of the cards as "
                                        f"they were are cut out of the PDFs the build wrote beside its {NAME}; keep "
                                        "them together (or leave out --out)") from None
            try:
                if where.pieces:
                    out.append(_board(doc, where.pieces, face.size, (w, h), bleed))
                else:
                    x, y, rw, rh = where.rect
                    image = _render(doc, where.page, (x - bleed, y - bleed, rw + 2 * bleed, rh + 2 * bleed),
                                    where.turn, w, h)
                    out.append(_disc(image, face.size, bleed) if face.shape == "round" else image)
            except (IndexError, ValueError, pdfium.PdfiumError) as exc:
                raise InputError.at(str(where.pdf), None, f"it does not hold the page its {NAME} names ({exc}): "
                                    "was it replaced by another build? Keep the PDFs and manifest of one build "
                                    "together") from None
    finally:
        for doc in docs.values():
            doc.close()
    return out


def _render(doc, index: int, rect: tuple, turn: int, w: int, h: int) -> Image.Image:
    """The page's rectangle (mm, from its bottom-left) drawn into exactly w x h px, turned
    upright: pdfium draws the page's crop box over the whole bitmap, as it draws a face's own
    page in the export (so both have the same pixel grid)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    if index < 0 or index >= len(doc):
        raise IndexError(f"page {index + 1} of {len(doc)}")
    page = doc[index]
    try:
        x, y, rw, rh = rect
        page.set_cropbox(x * MM, y * MM, (x + rw) * MM, (y + rh) * MM)
        bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, ROTATE[turn], pdfium_c.FPDF_ANNOT)
        return bitmap.to_pil().convert("RGB")
    finally:
        page.close()


def _disc(image: Image.Image, size: tuple, bleed: float) -> Image.Image:
    """A round token as a face is drawn alone: nothing outside its disc (on the sheet, its bleed
    ring and its neighbours are there)."""
    w, h = image.size
    k = w / (size[0] + 2 * bleed)
    r = (min(size) / 2 + bleed) * k
    mask = Image.new("L", (w * 4, h * 4), 0)     # drawn large and shrunk: a smooth edge
    ImageDraw.Draw(mask).ellipse((4 * (w / 2 - r), 4 * (h / 2 - r), 4 * (w / 2 + r), 4 * (h / 2 + r)), fill=255)
    out = Image.new("RGB", (w, h), "white")
    out.paste(image, (0, 0), mask.resize((w, h), Image.LANCZOS))
    return out


def _board(doc, pieces: tuple, size: tuple, px: tuple[int, int], bleed: float) -> Image.Image:
    """A board put together from the pages it was tiled over: each piece drawn into the
    pixels it covers, the later tiles first, so an earlier tile covers the 'cut here' line
    a later one prints in their overlap."""
    w, h = px
    sx, sy = w / (size[0] + 2 * bleed), h / (size[1] + 2 * bleed)
    image = Image.new("RGB", (w, h), "white")
    for page, (x, y, pw, ph), (left, top) in reversed(pieces):
        # the whole pixels inside the piece (a piece's edge pixel may show what is past its tile)
        x0, x1 = max(0, math.ceil((x + bleed) * sx - 1e-6)), min(w, math.floor((x + pw + bleed) * sx + 1e-6))
        y0, y1 = max(0, math.ceil((y + bleed) * sy - 1e-6)), min(h, math.floor((y + ph + bleed) * sy + 1e-6))
        if x1 <= x0 or y1 <= y0:
            continue
        bx0, bx1 = x0 / sx - bleed, x1 / sx - bleed      # board mm those pixels show
        by0, by1 = y0 / sy - bleed, y1 / sy - bleed
        rect = (left + bx0 - x, top - (by1 - y), bx1 - bx0, by1 - by0)
        image.paste(_render(doc, page, rect, 0, x1 - x0, y1 - y0), (x0, y0))
    return image
