"""Print checks (`pnpgen check`): each face read as a player holding the printed sheet sees it.

Text too small, text and thin lines that do not stand out from what is under them, text in
the cut zone, full-bleed art that nearly fits; checks/ holds one module per kind of check."""

from .findings import Finding

__all__ = ["Finding", "check_faces"]


def __getattr__(name: str):
    """`check_faces`, imported when first asked for: the checks bring numpy and colorspacious,
    which a build that tiles a board (printcheck.boards) does not need."""
    if name == "check_faces":
        from .runner import check_faces
        return check_faces
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
