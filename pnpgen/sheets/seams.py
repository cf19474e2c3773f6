"""Where the seams of a tiled board fall. Along each axis the cuts may move within what the
paper allows; they are placed to cross as few of the boxes a board keeps whole (its text, its
named regions) as they can, and otherwise as evenly as the paper allows. Pure geometry, mm."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

STEP = 0.5
"""The grid, mm, on which a cut may move from its evenly spaced place."""
PAD = 1.0
"""A cut keeps this far from a box it avoids, mm."""
NUDGE = 1e-4
"""The cost of a millimetre away from the even place: far less than crossing any box."""


@dataclass(frozen=True)
class Keep:
    """A box a seam should not cross, board mm (x0, y0, x1, y1; y down), what it is (for a
    message) and how much crossing it costs (a named region more than a line of text)."""

    box: tuple
    what: str
    weight: float = 1.0
    where: object = None      # the template line that drew it, when it is text


def even_cuts(lo: float, length: float, window: float, overlap: float, count: int) -> list[float]:
    """The cuts of `count` tiles laid evenly over content [lo, lo + length]: each tile `window`
    long, neighbours overlapping by `overlap`, cut along the middle of the overlap."""
    span = count * window - (count - 1) * overlap
    first = lo - (span - length) / 2
    return [first + k * (window - overlap) + overlap / 2 for k in range(1, count)]


def place_cuts(lo: float, length: float, window: float, overlap: float, count: int,
               spans: list[tuple[float, float, float]]) -> list[float]:
    """The `count - 1` cuts of the content [lo, lo + length] crossing the least weight of
    `spans` ((start, end, weight) on this axis), nearest the even cuts among equals. A tile
    keeps `overlap / 2` before its cut (where it is cut off) and reaches `overlap / 2` past the
    next one (under its neighbour), so neighbouring cuts are `overlap` to `window - overlap` apart."""
    even = even_cuts(lo, length, window, overlap, count)
    if not even or not spans:
        return even
    first_max, last_min = lo + window - overlap / 2, lo + length - window + overlap / 2
    reach = int((window - overlap) / STEP)
    candidates = []
    for k, place in enumerate(even):
        row = [place + j * STEP for j in range(-reach, reach + 1)]
        row = [p for p in row if lo + overlap <= p <= lo + length - overlap]
        if k == 0:
            row = [p for p in row if p <= first_max + 1e-9]
        if k == len(even) - 1:
            row = [p for p in row if p >= last_min - 1e-9]
        candidates.append(row or [place])
    return _cheapest(candidates, even, spans, overlap, window - overlap)


def _costs(row: list[float], place: float, spans) -> list[float]:
    """Each candidate's cost: the weight of the spans it goes through (a sweep over the sorted
    span ends), plus its nudge away from the even place."""
    starts = sorted((a - PAD, w) for a, b, w in spans)
    ends = sorted((b + PAD, w) for a, b, w in spans)
    out, weight, i, j = [], 0.0, 0, 0
    for p in row:
        while i < len(starts) and starts[i][0] < p:
            weight += starts[i][1]
            i += 1
        while j < len(ends) and ends[j][0] <= p:
            weight -= ends[j][1]
            j += 1
        out.append(max(weight, 0.0) + NUDGE * abs(p - place))
    return out


def _cheapest(candidates: list[list[float]], even: list[float], spans, closest: float, farthest: float) -> list[float]:
    """The cheapest sequence of one candidate a cut, neighbours `closest`..`farthest` apart
    (a dynamic programme with a sliding minimum over the previous cut's candidates)."""
    best = _costs(candidates[0], even[0], spans)
    back: list[list[int]] = []
    for k in range(1, len(candidates)):
        prev, row, choice = candidates[k - 1], candidates[k], []
        own = _costs(row, even[k], spans)
        costs, window, hi_i = [], deque(), 0
        for p, cost in zip(row, own):
            while hi_i < len(prev) and prev[hi_i] <= p - closest + 1e-9:
                while window and best[window[-1]] >= best[hi_i]:
                    window.pop()
                window.append(hi_i)
                hi_i += 1
            while window and prev[window[0]] < p - farthest - 1e-9:
                window.popleft()
            before = window[0] if window else -1
            costs.append(best[before] + cost if before >= 0 else float("inf"))
            choice.append(before)
        best = costs
        back.append(choice)
    if min(best) == float("inf"):       # no way round: the even cuts
        return even
    i = min(range(len(best)), key=best.__getitem__)
    out = [candidates[-1][i]]
    for k in range(len(back) - 1, -1, -1):
        i = back[k][i]
        out.append(candidates[k][i])
    return out[::-1]


def crossed(keeps: list[Keep], cuts_x: list[float], cuts_y: list[float]) -> list[tuple[Keep, str, float]]:
    """Each kept box a cut still goes through: (keep, 'x' or 'y', the cut's board mm)."""
    out = []
    for keep in keeps:
        x0, y0, x1, y1 = keep.box
        out += [(keep, "x", x) for x in cuts_x if x0 < x < x1]
        out += [(keep, "y", y) for y in cuts_y if y0 < y < y1]
    return out
