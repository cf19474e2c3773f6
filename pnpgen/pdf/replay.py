"""Pages kept by the build cache, as the PDF holds them: what a drawn page is made of, so
that a later build can put it back into a new PDF unchanged."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Entry:
    """A drawn page as the PDF keeps it."""

    content: bytes           # the Flate-compressed content stream
    forms: list              # XObject names the page uses, in order
    images: list             # image sources the page draws, in order (replayed to register them)
    gstates: list            # transparency states [(key, value), name]
