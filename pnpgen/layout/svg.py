"""SVG files made into reportlab drawings (svglib), so that an `image` or an icon drawn from
an .svg prints as vector paths rather than pixels.

An SVG is read safely before svglib sees it: at most MAX_BYTES, checked by defusedxml (no
entity declarations: no entity bomb, no external entity), then parsed by lxml without
network, DTD or entity expansion, at most MAX_ELEMENTS elements nested at most MAX_DEPTH
deep, and with no link to another file (only `#fragment` and embedded `data:` images). A file
broken or hostile in any of these ways is a LayoutError naming it. What svglib leaves out (a
filter, a mask, an element it does not know) comes back as a warning, not silent garbage.

`color` recolours a single-colour icon: a background square covering the whole viewBox (as
game-icons.net draws its black square) is dropped, and every remaining fill and stroke is
painted in the colour. A file checked before and unchanged since is not read again."""

from __future__ import annotations

import ast
import hashlib
import logging
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import Color

from .. import fonts
from ..errors import LayoutError

MAX_BYTES = 5_000_000
MAX_ELEMENTS = 20_000
"""svglib spends about 0.2 ms an element (so at most some 4 s on one file); a drawing with
more is better printed from a PNG."""
MAX_DEPTH = 64
MIN_PT, MAX_PT = 0.01, 1e7
"""The sizes an SVG may claim, points (about 0.004 mm to 3.5 km): past them its numbers lose
their meaning in a PDF."""
VIEWBOX_LIMIT = 1e9
"""The largest number a viewBox may hold; its width and height must be at least 1/VIEWBOX_LIMIT."""
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
EMBEDDED = re.compile(r"^data:image/(png|jpe?g);base64,", re.I)
"""The only kind of href besides '#fragment' that an SVG may hold: an embedded PNG or JPEG."""
QUIET = {"title", "desc", "metadata", "namedview", "script", "style"}
"""Elements svglib skips that draw nothing anyway (no warning for them)."""
LEFT_OUT_ATTRS = {"filter", "mask", "opacity"}
"""Attributes svglib passes over although they change what is drawn."""
BACKGROUND = re.compile(r"^M\s*0[\s,]+0\s*[hH]\s*([\d.]+)\s*[vV]\s*([\d.]+)\s*H\s*0\s*[zZ]$")
"""game-icons.net's background square: 'M0 0h512v512H0z'."""

FORM = "svg:"
"""The start of the name of an SVG's form (':' cannot occur in a template's name)."""
REPLAY = "svg\0"
"""The start of a `replay_key`."""

defused = DefusedXmlException = etree = Drawing = Group = svglib = None
"""The readers, imported with the first SVG a build reads (_import_readers): most builds read
none, and together they would add a tenth to pnpgen's start-up."""
_LOGGER = logging.getLogger("svglib.svglib")
_checked: dict[tuple, "SvgFile"] = {}
_drawings: dict[tuple, tuple[str, Drawing]] = {}
_KEEP = 1024


@dataclass(frozen=True)
class SvgFile:
    """An SVG as checked: its size (any unit: only its proportions matter) and what it noticed."""

    size: tuple[float, float]
    warnings: tuple[str, ...]


def is_svg(key: str) -> bool:
    """Whether an image key (a file's path) names an SVG."""
    return str(key).lower().endswith(".svg")


def _stamp(path: Path, src: str) -> tuple:
    try:
        info = os.stat(path)
    except OSError as exc:
        raise LayoutError(f"cannot read image '{src}': {exc.strerror or exc}") from None
    return (str(path), info.st_size, info.st_mtime_ns)


def check(path: Path, src: str) -> SvgFile:
    """The SVG at `path` (written `src` in the game) read, checked and converted once; a
    LayoutError saying what is wrong with it otherwise."""
    stamp = _stamp(path, src)
    found = _checked.get(stamp)
    if found is None:
        data = _read(path, src)
        picture, warnings = _convert(data, path, src, recolour=False)
        found = SvgFile((picture.width, picture.height), tuple(warnings))
        if len(_checked) >= _KEEP:
            _checked.clear()
        _checked[stamp] = found
        _keep_drawing(stamp, None, data, picture)    # (drawn as it is, it need not be read again)
    return found


def drawing(path: Path, color=None) -> tuple[str, Drawing]:
    """The reportlab drawing of a checked SVG, recoloured in `color` (a reportlab colour) when
    one is given, and the name of the form it is drawn in once per PDF: made of the file's
    bytes and the colour, so that the same drawing has the same name in every process."""
    stamp = _stamp(path, path.name)
    colour = _colour_values(color)
    found = _drawings.get((stamp, colour))
    if found is None:
        data = _read(path, path.name)
        picture, _ = _convert(data, path, path.name, recolour=color is not None)
        if color is not None:
            _paint(picture, color)
        found = _keep_drawing(stamp, colour, data, picture)
    return found


def _keep_drawing(stamp: tuple, colour: tuple | None, data: bytes, picture: Drawing) -> tuple[str, Drawing]:
    name = FORM + hashlib.sha256(data + repr(colour).encode()).hexdigest()[:24]
    if len(_drawings) >= _KEEP:
        _drawings.clear()
    found = _drawings[(stamp, colour)] = (name, picture)
    return found


def replay_key(src: str, color) -> str:
    """What a kept page records of an SVG it draws (beside the images it registers), for a later
    build to define its form before putting the page back: the file's path and the colour."""
    return REPLAY + repr(_colour_values(color)) + "\0" + src


def from_replay_key(key: str):
    """(path, colour or None) of a `replay_key`; None for a key that is not one."""
    if not key.startswith(REPLAY):
        return None
    values, src = key[len(REPLAY):].split("\0", 1)
    numbers = ast.literal_eval(values)
    return Path(src), (None if numbers is None else Color(*numbers))


def _colour_values(color) -> tuple | None:
    return None if color is None else tuple(round(float(v), 6) for v in color.rgba())


# --- reading ---------------------------------------------------------------------------------
def _import_readers() -> None:
    global defused, DefusedXmlException, etree, Drawing, Group, svglib
    if svglib is None:
        import defusedxml.ElementTree as defused
        from defusedxml import DefusedXmlException
        from lxml import etree
        from reportlab.graphics.shapes import Drawing, Group
        from svglib import svglib


def _convert(data: bytes, path: Path, src: str, recolour: bool) -> tuple[Drawing, list[str]]:
    _import_readers()
    root = _parse(data, src)
    if recolour:
        _drop_background(root)
    left_out: list[str] = []
    handler = _LeftOut(left_out)
    level, propagate = _LOGGER.level, _LOGGER.propagate
    _LOGGER.addHandler(handler)
    _LOGGER.setLevel(logging.DEBUG)        # svglib says what it skips only at debug level
    _LOGGER.propagate = False              # (and nothing of it reaches the terminal)
    try:
        renderer = svglib.SvgRenderer(str(path), font_map=_FONTS,
                                      external_reference_root=str(path.parent))
        result = renderer.render(root)
    except RecursionError:
        raise LayoutError(f"SVG '{src}' nests too deeply to draw; simplify it") from None
    except Exception as exc:   # svglib is not written for hostile input: whatever it raises is the file's fault
        raise LayoutError(f"cannot draw SVG '{src}' ({type(exc).__name__}: {exc}); "
                          "save it again as plain SVG") from None
    finally:
        _LOGGER.removeHandler(handler)
        _LOGGER.setLevel(level)
        _LOGGER.propagate = propagate
    _check_size(result, src)
    result.initialFontName = fonts.builtin("sans")   # not reportlab's Helvetica, never embedded
    return result, _warnings(src, root, left_out)


def _read(path: Path, src: str) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise LayoutError(f"cannot read image '{src}': {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise LayoutError(f"SVG '{src}' is larger than {MAX_BYTES // 1_000_000} MB; simplify it or export "
                          "it without embedded pictures")
    return data


def _parse(data: bytes, src: str):
    """The SVG's root element, parsed safely (see the module docstring)."""
    try:
        defused.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise LayoutError(f"SVG '{src}' declares XML entities, which pnpgen does not expand (they can "
                          "hide an entity bomb or read other files); save it again as plain SVG") from None
    except defused.ParseError as exc:
        raise LayoutError(f"SVG '{src}' is not well-formed XML (line {exc.position[0]}, column "
                          f"{exc.position[1] + 1}); the file is damaged or not an SVG") from None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        if "depth" in str(exc):   # (lxml's own limit, when deeper than ours by far)
            raise LayoutError(f"SVG '{src}' nests elements more than {MAX_DEPTH} deep; simplify it") from None
        raise LayoutError(f"SVG '{src}' is not well-formed XML ({exc})") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise LayoutError(f"'{src}' is not an SVG (its root element is <{etree.QName(root).localname}>, "
                          f"not <svg> in the SVG namespace)")
    _check_tree(root, src)
    _check_uses(root, src)
    _check_view_box(root, src)
    return root


def _check_uses(root, src: str) -> None:
    """Refuse an SVG whose `<use>` copies would draw more than MAX_ELEMENTS elements in all
    (a thousand uses of a group of a thousand shapes: a short file, a long wait) or loop."""
    targets = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    weights: dict = {}
    busy: set = set()

    def weight(el, depth: int) -> int:
        if el in weights:
            return weights[el]
        if el in busy or depth > 4 * MAX_DEPTH:
            raise LayoutError(f"SVG '{src}' has <use> elements that copy each other in a loop or too deeply "
                              f"(line {el.sourceline}); simplify it")
        busy.add(el)
        total = 1 + sum(weight(child, depth + 1) for child in el if isinstance(child.tag, str))
        href = el.get(XLINK_HREF) or el.get("href") or ""
        if etree.QName(el).localname == "use" and href.startswith("#") and href[1:] in targets:
            total += weight(targets[href[1:]], depth + 1)
        busy.discard(el)
        if total > MAX_ELEMENTS:
            raise LayoutError(f"SVG '{src}' draws more than {MAX_ELEMENTS:,} elements once its <use> copies "
                              "are made; simplify it or export it as PNG")
        weights[el] = total
        return total

    weight(root, 0)


def _check_view_box(root, src: str) -> None:
    text = root.get("viewBox")
    if text is None:
        return
    try:
        numbers = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        numbers = []
    if (len(numbers) != 4 or not all(math.isfinite(v) and abs(v) <= VIEWBOX_LIMIT for v in numbers)
            or min(numbers[2:]) < 1 / VIEWBOX_LIMIT):
        raise LayoutError(f"SVG '{src}' has a viewBox svglib cannot use ('{text[:60]}'); it should be four "
                          "numbers, x y width height, the width and height above 0")


def _check_tree(root, src: str) -> None:
    count = 0
    for element in root.iter():
        count += 1
        if count > MAX_ELEMENTS:
            raise LayoutError(f"SVG '{src}' has more than {MAX_ELEMENTS:,} elements; simplify it or export it as PNG")
        depth = sum(1 for _ in element.iterancestors())
        if depth > MAX_DEPTH:
            raise LayoutError(f"SVG '{src}' nests elements more than {MAX_DEPTH} deep (line "
                              f"{element.sourceline}); simplify it")
        href = element.get(XLINK_HREF) or element.get("href")
        if href is not None and href.startswith("data:") and not EMBEDDED.match(href):
            raise LayoutError(f"SVG '{src}' embeds data other than a PNG or JPEG picture ('{href[:40]}', line "
                              f"{element.sourceline}); pnpgen draws only embedded PNG and JPEG")
        if href is not None and not href.startswith("#") and not EMBEDDED.match(href):
            raise LayoutError(f"SVG '{src}' links to another file ('{href[:80]}', line {element.sourceline}); "
                              "pnpgen draws only what the SVG holds: embed it, or copy its shapes in")


def _check_size(result: Drawing | None, src: str) -> None:
    if result is None:
        raise LayoutError(f"cannot draw SVG '{src}'; save it again as plain SVG")
    w, h = result.width, result.height
    if not (math.isfinite(w) and math.isfinite(h) and w > 0 and h > 0):
        raise LayoutError(f"SVG '{src}' has no usable size ({w:g} x {h:g}); give its <svg> a viewBox")
    if not (MIN_PT <= min(w, h) and max(w, h) <= MAX_PT):
        raise LayoutError(f"SVG '{src}' claims a size of {w:g} x {h:g} pt; give its <svg> a width, height "
                          "and viewBox in ordinary units (px, mm)")
    if max(w / h, h / w) > 1000:
        raise LayoutError(f"SVG '{src}' is {w:g} x {h:g}: more than 1000 times wider than high or the "
                          "other way round; check its viewBox")


def _drop_background(root) -> None:
    """Take out a background square covering the whole viewBox (game-icons.net's black square),
    so that recolouring leaves the icon on the card rather than a square of colour."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    first = next((el for el in root if isinstance(el.tag, str)), None)
    if len(box) != 4 or first is None or etree.QName(first).localname != "path":
        return
    match = BACKGROUND.match((first.get("d") or "").strip())
    try:
        covers = (match and float(box[0]) == float(box[1]) == 0
                  and (float(match[1]), float(match[2])) == (float(box[2]), float(box[3])))
    except ValueError:
        return
    if covers:
        root.remove(first)


def _paint(node, color) -> None:
    """Every fill and stroke under `node` painted in `color`."""
    for child in getattr(node, "contents", ()):
        if getattr(child, "fillColor", None) is not None:
            child.fillColor = color
        if getattr(child, "strokeColor", None) is not None:
            child.strokeColor = color
        if isinstance(child, Group):
            _paint(child, color)


# --- what svglib leaves out --------------------------------------------------------------------
class _LeftOut(logging.Handler):
    """Collects, from svglib's log, what it could not draw."""

    def __init__(self, out: list[str]):
        super().__init__(logging.DEBUG)
        self.out = out

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "Ignoring node: %s" and record.args:
            name = str(record.args[0])
            if name not in QUIET:
                self.out.append(f"<{name}>")
        elif record.msg == "Unused attrs: %s %s" and len(record.args) == 2:
            self.out.extend(f'{attr}="..."' for attr in record.args[1] if attr in LEFT_OUT_ATTRS)
        elif record.levelno >= logging.WARNING:
            self.out.append(record.getMessage())


def _warnings(src: str, root, left_out: list[str]) -> list[str]:
    out = []
    features = sorted(set(left_out))
    if features:
        out.append(f"SVG '{src}': cannot draw {', '.join(features)}; left out (flatten it in your editor, "
                   "e.g. Inkscape's Path > Object to Path, or export that part as PNG)")
    names = {etree.QName(el).localname for el in root.iter() if isinstance(el.tag, str)}
    if "image" in names:
        out.append(f"SVG '{src}': the picture it embeds prints as pixels, without its transparency; "
                   "draw that part as an image element of its own, or trace it")
    if "text" in names:
        out.append(f"SVG '{src}': its text is set in pnpgen's sans, not the font the SVG names; convert the "
                   "text to paths to keep its look")
    return out


class _BuiltinFonts:
    """svglib's font lookup, answered without asking the system (its own asks fc-match, which
    differs from machine to machine): every font is pnpgen's sans."""

    def find_font(self, font_name, weight="normal", style="normal"):
        return fonts.builtin("sans"), False


_FONTS = _BuiltinFonts()
