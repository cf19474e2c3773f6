"""PDF/X-1a:2003, the file a print shop's preflight accepts: CMYK and grey only, fonts embedded,
no transparency, an output intent naming the press condition, and on every page a TrimBox
(where the paper is cut) inside a BleedBox (how far the art runs past the cut).

The drawing makes the first three true: a canvas in CMYK mode (canvas.py, with colour.py's
PressColours) converts every colour and image, embeds its TrueType fonts and keys out
see-through pixels instead of using soft masks; pages whose cut is not the page edge (a card,
a poster) get their boxes as they are drawn (`set_boxes`). What reportlab cannot say itself
is added here once the PDF is saved, with pypdf: the output intent carrying the press's ICC
profile as /DestOutputProfile, /GTS_PDFXVersion in the document information, and a TrimBox
and BleedBox equal to the page on every page drawn without them (a sheet printed whole)."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from .. import files
from .colour import CONDITION, REGISTRY, PressColours

VERSION = "PDF/X-1a:2003"
MM = 72 / 25.4


def set_boxes(c: Canvas, trim: tuple[float, float, float, float], bleed: tuple[float, float, float, float]) -> None:
    """The TrimBox and BleedBox of the page being drawn (and the next ones), as (x, y, w, h)
    in page millimetres, y up."""
    c.setTrimBox(_points(trim))
    c.setBleedBox(_points(bleed))


def _points(box: tuple[float, float, float, float]) -> tuple[float, ...]:
    x, y, w, h = box
    return tuple(round(v * MM, 3) for v in (x, y, x + w, y + h))


def make_pdfx(path: Path | str, press: PressColours) -> None:
    """Turn the PDF at `path`, drawn by a CMYK canvas, into PDF/X-1a:2003 in place (written
    beside it and renamed over it). (pypdf is imported here, not with the module: most builds
    write no PDF/X, and it would add a tenth to every start-up.)"""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject
    reader = PdfReader(str(path))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = reader.pdf_header        # reportlab's PDF 1.4, which PDF/X-1a:2003 is based on
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(_output_intent(writer, press))])
    writer.add_metadata({"/GTS_PDFXVersion": VERSION})
    for page in writer.pages:
        if "/TrimBox" not in page:
            page.trimbox = page.mediabox
        if "/BleedBox" not in page:
            page.bleedbox = page.mediabox
    out = io.BytesIO()
    writer.write(out)
    files.write_atomically(Path(path), out.getvalue())


def _output_intent(writer: PdfWriter, press: PressColours) -> DictionaryObject:
    """The PDF/X output intent: the printing condition, and the press profile itself."""
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, NumberObject, TextStringObject
    profile = DecodedStreamObject()
    profile.set_data(press.icc)
    profile = profile.flate_encode()
    profile[NameObject("/N")] = NumberObject(4)
    return DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(CONDITION),
        NameObject("/OutputCondition"): TextStringObject(press.description),
        NameObject("/RegistryName"): TextStringObject(REGISTRY),
        NameObject("/Info"): TextStringObject(press.description),
        NameObject("/DestOutputProfile"): writer._add_object(profile),
    })
