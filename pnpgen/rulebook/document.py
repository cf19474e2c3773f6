"""Page layout of a rulebook: a title page, the contents, then the rules in one or two
columns with numbered pages. Pages are sized in mm and become points here; the contents and
the PDF outline are filled in from the headings by reportlab's multi-pass build, whose first
pass over a book with contents only places the flowables (SketchFrame): its pages are never kept."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import KeepInFrame
from reportlab.platypus import BaseDocTemplate, Frame, NextPageTemplate, PageBreak, PageTemplate, Paragraph, Spacer
from reportlab.platypus.tableofcontents import TableOfContents
from xml.sax.saxutils import escape

from ..pdf.canvas import MM
from ..errors import InputError, Notice
from .facts import RefError
from .figures import Components
from .icons import IconCanvas
from .markdown import Heading, Story
from .source import Source
from .styles import Styles

TWO_COLUMNS_FROM = 180.0   # mm of page width from which the rules are set in two columns
GUTTER = 7.0               # mm between columns
COVER_CARDS = 3            # cards shown on the title page when the front matter names none


@dataclass(frozen=True)
class PageSpec:
    """A rulebook page: size and margins in mm, and how many columns the rules take."""

    width: float
    height: float
    margin: float
    columns: int

    @classmethod
    def for_paper(cls, size: tuple[float, float]) -> "PageSpec":
        w, h = size
        if w >= TWO_COLUMNS_FROM:
            return cls(w, h, 16.0, 2)
        return cls(w, h, 13.0, 1)

    @property
    def column_width(self) -> float:
        return (self.width - 2 * self.margin - GUTTER * (self.columns - 1)) / self.columns

    @property
    def body_height(self) -> float:
        return self.height - 2 * self.margin - 6.0   # room for the page number


class SketchFrame(Frame):
    """A frame that, while `sketching`, places each flowable where it goes without drawing it."""

    sketching = False

    def add(self, flowable, canv, trySplit=0):
        if not self.sketching:
            return super().add(flowable, canv, trySplit)
        flowable.drawOn = _unseen        # (on the flowable itself, for this one placing)
        try:
            return super().add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


def _unseen(canv, x, y, _sW=0) -> None:
    """A flowable's drawing on a sketched page: nothing."""


class Contents(TableOfContents):
    """The table of contents, which a sketched pass never settles: its pages are not kept."""

    sketched = False

    def isSatisfied(self):
        return not self.sketched and super().isSatisfied()


class RulebookDoc(BaseDocTemplate):
    """A BaseDocTemplate that records headings in the contents and the PDF outline.

    With contents, the first of reportlab's passes is sketched: the headings' pages it finds
    fill the contents of the second, and drawing pages that are thrown away was about a fifth
    of typesetting a book. A book without contents is set in one pass, drawn."""

    def __init__(self, path: str, page: PageSpec, title: str, subject: str, styles: Styles):
        self.spec, self.styles, self.book_title = page, styles, title
        self.contents: Contents | None = None
        super().__init__(path, pagesize=(page.width * MM, page.height * MM), invariant=1, pageCompression=1,
                         initialFontName="rb-sans", title=title, author="", subject=subject, creator="pnpgen",
                         leftMargin=page.margin * MM, rightMargin=page.margin * MM, topMargin=page.margin * MM,
                         bottomMargin=page.margin * MM)
        m, w, h = page.margin * MM, page.width * MM, page.height * MM
        bottom = m + 6 * MM
        single = SketchFrame(m, bottom, w - 2 * m, h - m - bottom, id="single", leftPadding=0, rightPadding=0,
                             topPadding=0, bottomPadding=0)
        cw = page.column_width * MM
        columns = [SketchFrame(m + i * (cw + GUTTER * MM), bottom, cw, h - m - bottom, id=f"col{i}",
                               leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
                   for i in range(page.columns)]
        self.addPageTemplates([PageTemplate("title", [single]),
                               PageTemplate("single", [single], onPage=self._footer),
                               PageTemplate("body", columns, onPage=self._footer)])
        self.setProgressCallBack(self._on_progress)

    def _on_progress(self, kind: str, count: int) -> None:
        """Before each pass: sketch the first one when there are contents to fill in."""
        if kind != "PASS":
            return
        sketch = count == 1 and self.contents is not None
        for template in self.pageTemplates:
            for frame in template.frames:
                frame.sketching = sketch
        if self.contents is not None:
            self.contents.sketched = sketch

    def _footer(self, canv, doc):
        """The page number on the outer edge (left on even pages, right on odd ones, as in a
        bound book) and the title on the inner edge."""
        font, size = self.styles.footer
        left, right = self.spec.margin * MM, (self.spec.width - self.spec.margin) * MM
        y = self.spec.margin * MM - 1 * MM
        title = self.book_title
        room = (right - left) * 0.7
        while title and pdfmetrics.stringWidth(title, font, size) > room:
            title = title[:-2].rstrip() + "…"
        canv.saveState()
        canv.setFont(font, size)
        canv.setFillColor(self.styles.accent)
        even = doc.page % 2 == 0
        if even:
            canv.drawString(left, y, str(doc.page))
        else:
            canv.drawRightString(right, y, str(doc.page))
        canv.setFillGray(0.45)
        if even:
            canv.drawRightString(right, y, title)
        else:
            canv.drawString(left, y, title)
        canv.restoreState()

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading) and flowable.level <= 2:
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, flowable.level - 1, closed=flowable.level > 1)
            self.notify("TOCEntry", (flowable.level - 1, escape(flowable.plain), self.page, flowable.key))


def write(path: str, source: Source, game_title: str, components: Components, page: PageSpec,
          subject: str) -> tuple[int, list[Notice]]:
    """Lay out and write one rulebook PDF; returns its page count and the warnings of its layout."""
    fm = source.front
    styles = Styles(fm.language)
    title = fm.title or game_title
    doc = RulebookDoc(path, page, f"{title} - Rules", subject, styles)
    frame_w, frame_h = (page.width - 2 * page.margin) * MM, page.body_height * MM
    notes: list[Notice] = []
    story = [KeepInFrame(frame_w, frame_h, title_page(source, title, components, styles, page, notes), mode="shrink")]
    if fm.contents:
        toc = doc.contents = Contents(levelStyles=styles.toc, dotsMinLevel=0, tableStyle=styles.toc_table)
        story += [NextPageTemplate("single"), PageBreak(), Paragraph("Contents", styles.toc_title), toc]
    story += [NextPageTemplate("body"), PageBreak()]
    body = Story(source, styles, components, page.column_width * MM, page.body_height * MM)
    story += body.build()
    doc.multiBuild(story, canvasmaker=partial(IconCanvas, icons=components.icons, images=components.images))
    return doc.page, notes + body.notes


def title_page(source: Source, title: str, components: Components, styles: Styles, page: PageSpec,
               notes: list[Notice] | None = None) -> list:
    """The title page's flowables; warnings about its cover figures go to `notes`."""
    fm = source.front
    out = [Spacer(1, page.height * MM * 0.12), Paragraph(escape(title), styles.title)]
    if fm.subtitle:
        out.append(Paragraph(escape(fm.subtitle), styles.subtitle))
    facts = []
    if fm.players is not None:
        facts.append(f"{fm.players} players")
    if fm.time:
        facts.append(fm.time)
    if fm.ages is not None:
        facts.append(f"ages {fm.ages}")
    if facts:
        out.append(Paragraph(escape("  ·  ".join(facts)), styles.facts))
    cover = _cover(components) if fm.cover is None else fm.cover
    if cover:
        story = Story(source, styles, components, (page.width - 2 * page.margin) * MM, page.body_height * MM * 0.55)
        line = source.front_doc.line(("cover",)) if source.front_doc else None
        try:
            out += [Spacer(1, 10), story.figure_row(cover, line)]
        except RefError as exc:
            raise InputError.at(source.path, line, f"cover: {exc}; the rulebook may only draw what the game has") \
                from None
        if notes is not None:
            notes += story.notes
    out.append(Spacer(1, 16))
    if fm.credit:
        out.append(Paragraph(escape(fm.credit), styles.credit))
    out.append(Paragraph("Print-and-play kit made with pnpgen from the game's own data: every count and "
                         "figure in this book is drawn from the components it describes.", styles.credit))
    return out


def _cover(components: Components) -> list:
    """The first few cards of the first card deck, as cover art."""
    for deck_id, (layouter, cards) in components.decks.items():
        if layouter.component.deck.pack or not cards:
            continue
        seen, picks = set(), []
        for card in cards:
            if card.entry.index in seen:
                continue
            seen.add(card.entry.index)
            picks.append(f"card:{deck_id}/{card.code}")
            if len(picks) == COVER_CARDS:
                break
        return picks
    return []
