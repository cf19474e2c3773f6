"""What the print checks found on a face, remembered for the process under a digest of all they
read, so a preview's save or a check run again inspects only the faces that changed.

The digest takes in the face's size, shape, bleed, cut outline, seams, where it prints, the
template file, each element's template line with a digest of what it draws (fonts and images
by the bytes of their files: layout.fingerprint), and the game's print limits. The checks that
compare faces with each other (ACROSS) are not remembered: they run on every face each time."""

from __future__ import annotations

import hashlib

from ..layout.fingerprint import Fingerprints
from .faces import Face

MAX_FACES = 20_000
"""Faces remembered; when reached, all are forgotten at once (memory stays flat)."""

FOUND: dict[str, dict[str, tuple]] = {}
"""Digest of a face -> check name -> what it found there: (check, where, value, what, advice, limit,
subject) of each hit, in the order found (a check that found nothing is not named)."""


class Remembered:
    """The faces of one check run, each with its digest, looked up in FOUND."""

    def __init__(self, forms: dict, root, limits):
        self.prints = Fingerprints(forms, root)
        self.limits = repr(limits).encode()

    def key(self, face: Face) -> str:
        """The digest of everything a check reads of `face` (but who it is: the card's code and
        entry, which only label what is found)."""
        h = hashlib.sha256(self.limits)
        h.update(repr((face.game, face.deck, face.side, face.size, face.shape, face.bleed, face.outline,
                       face.seams, face.placements, face.template)).encode())
        for where, body in face.drawn:
            h.update(repr(where).encode())
            h.update(self.prints.face(body).encode())
        return h.hexdigest()

    def found(self, key: str) -> dict[str, tuple] | None:
        """What was found on the face of this digest before, or None."""
        return FOUND.get(key)

    def keep(self, key: str, hits: dict[str, tuple]) -> None:
        if len(FOUND) >= MAX_FACES:
            FOUND.clear()
        FOUND[key] = hits
