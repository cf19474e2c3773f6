"""A text's runs as the PDF operators a reportlab text object writes for them, worked out once
per PDF for each text and card height and written again as they are: a text every card
shows is laid out once (one object), so its operators are the same bytes on every card.
Only reportlab's public calls: a text object writes the runs, the canvas takes them as a
literal (what `drawText` would append)."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from .. import ops

MM = 72 / 25.4
MEMO = 2048
"""How many texts' runs a canvas keeps (with the texts themselves, so an id stays their own)."""


def write_runs(t, op: ops.Text, card_h: float) -> list:
    """Set the runs of `op` into the text object `t`; return its inline icons as (x, y, run),
    points, to be placed after the text."""
    size = op.size
    font, icons = None, []
    for lx, baseline, runs in op.lines:
        y = (card_h - baseline) * MM
        for run in runs:
            x = (lx + run.x) * MM
            if run.icon:
                icons.append((x, y, run))
                continue
            if run.font != font:
                font = run.font
                t.setFont(font, size)
            t.setTextOrigin(x, y)
            t.textOut(run.text)
    return icons


class TextRuns:
    """The runs of the texts drawn on one canvas, as its text objects write them. A run's
    operators name its characters by the codes the PDF's font subsets give them, which never
    change once given, so operators worked out once stay right for the whole PDF. A text is
    set apart when it is met a second time (most are met once: a card's title)."""

    def __init__(self, c: Canvas):
        self.c = c
        self._known: dict[tuple, tuple] = {}    # (id of the text, card height) -> (text, runs or None, icons)
        self._start: str | None = ""            # what a text object writes before its runs, once known

    def draw(self, t, op: ops.Text, card_h: float) -> list:
        """Draw the text object `t` (begun, its colour set) with the runs of `op` in it; return
        the inline icons to place after it (see `write_runs`)."""
        key = (id(op), card_h)
        entry = self._known.get(key)
        if entry is None or entry[0] is not op:      # met first: `t` writes its runs
            icons = write_runs(t, op, card_h)
            self.c.drawText(t)
            self._keep(key, (op, None, icons))
            return icons
        runs = entry[1] if entry[1] is not None else self._set_apart(key, op, card_h)
        if runs is None:
            write_runs(t, op, card_h)
            self.c.drawText(t)
        elif runs:
            head = t.getCode()      # 'BT <origin> <colour> ET'
            self.c.addLiteral(f"{head[:-3]} {runs} ET")
        else:
            self.c.drawText(t)
        return entry[2]

    def _set_apart(self, key: tuple, op: ops.Text, card_h: float) -> str | None:
        """The operators of the runs of a text met again (empty when it has only icons), as a
        text object of its own writes them, kept; None when a text object's code is not of the
        shape this expects (then each text object writes them)."""
        if self._start == "":
            empty = self.c.beginText().getCode()     # 'BT <origin> ET'
            self._start = empty[:-2] if empty.endswith(" ET") else None
        if self._start is None:
            return None
        t = self.c.beginText()
        icons = write_runs(t, op, card_h)
        code = t.getCode()
        if not (code.startswith(self._start) and code.endswith(" ET")):
            self._start = None
            return None
        runs = code[len(self._start):-3] if len(icons) < sum(len(runs) for _, _, runs in op.lines) else ""
        self._known[key] = (op, runs, icons)
        return runs

    def _keep(self, key: tuple, entry: tuple) -> None:
        """Remember a text met (MEMO of them at most: then the ones met since)."""
        if len(self._known) >= MEMO:
            self._known.clear()
        self._known[key] = entry
