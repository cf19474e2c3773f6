"""Pages kept by the build cache, as the PDF holds them: what a drawn page is made of, so
that a later build can put it back into a new PDF unchanged. And images resampled for print
(layout/printres.py), put into the PDF as the streams they hold, never decoded or compressed
again: registered under the very name reportlab's drawImage gives their key, so that
drawImage finds them registered and only places them (as it does any image drawn twice).

This is the one module of pnpgen that reaches into reportlab's private internals (the
canvas's accumulators, its document's page list and forms, the font subsets); tests/test_replay.py
checks each of them against the installed reportlab."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas, _digester

from ..layout.printres import PrintImage, StoredImage
from . import deferred

MASK = "auto"


@dataclass
class Entry:
    """A drawn page as the PDF keeps it."""

    content: bytes           # the Flate-compressed content stream
    forms: list              # XObject names the page uses, in order
    images: list             # image sources the page draws, in order (replayed to register them)
    gstates: list            # transparency states [(key, value), name]


class _AlreadyFlate:
    """A Flate filter for a stream compressed in advance."""

    pdfname = "FlateDecode"

    def encode(self, data):
        return data


def _put_contents(page, compressed: bytes) -> None:
    """Give a finished page its content stream, Flate-compressed already."""
    contents = pdfdoc.PDFStream()
    contents.content = compressed
    contents.filters = [_AlreadyFlate()]
    page.Contents = contents
    page.stream = None


def end_form(c: Canvas, name: str) -> None:
    """End the form being drawn (c.endForm), keeping the transparency states it names in its
    resources: reportlab gives a form only its fonts and XObjects, so a translucent shape in a
    form would otherwise lose its alpha (and name a state the form does not have)."""
    c.endForm()
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    states = getattr(form, "ExtGState", None)
    if states and not form.Resources:
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()
        resources.allProcs()
        if form.XObjects:
            resources.XObject = form.XObjects
        resources.ExtGState = states
        form.Resources = resources


def end_transparency_group(c: Canvas, name: str) -> None:
    """End the form being drawn (as end_form) and make it a transparency group (/Group /S
    /Transparency): placed at an opacity, its content is composited among itself first and
    then faded as one. reportlab writes only the form's stream dictionary, so the stream it
    would make is made here, the group entry in its dictionary."""
    end_form(c, name)
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    contents = pdfdoc.PDFStream(content=form.stream)
    contents.__Comment__ = "xobject form stream"
    contents.dictionary["Group"] = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("Group"),
                                                        "S": pdfdoc.PDFName("Transparency")})
    form.Contents = contents


def compress_last_page(c: Canvas) -> None:
    """reportlab keeps every page's drawing as text until save(); compressing it now
    (exactly as save() would) keeps a 10,000-card build's memory small. If reportlab's
    internals ever differ, the page is simply left for save() to compress."""
    pages = getattr(getattr(c._doc, "Pages", None), "pages", None)
    if not pages:
        return
    page = pages[-1]
    stream = getattr(page, "stream", None)
    if not isinstance(stream, str) or getattr(page, "Contents", None) or not page.compression:
        return
    _put_contents(page, zlib.compress(stream.encode("utf8")))


class PageRecorder:
    """Records the pages drawn on one canvas as cache entries, and replays entries into it.

    The fonts are seeded first (`seed_fonts`): a page is kept only while the font state is
    still the seeded one, since its bytes name characters by their codes in the subsets."""

    def __init__(self, c: Canvas):
        self.c = c
        self.seeded_codes: dict[str, int | None] | None = None  # font name -> next code, once seeded
        self.seeded_font_count = 0                                # fonts in the document once seeded

    def seed_fonts(self, fonts: dict[str, str]) -> None:
        """Give each font all its characters now, in the order given, so the code of every
        character (and so every page's bytes) no longer depends on which page drew it first."""
        doc = self.c._doc
        for name, chars in fonts.items():
            font = pdfmetrics.getFont(name)
            if not font._dynamicFont:
                continue
            for subset, _ in font.splitString(chars, doc):
                font.getSubsetInternalName(subset, doc)
            state = font.state[doc]
            for subset in range(len(state.subsets)):
                font.getSubsetInternalName(subset, doc)
        self.seeded_codes = {name: self._next_code(name) for name in fonts}
        self.seeded_font_count = len(doc.fontMapping)

    def _next_code(self, name: str) -> int | None:
        """The next character code a dynamic font would hand out in this document."""
        font = pdfmetrics.getFont(name)
        state = getattr(font, "state", {}).get(self.c._doc)
        return state.nextCode if state is not None else None

    def _fonts_moved(self) -> bool:
        """Whether a page set a character or font the seeding missed: the font state no longer
        matches the keys, so this page and every later one cannot be kept."""
        if self.seeded_codes is None or len(self.c._doc.fontMapping) != self.seeded_font_count:
            return True
        return any(self._next_code(name) != codes for name, codes in self.seeded_codes.items())

    def record(self, end_page, images: list) -> Entry | None:
        """End the page being drawn (with `end_page`) and return it as a cache entry, or None
        when the page did more to the document than an entry can replay."""
        c = self.c
        forms, gstates = list(c._formsinuse), list(c._extgstate._c.items())
        clean = not (c._colorsUsed or c._shadingUsed or c._annotationrefs or c._psCommandsBeforePage
                     or c._psCommandsAfterPage)
        end_page()
        moved = self._fonts_moved()
        page = c._doc.Pages.pages[-1]
        contents = getattr(page, "Contents", None)
        if not clean or moved or contents is None or not isinstance(contents.content, bytes):
            return None
        return Entry(contents.content, forms, images, gstates)

    def replay(self, entry: Entry, images: dict, define=None) -> None:
        """Put a kept page into the document as drawing it would: its images registered in
        the same order (`images` maps a source to an image converted in memory; `define`, when
        given, takes a source first and says whether it defined a form for it rather), its forms
        and transparency states in its resources, its stream."""
        c = self.c
        if entry.images:
            code = c._code
            c._code = []
            for src in entry.images:
                if define is not None and define(src):
                    continue
                draw_image(c, images.get(src, src), 0, 0, 1, 1)
            c._code = code
        c._formsinuse = list(entry.forms)
        for t, name in entry.gstates:
            c._extgstate._c[tuple(t)] = name
        c.showPage()
        _put_contents(c._doc.Pages.pages[-1], entry.content)


def draw_image(c: Canvas, image, x: float, y: float, w: float, h: float) -> None:
    """Draw `image` (a file's path, an ImageReader, or a PrintImage or StoredImage) over x, y,
    w, h (points). On a canvas whose images are deferred (deferred.py), a StoredImage's
    streams, and with `originals` a file's, are written into the PDF once it is saved."""
    if isinstance(image, (PrintImage, StoredImage)):
        _register(c, image)
        image = image.key
    elif isinstance(image, str):
        registry = deferred.of(c)
        if registry is not None and registry.originals:
            name = _digester(f"{image}{MASK}".encode("utf-8"))
            if c._doc.idToObject.get(c._doc.getXObjectName(name)) is None:
                deferred.register_original(c._doc, registry, image, name)
    c.drawImage(image, x, y, w, h, mask=MASK)


def _register(c: Canvas, image: PrintImage | StoredImage) -> None:
    """Put the image's XObject (and its soft mask's) into the document, once."""
    name = _digester(f"{image.key}{MASK}".encode("utf-8"))
    reg_name = c._doc.getXObjectName(name)
    if c._doc.idToObject.get(reg_name) is not None:
        return
    if isinstance(image, StoredImage):
        registry = deferred.of(c)
        if registry is not None:
            deferred.register_stored(c._doc, registry, image, name,
                                     lambda: c._doc.getXObjectName(_digester(image.mask_bytes())))
            return
        image = image.loaded()
    xobject = _xobject(name, image.width, image.height, image.colour_space, image.codec, image.data)
    if image.mask is not None:
        smask = _xobject(_digester(image.mask), image.width, image.height, "DeviceGray", "FlateDecode", image.mask)
        smask._decode = [0, 1]
        mask_name = c._doc.getXObjectName(smask.name)
        if c._doc.idToObject.get(mask_name) is None:
            xobject.smask = c._doc.Reference(smask, mask_name)
        else:
            xobject.smask = pdfdoc.PDFObjectReference(mask_name)
    c._doc.Reference(xobject, reg_name)
    c._doc.addForm(name, xobject)


def _xobject(name: str, width: int, height: int, space: str, codec: str, data: bytes) -> pdfdoc.PDFImageXObject:
    xobject = pdfdoc.PDFImageXObject(name)
    xobject.width, xobject.height, xobject.bitsPerComponent = width, height, 8
    xobject.colorSpace, xobject._filters, xobject.streamContent, xobject.mask = space, (codec,), data, None
    return xobject
