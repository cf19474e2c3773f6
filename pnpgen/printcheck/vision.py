"""Colours as players who see them differently see them: simulated protanopia, deuteranopia
and tritanopia (colorspacious's model of full colour-vision deficiency) and a greyscale print,
each placed in CAM02-UCS, where the distance between two colours is how different they look."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from colorspacious import cspace_convert

VIEWS = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")
"""The ways of seeing a colour cue must survive."""
SEEN = {"normal": "even to normal colour vision", "protanopia": "with protanopia",
        "deuteranopia": "with deuteranopia", "tritanopia": "with tritanopia", "greyscale": "printed in greyscale"}
"""Each view in words: 'look alike with deuteranopia'."""
_DEFICIENCY = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}


@lru_cache(maxsize=8192)
def seen(color: tuple, view: str) -> tuple:
    """Where an (r, g, b) colour, channels 0..1, lands in CAM02-UCS as `view` sees it
    ('normal' for normal colour vision)."""
    rgb = np.array(color, dtype=float)
    if view == "greyscale":
        lightness = cspace_convert(rgb, "sRGB1", "CIELab")[0]
        rgb = cspace_convert(np.array([lightness, 0.0, 0.0]), "CIELab", "sRGB1")
    elif view != "normal":
        rgb = cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": _DEFICIENCY[view], "severity": 100}, "sRGB1")
    return tuple(float(v) for v in cspace_convert(np.clip(rgb, 0, 1), "sRGB1", "CAM02-UCS"))


def distance(a: tuple, b: tuple, view: str = "normal") -> float:
    """How different two colours (r, g, b in 0..1) look in `view`: CAM02-UCS distance, about 1
    just noticeable, 100 from black to white."""
    return math.dist(seen(a, view), seen(b, view))
