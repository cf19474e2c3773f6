"""Print checks (`pnpgen check`): each face read as a player holding the printed sheet sees it.

Text too small, text and thin lines that do not stand out from what is under them, text in
the cut zone, full-bleed art that nearly fits; checks/ holds one module per kind of check."""

from .findings import Finding
from .runner import check_faces

__all__ = ["Finding", "check_faces"]
