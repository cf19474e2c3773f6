"""The reportlab edge: draw imposed sheets of laid-out cards into a PDF. Millimetres
become points only here. (The pages the build cache keeps are recorded and replayed by
replay.py, through the public calls here.)"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from .. import ops
from ..sheets.impose import Sheet
from ..layout import svg
from ..layout.layouter import ICON
from ..layout.fingerprint import Fingerprints
from .colour import PressColours
from . import deferred
from .flatten import Flattener
from .textruns import MM, TextRuns
from .replay import Entry, PageRecorder, compress_last_page, draw_image, end_form, end_transparency_group

@dataclass
class SheetPage:
    """Everything one page of a card sheet draws, in draw order: cards (slot, body, card
    height, shape), then cut ticks, crop marks, cut lines and the slug."""

    cards: list
    ticks: tuple = ()
    marks: tuple = ()
    cuts: tuple = ()
    slug: tuple | None = None     # (sheet, text)


CLIPS = 512
"""How many slots' clip paths a PDF keeps (a deck's sheets share a few dozen)."""
GROUP_REACH = 2000 * MM
"""Half the side of a translucent group's form box, points: more than anything drawn reaches."""
rl_config.useA85 = 0  # binary streams: smaller files, same content
MARK_COLOR = Color(0, 0, 0)
SLUG_COLOR = Color(0.35, 0.35, 0.35)
TICK_HALO = Color(1, 1, 1)


def _polygon(p, points) -> None:
    """A closed polygon (page mm) onto a reportlab path."""
    (x0, y0), rest = points[0], points[1:]
    p.moveTo(x0 * MM, y0 * MM)
    for x, y in rest:
        p.lineTo(x * MM, y * MM)
    p.close()


class Painter:
    """Draws laid-out operations (card mm, y down) onto any reportlab canvas: a sheet of
    cards, a board tile, or a figure in a rulebook."""

    def __init__(self, c: Canvas, forms: dict, bleed: float, images: dict | None = None,
                 press: PressColours | None = None):
        self.c = c
        self.forms = forms    # name -> ops.FormDef
        self.images = images if images is not None else {}  # key -> ImageReader, for images converted in memory
        self.bleed = bleed
        self.press = press    # CMYK mode: images converted to the press's inks (the canvas converts colours)
        self.defined: set[str] = set()
        self.defining = 0     # shared forms being drawn (define_forms), one inside another
        self.translucent_placed = False
        """Whether the page being drawn placed a translucent group of its own (outside the
        shared forms): its form is defined with the page, so a later PDF cannot replay the page."""
        self._prints: Fingerprints | None = None
        self._runs = TextRuns(c)
        self.flattener = None if press is None else Flattener(   # PDF/X: see-through faces flattened
            c, press, lambda rgb: Painter(rgb, forms, bleed, images), forms, self.images, bleed)

    def face(self, body, size: tuple[float, float]):
        """A face's drawing (`size` mm) as this canvas draws it: in PDF/X, a see-through face
        as one flattened image (flatten.py)."""
        return body if self.flattener is None else self.flattener.face(body, size)

    def define_forms(self, names, faces=()):
        """Draw each shared group once as a form XObject (before pages use it); those named
        in `faces` are whole faces (a board's sides), flattened in PDF/X when see-through."""
        for name in names:
            if name in self.defined:
                continue
            form = self.forms[name]
            (w, h), b = form.size, (self.bleed if form.bleed else 0)
            body = self.flattener.form(name, form) if self.flattener is not None and name in faces else form.body
            self.c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
            self.defining += 1
            try:
                self._draw(body, h)
            finally:
                self.defining -= 1
            end_form(self.c, name)
            self.defined.add(name)

    # --- draw operations (card mm, y down) --------------------------------------------------
    def _draw(self, body, card_h):
        c = self.c
        for op in body:
            kind = type(op)
            if kind is ops.Form:
                if op.opacity < 1:
                    self._faded(op.opacity, c.doForm, op.name)
                else:
                    c.doForm(op.name)
            elif kind is ops.Text:
                self._text(op, card_h)
            elif kind is ops.Image:
                if op.opacity < 1:
                    self._faded(op.opacity, self._image, op, card_h)
                else:
                    self._image(op, card_h)
            elif kind is ops.Svg:
                if op.opacity < 1:
                    self._faded(op.opacity, self._svg, op, card_h)
                else:
                    self._svg(op, card_h)
            elif kind is ops.Group:
                self._group(op, card_h)
            else:
                self._shape(op, kind, card_h)

    def _faded(self, opacity: float, draw, *args):
        """Call draw(*args) with fill and stroke at `opacity` (images and forms drawn in
        opaque colours take it up), then back to opaque. For a press (PDF/X-1a, which has
        no transparency) it is drawn opaque: a face with anything see-through never gets here
        in PDF/X, as flatten.py draws it in RGB and places the picture."""
        c = self.c
        if self.press is not None:
            draw(*args)
            return
        c.saveState()
        c.setFillAlpha(opacity)
        c.setStrokeAlpha(opacity)
        draw(*args)
        c.restoreState()

    def _shape(self, op, kind, card_h):
        """A Rect, Ellipse or Path. A translucent one's alpha ends with it (q ... Q), so what
        is drawn after it, forms included, is opaque again."""
        c = self.c
        paint = op.paint
        faded = (paint.fill is not None and paint.fill.alpha < 1) or (paint.stroke is not None
                                                                       and paint.stroke.alpha < 1)
        if faded:
            c.saveState()
        fill, stroke = self._paint(paint)
        if fill or stroke:
            self._outline(op, kind, card_h, fill, stroke)
        if faded:
            c.restoreState()

    def _outline(self, op, kind, card_h, fill: int, stroke: int):
        """Draw a Rect, Ellipse or Path in the paint set, filled and/or stroked."""
        c = self.c
        if kind is ops.Rect:
            y = (card_h - op.y - op.h) * MM
            if op.r:
                c.roundRect(op.x * MM, y, op.w * MM, op.h * MM, op.r * MM, stroke=stroke, fill=fill)
            else:
                c.rect(op.x * MM, y, op.w * MM, op.h * MM, stroke=stroke, fill=fill)
        elif kind is ops.Ellipse:
            cy = card_h - op.cy
            c.ellipse((op.cx - op.rx) * MM, (cy - op.ry) * MM, (op.cx + op.rx) * MM,
                      (cy + op.ry) * MM, stroke=stroke, fill=fill)
        else:
            p = c.beginPath()
            (x0, y0), rest = op.points[0], op.points[1:]
            p.moveTo(x0 * MM, (card_h - y0) * MM)
            for x, y in rest:
                p.lineTo(x * MM, (card_h - y) * MM)
            if op.closed:
                p.close()
            c.drawPath(p, stroke=stroke, fill=fill if op.closed else 0)

    def _group(self, op: ops.Group, card_h):
        # the group's frame (mm, y down) -> this frame (mm, y down), in points, y up
        c = self.c
        a, b, cc, d, e, f = op.transform
        c.saveState()
        c.transform(a, -b, -cc, d, e * MM, (card_h - f) * MM)
        if op.clip:
            x, y, w, h = op.clip
            p = c.beginPath()
            p.rect(x * MM, -(y + h) * MM, w * MM, h * MM)
            c.clipPath(p, stroke=0, fill=0)
        if op.opacity < 1 and self.press is None:
            self._translucent(op)
        else:
            self._draw(op.body, 0.0)
        c.restoreState()

    def _translucent(self, op: ops.Group):
        """A group translucent as a whole: its body drawn once into a form of its own, a
        transparency group named by what it draws, placed at the group's opacity."""
        if self._prints is None:
            self._prints = Fingerprints(self.forms)
        name = "group-" + self._prints.face(op.body)
        if name not in self.defined:
            self.c.beginForm(name, -GROUP_REACH, -GROUP_REACH, GROUP_REACH, GROUP_REACH)
            self._draw(op.body, 0.0)
            end_transparency_group(self.c, name)
            self.defined.add(name)
        if not self.defining:
            self.translucent_placed = True
        self._faded(op.opacity, self.c.doForm, name)

    def _image(self, op: ops.Image, card_h):
        c = self.c
        y = (card_h - op.y - op.h) * MM
        if op.clip:
            c.saveState()
            self._clip(op.clip, card_h)
        if self.press is not None:
            image, mask = self.press.image(op.src, self.images)
            c.drawImage(image, op.x * MM, y, op.w * MM, op.h * MM, mask=mask)
        else:
            draw_image(c, self.images.get(op.src, op.src), op.x * MM, y, op.w * MM, op.h * MM)
        if op.clip:
            c.restoreState()

    def _svg(self, op: ops.Svg, card_h):
        """An SVG as vector paths: its form, scaled into the op's box."""
        c = self.c
        name, picture = self.define_svg(Path(op.src), op.color)
        c.saveState()
        if op.clip:
            self._clip(op.clip, card_h)
        c.translate(op.x * MM, (card_h - op.y - op.h) * MM)
        c.scale(op.w * MM / picture.width, op.h * MM / picture.height)
        c.doForm(name)
        c.restoreState()

    def define_svg(self, path: Path, color):
        """(form name, drawing) of an SVG in a colour, its form drawn when first met: once per
        PDF however many cards show it (reportlab keeps the page being drawn aside meanwhile)."""
        name, picture = svg.drawing(path, color)
        if name not in self.defined:
            from reportlab.graphics import renderPDF   # (only now: most PDFs draw no SVG)
            c = self.c
            c.beginForm(name, 0, 0, picture.width, picture.height)
            binary, rl_config.useA85 = rl_config.useA85, 1   # a picture the SVG embeds goes inline, as text
            try:
                renderPDF.draw(picture, c, 0, 0, showBoundary=False)
            finally:
                rl_config.useA85 = binary
            end_form(c, name)     # (with the transparency states of an SVG drawn with opacity)
            self.defined.add(name)
        return name, picture

    def _clip(self, box, card_h):
        x, y, w, h = box
        p = self.c.beginPath()
        p.rect(x * MM, (card_h - y - h) * MM, w * MM, h * MM)
        self.c.clipPath(p, stroke=0, fill=0)

    def _paint(self, paint: ops.Paint):
        c = self.c
        fill = stroke = 0
        if paint.fill is not None:
            c.setFillColor(paint.fill)
            fill = 1
        if paint.stroke is not None and paint.width > 0:
            c.setStrokeColor(paint.stroke)
            c.setLineWidth(paint.width * MM)
            c.setDash([d * MM for d in paint.dash] if paint.dash else [])
            stroke = 1
        return fill, stroke

    def _text(self, op: ops.Text, card_h):
        c = self.c
        alpha = 1.0 if op.color is None or self.press is not None else float(op.color.alpha)
        turned = bool(op.rotate)
        if turned or alpha < 1:   # (the text's alpha, like its turn, ends with it)
            c.saveState()
        if turned:
            c.translate(op.cx * MM, (card_h - op.cy) * MM)
            c.rotate(op.rotate)
            c.translate(-op.cx * MM, -(card_h - op.cy) * MM)
        t = c.beginText()
        t.setFillColor(op.color if op.color is not None else MARK_COLOR)
        icons = self._runs.draw(t, op, card_h)
        if icons and alpha < 1:
            c.setStrokeAlpha(alpha)   # (the fill's is the text's already): icons fade with their text
        for x, y, run in icons:
            name = ICON + run.text
            scale = run.h / self.forms[name].size[1]
            c.saveState()
            c.translate(x, y - 0.17 * run.h * MM)
            c.scale(scale, scale)
            c.doForm(name)
            c.restoreState()
        if turned or alpha < 1:
            c.restoreState()


class CardCanvas(Painter):
    """A PDF being drawn: shared forms are defined once, then pages of cards. With `press`, in
    CMYK mode: every colour set on the canvas is converted to the press's inks as it is set."""

    def __init__(self, path: str, page_mm: tuple[float, float], title: str, forms: dict, bleed: float,
                 font: str, subject: str = "", images: dict | None = None, press: PressColours | None = None):
        # initialFontName: otherwise every page names Helvetica, a font that is never embedded
        c = Canvas(path, pagesize=(page_mm[0] * MM, page_mm[1] * MM), invariant=1,
                   pageCompression=1, initialFontName=font, initialFontSize=6, enforceColorSpace=press)
        c.setTitle(title)
        c.setCreator("pnpgen")
        c.setAuthor("")
        c.setSubject(subject)
        super().__init__(c, forms, bleed, images, press)
        self.recorder = PageRecorder(c)
        self.path = path
        self._clips: dict[tuple, tuple] = {}    # (id of a slot, shape) -> (the slot, its clip path)
        if press is None:     # (a PDF/X file's images are converted to the press's inks in memory)
            deferred.attach(c, originals=getattr(images, "keeps_originals", False))

    # --- pages ----------------------------------------------------------------------------
    def card(self, slot, body, card_h, shape="rect"):
        c = self.c
        c.saveState()
        c.clipPath(self._clip_of(slot, shape), stroke=0, fill=0)
        a, b, cc, d, e, f = slot.transform
        c.transform(a, b, cc, d, e * MM, f * MM)
        if self.flattener is not None:      # PDF/X: a see-through card as one flattened image
            body = self.face(body, (slot.trim[3] if slot.turned else slot.trim[2], card_h))
        self._draw(body, card_h)
        c.restoreState()

    def _clip_of(self, slot, shape: str):
        """The path a card in `slot` is clipped to, made once for the slot (every sheet of a
        deck has the same slots): its box, or its outline (a polygon, a disc), with its bleed."""
        key = (id(slot), shape)
        found = self._clips.get(key)
        if found is None:
            x, y, w, h = slot.clip
            p = self.c.beginPath()
            if slot.path:          # a hexagon or polygon: its outline grown by the bleed
                _polygon(p, slot.path)
            elif shape == "round":   # a disc: its bleed is a ring round the cut
                p.circle((x + w / 2) * MM, (y + h / 2) * MM, min(w, h) / 2 * MM)
            else:
                p.rect(x * MM, y * MM, w * MM, h * MM)
            if len(self._clips) >= CLIPS:
                self._clips.clear()
            found = self._clips[key] = (slot, p)     # (the slot kept: its id stays its own)
        return found[1]

    def marks(self, marks):
        c = self.c
        c.saveState()
        c.setStrokeColor(MARK_COLOR)
        c.setLineWidth(0.25)
        c.lines([(x0 * MM, y0 * MM, x1 * MM, y1 * MM) for (x0, y0), (x1, y1) in marks])
        c.restoreState()

    def cut_lines(self, cuts):
        """A hairline on the trim of each packed component, following its shape: round
        tokens are cut round, polygons along their outlines ("path"), and the edges nested
        hexes share once each ("lines")."""
        if not cuts:
            return
        c = self.c
        c.saveState()
        c.setStrokeColor(MARK_COLOR)
        c.setLineWidth(0.3)
        for shape, where in cuts:
            if shape == "path":
                p = c.beginPath()
                _polygon(p, where)
                c.drawPath(p, stroke=1, fill=0)
                continue
            if shape == "lines":
                c.lines([(x0 * MM, y0 * MM, x1 * MM, y1 * MM) for (x0, y0), (x1, y1) in where])
                continue
            x, y, w, h = where
            if shape == "round":
                c.circle((x + w / 2) * MM, (y + h / 2) * MM, min(w, h) / 2 * MM, stroke=1, fill=0)
            else:
                c.rect(x * MM, y * MM, w * MM, h * MM, stroke=1, fill=0)
        c.restoreState()

    def ticks(self, ticks):
        """Cut ticks over the outer bleed: a black hairline on a white halo, so they show on
        any art; they are cut away with the bleed."""
        if not ticks:
            return
        c = self.c
        c.saveState()
        segments = [(x0 * MM, y0 * MM, x1 * MM, y1 * MM) for (x0, y0), (x1, y1) in ticks]
        c.setStrokeColor(TICK_HALO)
        c.setLineWidth(1.0)
        c.lines(segments)
        c.setStrokeColor(MARK_COLOR)
        c.setLineWidth(0.35)
        c.lines(segments)
        c.restoreState()

    def slug(self, sheet: Sheet, text: str, font: str):
        s = sheet.slug
        if s.height < 1.2:
            return
        size = min(6.0, s.height * MM / 1.1)
        c = self.c
        c.saveState()
        c.translate(s.x * MM, s.y * MM)
        c.rotate(s.angle)
        c.setFillColor(SLUG_COLOR)
        c.setFont(font, size)
        c.drawCentredString(0, 0, text)
        c.restoreState()

    def plain(self, lines=(), circles=(), texts=()):
        """Free lines (x0, y0, x1, y1, width), circles (x, y, r, width, filled) and text
        (x, y, text, font, size pt, align, colour) in page millimetres, y up: for pages that
        are not card sheets, such as the duplex calibration sheet."""
        c = self.c
        c.saveState()
        c.setStrokeColor(MARK_COLOR)
        c.setFillColor(MARK_COLOR)
        for x0, y0, x1, y1, width in lines:
            c.setLineWidth(width * MM)
            c.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)
        for x, y, r, width, filled in circles:
            c.setLineWidth(width * MM)
            c.circle(x * MM, y * MM, r * MM, stroke=1 if width else 0, fill=1 if filled else 0)
        for x, y, text, font, size, align, color in texts:
            c.setFillColor(Color(*color) if color else MARK_COLOR)
            c.setFont(font, size)
            draw = {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align]
            draw(x * MM, y * MM, text)
        c.restoreState()

    def page(self):
        self.c.showPage()
        compress_last_page(self.c)
        self.translucent_placed = False

    # --- pages kept by the build cache (build/cache.py), recorded by pdf/replay.py -----------
    def seed_fonts(self, fonts: dict[str, str]) -> None:
        """Give each font all its characters now, in the order given (see PageRecorder)."""
        self.recorder.seed_fonts(fonts)

    def draw_page(self, page: SheetPage, slug_font: str) -> None:
        """Draw a sheet page without ending it."""
        for slot, body, card_h, shape in page.cards:
            self.card(slot, body, card_h, shape)
        self.ticks(page.ticks)
        self.marks(page.marks)
        self.cut_lines(page.cuts)
        if page.slug:
            self.slug(page.slug[0], page.slug[1], slug_font)

    def record_page(self, images: list) -> Entry | None:
        """End the page drawn with draw_page and return it as a cache entry, or None when the
        page did more to the document than an entry can replay."""
        if self.translucent_placed:     # (a translucent group's form is defined with the page)
            self.page()
            return None
        return self.recorder.record(self.page, images)

    def replay_page(self, entry: Entry) -> None:
        """Put a kept page into the document as drawing it would (the SVG forms it places
        defined where drawing it would define them)."""
        self.recorder.replay(entry, self.images, self._define_kept_svg)

    def _define_kept_svg(self, key: str) -> bool:
        found = svg.from_replay_key(key)
        if found is not None:
            self.define_svg(*found)
        return found is not None

    def save(self):
        self.c.save()
        registry = deferred.of(self.c)
        if registry is not None:
            deferred.splice(self.path, registry)


class BoardCanvas(CardCanvas):
    """A board's PDF: an assembly page, then one page per tile (or a single poster page),
    each showing its window of the board form, drawn once for all of them."""

    def assembly(self, layout, form: str, title: str, font: str, sides: int):
        """A page showing the whole board small, the tiles over it with their labels, and
        how to put them together."""
        W, H = layout.page
        c = self.c
        c.setPageSize((W * MM, H * MM))
        c.saveState()
        c.setFillColor(MARK_COLOR)
        c.setFont(font, 14)
        c.drawString(15 * MM, (H - 20) * MM, f"{title}: assembly")
        c.setFont(font, 9)
        steps = [f"{len(layout.tiles)} pages, {layout.cols} across and {layout.rows} down"
                 + (f", for each of the {sides} sides." if sides > 1 else "."),
                 "Print at 100 % (actual size), single-sided.",
                 "Each page but the first of its row and column has a dashed 'cut' line: cut it there and",
                 "lay it over its neighbour, its cut edge on the arrow tips and its short lines running on",
                 "from the arrows' lines; then glue.",
                 "Finally cut the board out along its crop marks."]
        for i, line in enumerate(steps):
            c.drawString(15 * MM, (H - 30 - 5 * i) * MM, line)
        # the board small, with the tile windows over it (all of them inside the box)
        bw, bh = layout.board
        ux0 = min(t.window[0] for t in layout.tiles)
        uy0 = min(t.window[1] for t in layout.tiles)
        ux1 = max(t.window[0] + t.window[2] for t in layout.tiles)
        uy1 = max(t.window[1] + t.window[3] for t in layout.tiles)
        box_w, box_h, top = W - 30, H - 75, H - 60
        k = min(box_w / (ux1 - ux0), box_h / (uy1 - uy0))
        ox = (W - (ux1 - ux0) * k) / 2 - ux0 * k          # page x of board x = 0
        oy = top - (box_h - (uy1 - uy0) * k) / 2 + uy0 * k  # page y of board y = 0
        c.translate(ox * MM, (oy - bh * k) * MM)
        c.scale(k, k)
        c.doForm(form)
        c.setLineWidth(0.8 / k)
        c.setStrokeColor(MARK_COLOR)
        for t in layout.tiles:
            x, y, w, h = t.window
            c.rect(x * MM, (bh - y - h) * MM, w * MM, h * MM, stroke=1, fill=0)
            c.setFont(font, 14 / k)
            c.drawCentredString((x + w / 2) * MM, (bh - y - h / 2) * MM, t.label)
        c.restoreState()
        self.page()

    def tile(self, layout, t, form: str, board_h: float, label: str, font: str):
        W, H = layout.page
        c = self.c
        c.setPageSize((W * MM, H * MM))
        c.saveState()
        x, y, w, h = t.clip
        p = c.beginPath()
        p.rect(x * MM, y * MM, w * MM, h * MM)
        c.clipPath(p, stroke=0, fill=0)
        a, b, cc, d, e, f = t.place
        c.translate(e * MM, (f - board_h) * MM)
        c.doForm(form)
        c.restoreState()
        if t.cuts:
            c.saveState()
            c.setStrokeColor(MARK_COLOR)
            c.setLineWidth(0.6)
            c.setDash([4, 3])
            c.lines([(x0 * MM, y0 * MM, x1 * MM, y1 * MM) for (x0, y0), (x1, y1) in t.cuts])
            c.setFont(font, 6)
            for (x0, y0), (x1, y1) in t.cuts:
                c.saveState()
                if x0 == x1:   # a vertical cut: label it along the line
                    c.translate((x0 - 1) * MM, (y0 + y1) / 2 * MM)
                    c.rotate(90)
                else:
                    c.translate((x0 + x1) / 2 * MM, (y0 + 1) * MM)
                c.setFillColor(MARK_COLOR)
                c.drawCentredString(0, 0, "cut here, then lay over the next page and glue")
                c.restoreState()
            c.restoreState()
        self.ticks(t.marks)
        c.saveState()
        c.setFillColor(SLUG_COLOR)
        c.setFont(font, 7)
        c.drawString(x * MM, (y - 4.2) * MM, label)
        # where this page goes: a small map of the tiles with this one filled
        cell = min(2.2, 4.5 / (layout.rows * 0.8))
        gx = x + w - layout.cols * cell
        for tt in layout.tiles:
            c.setStrokeColor(SLUG_COLOR)
            c.setLineWidth(0.3)
            c.setFillColor(SLUG_COLOR)
            c.rect((gx + tt.col * cell) * MM, (y - 1.2 - (tt.row + 1) * cell * 0.8) * MM, cell * MM, cell * 0.8 * MM,
                   stroke=1, fill=1 if tt is t else 0)
        c.restoreState()
        self.page()
