"""Paragraphs that break their lines once per width: a book with contents is set twice (the
sketched pass finds the pages, the drawn pass prints them), and both ask every paragraph the
same widths, so the second pass takes the lines the first one broke."""

from __future__ import annotations

from reportlab.platypus import Paragraph

_NO_ROOM = (0, 0x7FFFFFFF)
"""What Paragraph.wrap answers for a width too narrow to set any line in (nothing is broken)."""


class WrapOnce(Paragraph):
    """A Paragraph whose `wrap` at the width it was last wrapped at gives back the lines it
    broke then (the other things a wrap sets are still as it left them: only a wrap sets
    them). A split or a draw forgets the lines: reportlab may change what they hold."""

    _kept = None    # (width, lines, height) of the last wrap, which nothing has changed since

    def wrap(self, availWidth, availHeight):
        kept = self._kept
        if kept is not None and kept[0] == availWidth:
            self.width, self.blPara, self.height = kept
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        if size != _NO_ROOM:
            self._kept = (self.width, self.blPara, self.height)
        return size

    def split(self, availWidth, availHeight):
        self._kept = None
        return super().split(availWidth, availHeight)

    def draw(self):
        self._kept = None
        super().draw()
