"""`print-bleed`: full-bleed art that nearly fits the face (drawn for another size): it stops
just short of a trim edge, so paper shows after the cut, or runs just past the bleed, where
the sheet clips it. The rule is pnpgen.layout.nearmiss's, which the build warns with too."""

from ...layout.nearmiss import NEAR, face_misses
from ..findings import Hit

ORDER = 55
DOC = (f"full-bleed art (a filled rect or an image covering most of the face) whose edge stops less than "
       f"{NEAR:g} mm short of the trim, with no art under it reaching the trim there, or runs less than "
       f"{NEAR:g} mm past the bleed")
PIXELS = False


def inspect(face, limits, under):
    width, height = face.size
    for where, miss in face_misses(face.drawn, width, height, face.bleed):
        yield Hit("bleed", where, face, miss.by, miss.what, miss.advice(width, height), NEAR, subject=miss.edge)
