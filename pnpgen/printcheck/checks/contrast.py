"""`print-contrast`: text that does not stand out from what is drawn under it (fills,
shapes and images alike), by WCAG's contrast ratio."""

import math

import numpy as np

from ..faces import apply
from ..findings import Hit
from ..raster import hex_of, opacity_note, to255
from .size import name

ORDER = 20
DOC = ("text whose contrast ratio with what is drawn under it (images included) is below "
       "`contrast` (`contrast_large` for text of 18 pt, or 14 pt bold, and up)")
PIXELS = True

LARGE, LARGE_BOLD = 18.0, 14.0
"""WCAG's large text, pt: it reads at a lower contrast."""
STEP = 0.25
"""Distance between samples of a text's background, mm."""
CAPS = 0.72
"""Height of capitals, in em (DejaVu's is 0.73)."""


def inspect(face, limits, under):
    for text in face.texts:
        if text.letters is None:       # inline icons draw in their own colours
            continue
        large = text.size >= LARGE or (text.bold and text.size >= LARGE_BOLD)
        need = limits.contrast_large if large else limits.contrast
        if need <= 1:
            continue
        ink = to255(text.color)
        ratio, background = under.contrast(face, ink, (text.letters, text.baseline, text.em, text.matrix),
                                            lambda: samples(text), alpha=text.alpha)
        if ratio < need - 0.005:
            size = "large text" if large else "text"
            yield Hit("contrast", text.where, face, ratio,
                      f"{name(text)} in {hex_of(ink)}{opacity_note(text.alpha)} on {hex_of(background)} has contrast "
                      f"{ratio:.1f}:1",
                      f"below the {need:g}:1 {size} needs; darken one or lighten the other "
                      f"(print: {{{'contrast_large' if large else 'contrast'}: ...}} in game.yaml sets the limit)", need,
                      hex_of(ink))


def samples(text) -> np.ndarray:
    """Points over the parts of the line where its letters are (from the baseline up to the
    capitals' height), not over the inline icons between them, on the card: an (n, 2) array,
    row by row of each letter run."""
    y1 = text.baseline
    y0 = y1 - CAPS * text.em
    ny = max(2, min(8, math.ceil((y1 - y0) / STEP)))
    ys = (y0 + (y1 - y0) * (np.arange(ny) + 0.5) / ny)[:, None]
    out = []
    for x0, x1 in text.letters:
        nx = max(2, min(64, math.ceil((x1 - x0) / STEP)))
        xs = (x0 + (x1 - x0) * (np.arange(nx) + 0.5) / nx)[None, :]
        x, y = apply(text.matrix, xs, ys)       # (every point of the grid at once)
        out.append(np.stack([x.ravel(), y.ravel()], axis=1))
    return np.concatenate(out) if out else np.empty((0, 2))
