"""A PDF/X-1a:2003 preflight of our own, reading a PDF back the way a print shop's checker
does: the file's version, identifier and information entries; the output intent and its ICC
profile; each page's TrimBox inside its BleedBox inside its MediaBox; and everything each page
draws, forms and fonts followed: only CMYK and grey colour (no rg/RG, sc/scn or colour spaces
in content streams, images only DeviceCMYK or DeviceGray), no transparency (soft masks,
alpha (/CA, /ca below 1), blend modes, transparency groups of pages and forms), every font embedded, no annotations or scripts.
Returns the problems found, one line each: an empty list is a pass."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from pypdf import PdfReader

COLOUR_OPS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS", "sh", "BI"}
"""Operators that set a colour other than DeviceCMYK (k, K) or DeviceGray (g, G), paint a
shading, or draw an inline image: none belongs in our PDF/X files."""
IMAGE_SPACES = {"/DeviceCMYK", "/DeviceGray"}


def preflight(path: Path | str) -> list[str]:
    reader = PdfReader(str(path))
    problems = _document(reader)
    seen: set[int] = set()
    for number, page in enumerate(reader.pages, 1):
        where = f"page {number}"
        problems += _boxes(page, where)
        if "/Annots" in page:
            problems.append(f"{where}: has annotations")
        if (page.get("/Group") or {}).get("/S") == "/Transparency":
            problems.append(f"{where}: transparency group")
        problems += _drawing(page.get_contents(), page.get("/Resources"), reader, where, seen)
    return problems


def _document(reader: PdfReader) -> list[str]:
    out = []
    if reader.pdf_header not in ("%PDF-1.3", "%PDF-1.4"):
        out.append(f"header {reader.pdf_header}: PDF/X-1a:2003 is PDF 1.3 or 1.4")
    if reader.is_encrypted:
        out.append("encrypted")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    if info.get("/GTS_PDFXVersion") != "PDF/X-1a:2003":
        out.append(f"/GTS_PDFXVersion is {info.get('/GTS_PDFXVersion')!r}")
    if info.get("/Trapped") not in ("/True", "/False"):
        out.append(f"/Trapped is {info.get('/Trapped')!r}, not True or False")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not info.get(key):
            out.append(f"no {key} in the document information")
    ids = reader.trailer.get("/ID")
    if not ids or len(ids) != 2:
        out.append("no /ID in the trailer")
    root = reader.trailer["/Root"]
    for key in ("/OpenAction", "/AA", "/Names", "/AcroForm"):
        if key in root:
            out.append(f"the catalog has {key}")
    return out + _output_intent(root)


def _output_intent(root) -> list[str]:
    intents = [i.get_object() for i in root.get("/OutputIntents", [])]
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        return [f"{len(pdfx)} GTS_PDFX output intents, not one"]
    intent = pdfx[0]
    out = [] if intent.get("/OutputConditionIdentifier") else ["the output intent has no OutputConditionIdentifier"]
    profile = intent.get("/DestOutputProfile")
    if profile is None:
        return out + ["the output intent has no DestOutputProfile"]
    data = profile.get_object().get_data()
    if data[12:16] != b"prtr" or data[16:20] != b"CMYK" or profile.get_object().get("/N") != 4:
        out.append("the DestOutputProfile is not a CMYK output (printer) profile")
    return out


def _box(page, name):
    box = page.get(name)
    return None if box is None else [float(v) for v in box]


def _inside(inner, outer) -> bool:
    return (inner[0] >= outer[0] - 0.01 and inner[1] >= outer[1] - 0.01 and inner[2] <= outer[2] + 0.01
            and inner[3] <= outer[3] + 0.01)


def _boxes(page, where: str) -> list[str]:
    media, trim, bleed = _box(page, "/MediaBox"), _box(page, "/TrimBox"), _box(page, "/BleedBox")
    if trim is None or bleed is None:
        return [f"{where}: no TrimBox or no BleedBox"]
    out = []
    if not _inside(trim, bleed):
        out.append(f"{where}: TrimBox {trim} is not inside BleedBox {bleed}")
    if not _inside(bleed, media):
        out.append(f"{where}: BleedBox {bleed} is not inside MediaBox {media}")
    return out


def _drawing(contents, resources, reader, where: str, seen: set[int]) -> list[str]:
    """What a content stream and its resources draw, forms followed once each."""
    out = []
    if contents is not None:
        ops = _operators(contents.get_data())
        out += [f"{where}: colour operator {op}" for op in sorted(ops & COLOUR_OPS)]
    resources = resources.get_object() if resources is not None else {}
    if "/ColorSpace" in resources or "/Shading" in resources or "/Pattern" in resources:
        out.append(f"{where}: colour spaces, shadings or patterns in the resources")
    for name, state in (resources.get("/ExtGState") or {}).items():
        out += _gstate(state.get_object(), f"{where} {name}")
    for name, font in (resources.get("/Font") or {}).items():
        out += _font(font.get_object(), f"{where} font {name}")
    for name, ref in (resources.get("/XObject") or {}).items():
        if ref.idnum in seen:
            continue
        seen.add(ref.idnum)
        out += _xobject(ref.get_object(), reader, f"{where} {name}", seen)
    return out


def _operators(data: bytes) -> set[str]:
    """The operators a content stream uses, an inline image as BI, read by qpdf's parser
    (pikepdf): several times faster than pypdf's over a page's hundred thousand operators, and
    it tells an inline image apart (pypdf names it "INLINE IMAGE", not BI)."""
    with pikepdf.new() as scratch:      # (a stream belongs to a PDF: this one goes with its bytes)
        steps = pikepdf.parse_content_stream(pikepdf.Stream(scratch, data))
        found = {str(step.operator) for step in steps}
    return {"BI" if op == "INLINE IMAGE" else op for op in found}


def _gstate(state, where: str) -> list[str]:
    out = []
    if state.get("/SMask", "/None") != "/None":
        out.append(f"{where}: soft mask")
    for key in ("/CA", "/ca"):
        if key in state and float(state[key]) != 1.0:
            out.append(f"{where}: {key} {state[key]}")
    if state.get("/BM", "/Normal") not in ("/Normal", "/Compatible"):
        out.append(f"{where}: blend mode {state['/BM']}")
    return out


def _font(font, where: str) -> list[str]:
    if font.get("/Subtype") == "/Type3":
        return []
    for part in [font] + [f.get_object() for f in font.get("/DescendantFonts", [])]:
        descriptor = part.get("/FontDescriptor")
        if descriptor is not None:
            descriptor = descriptor.get_object()
            if any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                return []
    return [f"{where}: {font.get('/BaseFont')} is not embedded"]


def _xobject(thing, reader, where: str, seen: set[int]) -> list[str]:
    if thing.get("/Subtype") == "/Form":
        out = [f"{where}: transparency group"] if (thing.get("/Group") or {}).get("/S") == "/Transparency" else []
        return out + _drawing(thing, thing.get("/Resources"), reader, where, seen)
    if thing.get("/ImageMask"):
        return []
    out = [] if thing.get("/ColorSpace") in IMAGE_SPACES else [f"{where}: image in {thing.get('/ColorSpace')}"]
    if "/SMask" in thing or thing.get("/SMaskInData", 0):
        out.append(f"{where}: image with a soft mask")
    if "/JPXDecode" in str(thing.get("/Filter")):
        out.append(f"{where}: JPEG 2000 image (PDF 1.5, not in PDF/X-1a)")
    return out
