"""The game's named things, resolved once per build: colours, fonts (with the fallbacks
tried for characters a font lacks), images (checked, and converted where reportlab would
draw them wrongly) and the shape of each icon. Elements reach these through their
Context; nothing here depends on a card."""

from __future__ import annotations

from pathlib import Path

from PIL import Image as PILImage
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics

from .. import fonts
from . import images, printres, svg
from .imagestore import ImageStore
from ..errors import InputError, LayoutError, Notice, did_you_mean
from ..game.loader import GameSource, confined
from ..sources.confine import near_miss
from ..game.models import to_color

CONVERTED = "converted:"
"""The start of the key of an image converted in memory; the rest is its path in the game folder."""
PRINTED = "print:"
"""The start of the key of an image resampled to print resolution: `print:<w>x<h>:<its path in
the game folder>` (printres.py)."""
DRAWN_AS_IS = {"PNG": {"1", "L", "LA", "P", "RGB", "RGBA"}, "JPEG": {"L", "RGB"}}
"""Image modes reportlab draws faithfully straight from the file. Anything else (16-bit
grey, which it would clip to white; CMYK, whose inversion it guesses; premultiplied or
palette-with-alpha modes) is converted with Pillow first."""


class Resources:
    def __init__(self, game: GameSource, image_settings: printres.ImageSettings | None = None):
        self.game = game
        self._colors: dict = {}
        self._fonts: dict[str, str] = {}
        self._coverage: dict[str, frozenset] = {}
        self._images: dict = {}
        self._sizes: dict = {}
        self.image_settings = image_settings or settings_of(game)
        """When art is resampled to print resolution."""
        self.converted = Converted(game.root, self.image_settings)
        """Images drawn from memory after conversion or resampling, by the key their ops carry."""
        self.icons: dict[str, float] = {}
        """Icon name -> aspect ratio (w / h); text draws an icon at the text's size."""
        self._icon_heights: dict[str, float] = {}
        self.icon_colors: dict[str, object] = {}
        """Icon name -> the colour an SVG icon is recoloured in (only icons that have one)."""
        self.notices: list[Notice] = []
        """What drawing the game's icons leaves out (an SVG feature svglib cannot draw)."""
        for name, icon in sorted(game.game.icons.items()):
            if icon.image is not None:
                try:
                    self._image_icon(name, icon)
                except LayoutError as exc:
                    raise InputError.at(game.doc.path, game.doc.line(("icons", name)), f"icons.{name}: {exc}") from None
            else:
                self.icons[name] = icon.size[0] / icon.size[1]
                self._icon_heights[name] = icon.size[1]
        for name in sorted(game.game.fonts):  # every declared font is checked, used or not
            try:
                self.font(name)
            except LayoutError as exc:
                raise InputError.at(game.doc.path, game.doc.line(("fonts", name)), f"fonts.{name}: {exc}") from None
        self.fallbacks: list[str] = []
        """Font keys tried, in order, for a character the text's own font lacks."""
        for i, name in enumerate(game.game.fallback_fonts):
            try:
                self.fallbacks.append(self.font(name))
            except LayoutError as exc:
                raise InputError.at(game.doc.path, game.doc.line(("fallback_fonts", i)), f"fallback_fonts: {exc}") from None

    def _image_icon(self, name: str, icon) -> None:
        key, (pw, ph) = self.image(icon.image)
        self.icons[name] = pw / ph
        self._icon_heights[name] = 10.0
        if icon.color is not None:
            if not svg.is_svg(key):
                raise LayoutError(f"color: recolours an SVG icon; '{icon.image}' is a PNG or JPEG")
            self.icon_colors[name] = self.color(icon.color)
        if svg.is_svg(key):
            line = self.game.doc.line(("icons", name))
            self.notices += [Notice(self.game.doc.path, line, f"icons.{name}: {w}") for w in self.svg_warnings(key)]

    def svg_warnings(self, key: str) -> tuple[str, ...]:
        """What drawing the SVG with this key (from `image`) leaves out, as warnings."""
        return svg.check(Path(key), Path(key).name).warnings

    def icon_height(self, name: str) -> float:
        """Height of the frame an icon's form is drawn in, mm (10 for an image icon)."""
        return self._icon_heights[name]

    # --- colours --------------------------------------------------------------------------
    def color(self, value: str):
        """A reportlab colour (None for no paint) from '#rrggbb', a name or the game's palette."""
        try:
            return self._colors[value]
        except KeyError:
            pass
        name = value.strip()
        if name.lower() in ("", "none", "transparent"):
            result = None
        else:
            palette = self.game.game.colors
            spec = palette.get(name, name)
            try:
                result = to_color(spec)
            except ValueError as exc:
                if spec.startswith("#"):
                    raise LayoutError(str(exc)) from None
                raise LayoutError(f"unknown colour '{value}'{did_you_mean(name, palette)}; "
                                  "use '#rrggbb', a colour name or one of the game's colors") from None
        self._colors[value] = result
        return result

    # --- fonts ----------------------------------------------------------------------------
    def font(self, name: str) -> str:
        """The registered key of a font named in a template (built in, or the game's)."""
        key = self._fonts.get(name)
        if key is None:
            if name in self.game.game.fonts:
                try:
                    path = confined(self.game.root, self.game.game.fonts[name], fonts.MAX_BYTES)
                except ValueError as exc:
                    raise LayoutError(str(exc)) from None
                if not path.is_file():
                    rel = self.game.game.fonts[name]
                    raise LayoutError(f"font file '{rel}' not found{near_miss(self.game.root, rel)}")
            elif name in fonts.BUILTIN:
                path = fonts.BUILTIN[name]
            else:
                raise LayoutError(f"unknown font '{name}'{did_you_mean(name, set(fonts.BUILTIN) | set(self.game.game.fonts))}")
            key = self._fonts[name] = fonts.ensure(name, path)
        return key

    def font_name(self, key: str) -> str:
        """The name a template uses for a registered font key."""
        return next((n for n, k in self._fonts.items() if k == key), key)

    def bold_of(self, key: str) -> str:
        """The bold face that `**bold**` switches to from the font `key`."""
        name = self.font_name(key)
        for cand in (name + "-bold", name.replace("-italic", "") + "-bold"):
            if cand in fonts.BUILTIN or cand in self.game.game.fonts:
                return self.font(cand)
        return self.font("sans-bold")

    def covers(self, key: str, char: str) -> bool:
        """Whether the font has a glyph for `char` (else it would print an empty box)."""
        cover = self._coverage.get(key)
        if cover is None:
            cover = self._coverage[key] = frozenset(pdfmetrics.getFont(key).face.charToGlyph)
        return ord(char) in cover

    def font_for(self, key: str, char: str) -> str | None:
        """`key` if it has `char`, else the first fallback font that has it, else None."""
        if self.covers(key, char):
            return key
        return next((f for f in self.fallbacks if self.covers(f, char)), None)

    # --- images ---------------------------------------------------------------------------
    def image(self, src: str):
        """(key, (w, h) px) of an image in the game folder, checked once. The key is the
        file's path when reportlab can draw the file as it is, else a key into `converted`.
        An SVG's key is its path, its size that of its drawing (see svg.py)."""
        if src in self._images:
            return self._images[src]
        key, size = self.image_size(src)
        if not svg.is_svg(src):
            images.check(self._path(src), src)
        self._images[src] = (key, size)
        return self._images[src]

    def image_size(self, src: str):
        """(key, (w, h) px) of an image in the game folder, from its header: to be `place`d."""
        found = self._images.get(src) or self._sizes.get(src)
        if found is None:
            path = self._path(src)
            if svg.is_svg(src):
                found = (str(path), svg.check(path, src).size)
            else:
                fmt, mode, size = images.probe(path, src)
                found = (str(path) if mode in DRAWN_AS_IS[fmt] else CONVERTED + src, size)
            self._sizes[src] = found
        return found

    def place(self, src: str, w: float, h: float) -> str:
        """The key an op draws the image `src` with when it is printed over w x h mm: the
        image as `image` gives it (checked), or resampled to print resolution
        (printres.py) when it is finer than the game's limit there."""
        key, size = self.image_size(src)
        if svg.is_svg(src):         # vectors: drawn as they are at any size
            return self.image(src)[0]
        target = printres.target_size(size, (w, h), self.image_settings)
        if target is None:
            return self.image(src)[0]
        printed = f"{PRINTED}{target[0]}x{target[1]}:{src}"
        self.converted.get(printed)
        return printed

    def _path(self, src: str) -> Path:
        try:
            path = confined(self.game.root, src, svg.MAX_BYTES if svg.is_svg(src) else images.MAX_BYTES)
        except ValueError as exc:
            raise LayoutError(str(exc)) from None
        if not path.is_file():
            raise LayoutError(f"image '{src}' not found in {self.game.root.name}/{near_miss(self.game.root, src)}")
        return path


def settings_of(game: GameSource) -> printres.ImageSettings:
    """game.yaml's `images` settings."""
    spec = game.game.images
    return printres.ImageSettings(spec.max_ppi, spec.ppi, not spec.resample)


def source_of(key: str) -> tuple[str, str] | None:
    """(path in the game folder, what was done to it) of a converted or resampled image's key;
    None for a key that is a file's path."""
    if key.startswith(CONVERTED):
        return key[len(CONVERTED):], ""
    if key.startswith(PRINTED):
        size, rel = key[len(PRINTED):].split(":", 1)
        return rel, size
    return None


class Converted(dict):
    """Images converted (CONVERTED + the image's path in the game folder) or resampled
    (PRINTED...) in memory, by key. A key not made here yet (a worker process's layout met the
    image) is made when asked for: a resampled image is taken from the `store` when it holds
    it, and put there once made."""

    def __init__(self, root: Path, settings: printres.ImageSettings | None = None):
        super().__init__()
        self.root = root
        self.settings = settings or printres.ImageSettings()
        self.store = ImageStore()

    @property
    def keeps_originals(self) -> bool:
        """Whether files are drawn as they are, however fine (--keep-images)."""
        return self.settings.keep

    def get(self, key, default=None):
        if key not in self and isinstance(key, str):
            if key.startswith(CONVERTED):
                with PILImage.open(confined(self.root, key[len(CONVERTED):])) as im:
                    self[key] = ImageReader(_drawable(im))
            elif key.startswith(PRINTED):
                self[key] = self._printed(key)
        return super().get(key, default)

    def _printed(self, key: str) -> printres.PrintImage | printres.StoredImage:
        path, rel, target = self._made_of(key)
        name = self.store.name(path, target, self.settings)

        def make() -> printres.PrintImage:
            with images.load(path, rel, target, _resamplable) as source:
                return printres.resample(source, target, key)

        return make() if name is None else self.store.made(name, key, make)

    def _made_of(self, key: str) -> tuple[Path, str, tuple[int, int]]:
        """(file, its path in the game folder, pixel size) of a resampled image's key."""
        rel, size = source_of(key)
        target = tuple(int(n) for n in size.split("x"))
        try:
            path = confined(self.root, rel, images.MAX_BYTES)
        except ValueError as exc:
            raise LayoutError(str(exc)) from None
        return path, rel, target

    def entry_name(self, key: str) -> str | None:
        """The image store's name for a resampled image's key; None for another key, or
        when its file cannot be read."""
        if not (isinstance(key, str) and key.startswith(PRINTED)):
            return None
        try:
            path, _rel, target = self._made_of(key)
        except (LayoutError, ValueError):
            return None
        return self.store.name(path, target, self.settings)


def _resamplable(im: PILImage.Image) -> PILImage.Image:
    """The image in a mode printres resamples (L, LA, RGB or RGBA), not copied if it is one."""
    if im.mode in ("L", "LA", "RGB", "RGBA"):
        return im
    return im.convert("L") if im.mode == "1" else _drawable(im)


def _drawable(im: PILImage.Image) -> PILImage.Image:
    """The image in a mode reportlab draws faithfully (L, LA, RGB or RGBA)."""
    mode = im.mode
    if mode.startswith("I") or mode == "F":
        # 16/32-bit grey: scale to 8 bits instead of letting every value clip to white
        wide = im.convert("F") if mode == "F" else im.convert("I")
        lo, hi = wide.getextrema()
        scale = 255 / 65535 if hi > 255 else (255.0 if mode == "F" and hi <= 1.0 else 1.0)
        return wide.point(lambda v: v * scale).convert("L")
    if mode in ("LA", "La"):
        return im.convert("LA")
    if "A" in mode or "a" in mode or (mode == "P" and "transparency" in im.info):
        return im.convert("RGBA")
    if mode in ("L", "RGB"):
        return im.copy()
    return im.convert("RGB")  # CMYK, YCbCr, LAB, HSV, RGBX, 1, P
