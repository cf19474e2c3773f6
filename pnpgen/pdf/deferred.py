"""Image streams written into a PDF after reportlab has saved it, so that a PDF of many large
images never holds them in memory: reportlab keeps every object of a document until it
saves, and then formats the whole file in memory at once (a 1.3 GB PDF took 4 GB).

An image registered here goes into the document as an image XObject whose stream is a
placeholder; `splice` then copies the saved file, putting each image's real stream in its
placeholder's place, read from where it lives (an out/.cache/images entry, or the art file
itself), and writes the cross-reference table anew. A stream whose bytes are known in advance
(a resampled image's) leaves the file byte for byte as reportlab writes it with the stream in
memory. An original kept as it is (--keep-images) goes in as the file has it where the PDF
can take it so (a JPEG's bytes; an 8-bit grey or colour PNG's compressed rows, whose row
filters a PDF reader undoes as a PNG reader does), and is otherwise decoded a band of rows
at a time and compressed afresh (its colour, and its alpha as a soft mask)."""

from __future__ import annotations

import os
import re
import tempfile
import weakref
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable

from PIL import Image
from reportlab.pdfbase import pdfdoc

from .. import files
from ..errors import InputError
from ..layout import rows
from ..layout.printres import StoredImage

_REGISTRIES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_BLOCK = 1 << 20
FLATE_LEVEL = 6
"""zlib's level for an original compressed afresh (reportlab's own)."""
_SPACES = {"L": "DeviceGray", "RGB": "DeviceRGB"}
BAND_ROWS = 128


@dataclass
class Source:
    """Where an image stream comes from: `length` bytes of `path` from `at`, or (`make`) a
    function that writes it into a file and returns the file's path (made at splice time)."""

    path: Path | None = None
    at: int = 0
    length: int = 0
    make: Callable[[], Path] | None = None

    def resolved(self) -> "Source":
        """The source as bytes of a file (made now, if it is to be made)."""
        if self.make is None:
            return self
        path = self.make()
        return Source(path, 0, os.path.getsize(path))

    def write(self, out: BinaryIO) -> None:
        """Copy the stream (of a resolved source) into `out`."""
        with open(self.path, "rb") as f:
            f.seek(self.at)
            _copy_bytes(f, out, self.length)


@dataclass
class Deferred:
    """A canvas's images whose streams `splice` writes: by the object number of the XObject
    holding each one's placeholder. `originals`: files drawn as they are go in this way too."""

    originals: bool = False
    sources: dict[int, Source] = field(default_factory=dict)
    scratch: tempfile.TemporaryDirectory | None = None
    made: int = 0

    def scratch_file(self) -> Path:
        """A new name in a temporary folder for a stream made at splice time (the folder goes
        after `splice`)."""
        if self.scratch is None:
            self.scratch = tempfile.TemporaryDirectory(prefix="pnpgen-streams-")
        self.made += 1
        return Path(self.scratch.name) / str(self.made)


def attach(c, originals: bool = False) -> None:
    """Defer the images drawn on the reportlab canvas `c` (`originals`: files drawn as they
    are too); `splice` the file once it is saved."""
    _REGISTRIES[c] = Deferred(originals)


def of(c) -> Deferred | None:
    return _REGISTRIES.get(c)


class Placeholder(pdfdoc.PDFObject):
    """An image XObject whose stream `splice` writes, formatted as reportlab formats its own
    image XObjects (`decode`: a soft mask's [0 1]; `decode_parms`: a PNG predictor's)."""

    def __init__(self, width: int, height: int, space: str, codec: str, decode: list | None = None,
                 decode_parms: dict | None = None):
        self.width, self.height, self.space, self.codec = width, height, space, codec
        self.decode, self.decode_parms = decode, decode_parms
        self.smask = None
        self.content = b""      # (its token, once it has an object number: see `put`)

    def format(self, document):
        stream = pdfdoc.PDFStream(content=self.content)
        entries = {"Type": pdfdoc.PDFName("XObject"), "Subtype": pdfdoc.PDFName("Image"), "Width": self.width,
                   "Height": self.height, "BitsPerComponent": 8, "ColorSpace": pdfdoc.PDFName(self.space),
                   "Filter": pdfdoc.PDFArray([pdfdoc.PDFName(self.codec)]), "Length": len(self.content)}
        if self.decode is not None:
            entries["Decode"] = pdfdoc.PDFArray(self.decode)
        if self.decode_parms is not None:       # (an array, as Filter is: what pdfium reads)
            entries["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary(dict(self.decode_parms))])
        if self.smask is not None:
            entries["SMask"] = self.smask
        stream.dictionary.dict.update(entries)
        stream.filters = ()
        return stream.format(document)


def token(number: int) -> bytes:
    """The placeholder stream of the object `number`."""
    return b"%%pnpgen-deferred-stream %d%%" % number


def put(doc, registry: Deferred, xobject: Placeholder, label: str, source: Source):
    """Register `xobject` under `label` in the document `doc` (reportlab's), its stream to come
    from `source`; returns the reference."""
    ref = doc.Reference(xobject, label)
    number = doc.idToObjectNumberAndVersion[label][0]
    xobject.content = token(number)
    registry.sources[number] = source
    return ref


# --- registering ------------------------------------------------------------------------------
def register_stored(doc, registry: Deferred, image: StoredImage, name: str, mask_name: Callable[[], str]) -> None:
    """A resampled image kept in an image-store entry, as the XObject `name` of the document
    `doc` (its soft mask, if it has one, under `mask_name()`), its streams read from the entry
    at splice time: the XObjects reportlab makes of it in memory (replay.py), byte for byte."""
    xobject = Placeholder(image.width, image.height, image.colour_space, image.codec)
    if image.mask_length:
        label = mask_name()
        if doc.idToObject.get(label) is None:
            mask = Placeholder(image.width, image.height, "DeviceGray", "FlateDecode", [0, 1])
            at = image.data_at + image.data_length
            xobject.smask = put(doc, registry, mask, label, Source(image.path, at, image.mask_length))
        else:
            xobject.smask = pdfdoc.PDFObjectReference(label)
    put(doc, registry, xobject, doc.getXObjectName(name), Source(image.path, image.data_at, image.data_length))
    doc.addForm(name, xobject)


def register_original(doc, registry: Deferred, path: str, name: str) -> bool:
    """The file at `path`, drawn as it is, as the XObject `name` of the document `doc`: False
    when it is not a JPEG in grey or RGB nor a PNG of 8-bit channels with no colour key
    (reportlab draws those itself, in memory)."""
    try:
        with Image.open(path) as im:
            fmt, mode, size = im.format, im.mode, im.size
            banded = fmt == "PNG" and rows.bandable(im) and "transparency" not in im.info
    except (OSError, SyntaxError, ValueError):
        return False
    if fmt == "JPEG" and mode in _SPACES:
        xobject = Placeholder(*size, _SPACES[mode], "DCTDecode")
        source = Source(Path(path), 0, os.path.getsize(path))
    elif banded and mode in _SPACES:
        parms = {"Predictor": 15, "Colors": len(mode), "BitsPerComponent": 8, "Columns": size[0]}
        xobject = Placeholder(*size, _SPACES[mode], "FlateDecode", decode_parms=parms)
        source = Source(make=_idat_file(path, registry))
    elif banded:
        _register_decoded(doc, registry, Path(path), name, mode, size)
        return True
    else:
        return False
    put(doc, registry, xobject, doc.getXObjectName(name), source)
    doc.addForm(name, xobject)
    return True


def _register_decoded(doc, registry: Deferred, path: Path, name: str, mode: str, size) -> None:
    """A PNG with alpha (LA or RGBA), its colour and its soft mask compressed afresh at splice
    time."""
    streams = _Decoded(path, registry)
    xobject = Placeholder(*size, _SPACES[mode[:-1]], "FlateDecode")
    mask = Placeholder(*size, "DeviceGray", "FlateDecode", [0, 1])
    xobject.smask = put(doc, registry, mask, doc.getXObjectName(f"{name}:mask"),
                        Source(make=lambda: streams.made()[1]))
    put(doc, registry, xobject, doc.getXObjectName(name), Source(make=lambda: streams.made()[0]))
    doc.addForm(name, xobject)


class _Decoded:
    """A PNG's colour and alpha, each compressed into a temporary file, made once when first
    asked for (a band of rows at a time)."""

    def __init__(self, path: Path, registry: Deferred):
        self.path, self.registry = path, registry
        self.files: tuple[Path, Path] | None = None

    def made(self) -> tuple[Path, Path]:
        if self.files is None:
            stem = self.registry.scratch_file()
            colour, alpha = stem.with_suffix(".colour"), stem.with_suffix(".alpha")
            source = rows.PngRows(self.path, *_mode_size(self.path))
            flat = "L" if source.mode == "LA" else "RGB"
            pack_colour, pack_alpha = zlib.compressobj(FLATE_LEVEL), zlib.compressobj(FLATE_LEVEL)
            with open(colour, "wb") as out_colour, open(alpha, "wb") as out_alpha:
                for band in source.bands(BAND_ROWS):
                    out_colour.write(pack_colour.compress(band.convert(flat).tobytes()))
                    out_alpha.write(pack_alpha.compress(band.getchannel("A").tobytes()))
                out_colour.write(pack_colour.flush())
                out_alpha.write(pack_alpha.flush())
            self.files = (colour, alpha)
        return self.files


def _mode_size(path: Path) -> tuple[str, tuple[int, int]]:
    with Image.open(path) as im:
        return im.mode, im.size


def _idat_file(path: str, registry: Deferred) -> Callable[[], Path]:
    """A PNG's compressed image data, joined from its chunks into a temporary file."""
    def make() -> Path:
        out = registry.scratch_file().with_suffix(".idat")
        with open(path, "rb") as f, open(out, "wb") as w:
            for block in rows.idat_blocks(f):
                w.write(block)
        return out
    return make


# --- splicing ---------------------------------------------------------------------------------
_LENGTH = re.compile(rb"/Length \d+")


def splice(path: str, registry: Deferred) -> None:
    """Write each deferred image's stream into the PDF saved at `path`, in place (through a
    temporary file renamed over it)."""
    if not registry.sources:
        return
    try:
        with open(path, "rb") as pdf:
            offsets, xref_at, trailer = _xref(pdf)
            tmp = files.temp_beside(Path(path))
            try:
                with open(tmp, "wb") as out:
                    _copy(pdf, out, offsets, xref_at, registry)
                    _write_xref(out, offsets, trailer)
                os.replace(tmp, path)
            finally:
                files.remove_quietly(tmp)     # (gone already once renamed: only forgotten)
    except OSError as exc:
        raise InputError.at(files.shown(path), None, f"an image could not be put into the PDF ({exc}); "
                            "build again (another build of the game at once may have changed its art)") from None
    finally:
        if registry.scratch is not None:
            registry.scratch.cleanup()
            registry.scratch = None


def _xref(pdf: BinaryIO) -> tuple[list[int], int, bytes]:
    """(each object's offset, from object 1; the xref table's offset; the trailer from its
    `trailer` keyword to `startxref`) of a PDF as reportlab writes it."""
    pdf.seek(0, 2)
    size = pdf.tell()
    pdf.seek(max(0, size - 4096))
    tail = pdf.read()
    xref_at = int(tail[tail.rindex(b"startxref") + 9:].split()[0])
    pdf.seek(xref_at)
    table = pdf.read(size - xref_at)
    lines = table.split(b"\n")
    if lines[0] != b"xref" or lines[1].split()[0] != b"0":
        raise OSError("not a cross-reference table reportlab writes")
    count = int(lines[1].split()[1])
    offsets = [int(line[:10]) for line in lines[3:2 + count]]
    trailer = table[table.index(b"trailer"):table.rindex(b"startxref")]
    return offsets, xref_at, trailer


def _copy(pdf: BinaryIO, out: BinaryIO, offsets: list[int], xref_at: int, registry: Deferred) -> None:
    """Copy the objects, each deferred one with its stream written in; `offsets` becomes the
    objects' offsets in `out`."""
    old = list(offsets)
    order = sorted(range(len(old)), key=old.__getitem__)
    pdf.seek(0)
    _copy_bytes(pdf, out, old[order[0]] if order else xref_at)
    for k, i in enumerate(order):
        end = old[order[k + 1]] if k + 1 < len(order) else xref_at
        offsets[i] = out.tell()
        source = registry.sources.get(i + 1)
        if source is None:
            _copy_bytes(pdf, out, end - old[i])
        else:
            _write_object(pdf.read(end - old[i]), i + 1, source.resolved(), out)


def _write_object(obj: bytes, number: int, source: Source, out: BinaryIO) -> None:
    """One deferred object: its dictionary with the stream's true length, then the stream."""
    mark = b"stream\n" + token(number)
    at = obj.find(mark)
    if at < 0:
        raise OSError(f"object {number} has no placeholder stream")
    out.write(_LENGTH.sub(b"/Length %d" % source.length, obj[:at], count=1) + b"stream\n")
    source.write(out)
    out.write(obj[at + len(mark):])


def _copy_bytes(pdf: BinaryIO, out: BinaryIO, count: int) -> None:
    while count > 0:
        block = pdf.read(min(_BLOCK, count))
        if not block:
            raise OSError("the PDF ends early")
        out.write(block)
        count -= len(block)


def _write_xref(out: BinaryIO, offsets: list[int], trailer: bytes) -> None:
    at = out.tell()
    rows = [b"xref", b"0 %d" % (len(offsets) + 1), b"0000000000 65535 f "]
    rows += [b"%010d 00000 n " % offset for offset in offsets]
    out.write(b"\n".join(rows) + b"\n" + trailer + b"startxref\n%d\n%%%%EOF\n" % at)
