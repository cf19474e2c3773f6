"""`print-seams`: a seam of a tiled board that goes through text or a region the board keeps
whole, where no place the paper allows could go round it."""

from ..findings import Hit

ORDER = 50
DOC = ("a seam between the pages of a tiled board (on the game's paper) that goes through a line "
       "of text or a `keep_whole:` region of the board, where the seams could not be moved round it")
PIXELS = False


def inspect(face, limits, under):
    for keep, axis, at in face.seams:
        across = "vertical" if axis == "x" else "horizontal"
        yield Hit("seams", keep.where, face, 0.0, f"the {across} seam at {at:.1f} mm goes through {keep.what}",
                  "where the pages are cut and glued; move it away from the seam, make the board's "
                  "`overlap:` larger (the seams may then move further), or print it as a --poster", 0.0,
                  keep.what)
