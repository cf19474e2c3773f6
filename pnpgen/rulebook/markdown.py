"""Markdown to flowables: the rendered rulebook source is parsed by markdown-it-py
(CommonMark, plus tables and `::: note` call-outs) and each block becomes a platypus
flowable in the rulebook's styles. Figure addresses are resolved here, so a reference to a
card the game lacks is reported at its source line."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.container import container_plugin
from reportlab.platypus import (CondPageBreak, Flowable, KeepTogether, ListFlowable, ListItem, PageBreak,
                                Preformatted, Spacer, Table)
from reportlab.lib.styles import ParagraphStyle

from ..errors import Notice, did_you_mean
from ..layout.layouter import ICON
from ..pdf.canvas import MM
from . import icons, tables
from .facts import RefError
from .figures import Components, Figure
from .icons import IconParagraph as Paragraph
from .source import Source
from .styles import Styles

CALLOUTS = ("note", "example", "tip", "summary")
WORD = re.compile(r"[^\W\d_]{7,}")
"""A word long enough to hyphenate: letters only (a word with a hyphen breaks at it)."""
SPACE_BEFORE_TAG = re.compile(r"(?<!<span>)(?<!\s)(\s+)(?=<)")
"""Spaces just before a markup tag. reportlab drops the space that ends a text fragment
when the fragment's last word holds a soft hyphen ("two moments:<b>after"), so each such
space is set as a fragment of its own."""
FIGURE_GAP = 5.0      # mm between figures in a row
MAX_FIGURE_SHARE = 0.62   # a figure row takes at most this share of a column's height


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(["table", "strikethrough",
                                                                                "replacements", "smartquotes"])
    for kind in CALLOUTS:
        md.use(container_plugin, name=kind)
    return md


class Heading(Paragraph):
    """A heading paragraph that knows its level and bookmark, for the contents and outline."""

    def __init__(self, text: str, style, level: int, key: str, plain: str):
        super().__init__(text, style)
        self.level, self.key, self.plain = level, key, plain


class Story:
    """Builds the flowables of one rulebook body for a frame `width` x `height` (points)."""

    def __init__(self, source: Source, styles: Styles, components: Components, width: float, height: float):
        self.source, self.st, self.components = source, styles, components
        self.width, self.height = width, height
        self.headings = 0
        self.line: int | None = None      # the Markdown line of the block being set
        self.notes: list[Notice] = []     # warnings, at their source lines
        self.icons = {name[len(ICON):]: form.size[0] / form.size[1] for name, form in components.icons.items()
                      if name.startswith(ICON)}
        """The game's icons by name, each with its width-to-height ratio."""

    def build(self) -> list[Flowable]:
        tree = SyntaxTreeNode(parser().parse(self.source.markdown))
        return self.keep_headings(self.blocks(tree.children, self.width))

    def keep_headings(self, flow: list[Flowable]) -> list[Flowable]:
        """A heading never ends a column. A run of headings asks for room for itself and four
        lines of what follows (a paragraph or a table then starts under it and flows on); one
        followed by a block that moves whole (a figure, a call-out) is kept with that block."""
        out, i = [], 0
        while i < len(flow):
            if not isinstance(flow[i], CondPageBreak):
                out.append(flow[i])
                i += 1
                continue
            run = []
            while i < len(flow) and isinstance(flow[i], CondPageBreak):
                run.append(flow[i + 1])          # each heading comes after its CondPageBreak
                i += 2
            nxt = flow[i] if i < len(flow) else None
            room = sum(h.style.leading + h.style.spaceBefore + h.style.spaceAfter for h in run)
            out.append(CondPageBreak(room + self.st.body.leading * 4))
            if isinstance(nxt, KeepTogether):
                out.append(KeepTogether(run + [nxt]))
                i += 1
            else:
                out += run
        return out

    # --- blocks ---------------------------------------------------------------------------
    def blocks(self, nodes, width: float, style=None) -> list[Flowable]:
        out = []
        for node in nodes:
            out += self.block(node, width, style)
        return out

    def block(self, node, width: float, style=None) -> list[Flowable]:
        t = node.type
        self.line = _line(node) if node.map else self.line
        if t == "heading":
            return self.heading(node)
        if t == "paragraph":
            return self.paragraph(node, width, style or self.st.body)
        if t in ("bullet_list", "ordered_list"):
            return [self.list(node, width, style), Spacer(1, 4)]
        if t == "table":
            return [self.table(node, width)]
        if t == "blockquote":
            inner = self.blocks(node.children, width - 14, self.st.aside)
            return [Table([[inner]], colWidths=[width - 14], style=self.st.aside_table, hAlign="RIGHT"), Spacer(1, 5)]
        if t.startswith("container_"):
            # a box that fits a column is never split; a longer one splits inside its row (no
            # spacer before it: a heading keeps with the flowable right after it)
            return [KeepTogether([self.callout(node, t.removeprefix("container_"), width)])]
        if t == "hr":
            return [PageBreak()]
        if t in ("code_block", "fence"):
            return [Preformatted(node.content.rstrip("\n"), self.st.code)]
        if t == "html_block":
            return [Paragraph(escape(node.content), self.st.body)]
        return []

    def heading(self, node) -> list[Flowable]:
        level = int(node.tag[1])
        self.headings += 1
        text = self.inline(node.children[0]).replace("\xad", "") if node.children else ""
        plain = icons.PATTERN.sub(r"\1", node.children[0].content) if node.children else ""
        style = self.st.heading[min(level, 4) - 1]
        # keep_headings turns the CondPageBreak into room for the heading run and what follows
        return [CondPageBreak(0), Heading(text, style, level, f"h{self.headings}", plain)]

    def paragraph(self, node, width: float, style) -> list[Flowable]:
        inline = node.children[0] if node.children else None
        if inline is not None and _only_images(inline):
            return [self.figures(inline, node, width)]
        if inline is not None and any(c.type == "image" for c in inline.children):
            raise self.source.error(_line(node), "a figure must stand in a paragraph of its own (leave a "
                                    "blank line before and after it)")
        return [Paragraph(self.inline(inline), style)] if inline is not None else []

    def list(self, node, width: float, style=None) -> ListFlowable:
        ordered = node.type == "ordered_list"
        items = []
        for item in node.children:
            body = self.blocks(item.children, width - 14, style)
            items.append(ListItem(body or [Paragraph("", self.st.body)]))
        start = int(node.attrs.get("start", 1)) if ordered else None
        kw = dict(bulletType="1", start=start, bulletFormat="%s.") if ordered else dict(bulletType="bullet",
                                                                                          start="•")
        return ListFlowable(items, leftIndent=14, bulletFontName=self.st.body.fontName,
                            bulletFontSize=self.st.body.fontSize, bulletColor=self.st.accent, **kw)

    def callout(self, node, kind: str, width: float) -> Flowable:
        title = node.info.strip()[len(kind):].strip() if node.info else ""
        inner = []
        if title:
            inner.append(Paragraph(self._md_inline(title, node), self.st.callout_title))
        inner += self.blocks(node.children, width - 16, self.st.callout)
        box = Table([[inner or [Spacer(1, 1)]]], colWidths=[width], style=self.st.callout_table(kind),
                    splitInRow=1, spaceBefore=2, spaceAfter=8)
        return box

    def table(self, node, width: float) -> Table:
        """A pipe table: columns sized by their words (tables.py), cells that wrap only between words."""
        rows, header = [], 0
        for part in node.children:                    # thead, tbody
            for tr in part.children:
                self.line = _line(tr) if tr.map else self.line
                cells = [self.inline(td.children[0], hyphenate=False) if td.children else "" for td in tr.children]
                rows.append((cells, part.type == "thead"))
                header += part.type == "thead"
        ncols = max(len(c) for c, _ in rows)
        rows = [(cells + [""] * (ncols - len(cells)), head) for cells, head in rows]
        cell, head = self.st.table_cell, self.st.table_head
        measured = [[Paragraph(c, head if h else cell) for c in cells] for cells, h in rows]
        fit = tables.fit(measured, width, self.st.cell_padding, cell.fontSize)
        if not fit.fits:
            self.notes.append(Notice(self.source.path, self.source.line(_line(node)), (
                f"this table's {ncols} columns need {fit.needed / MM:.0f} mm side by side even in "
                f"{tables.MIN_SIZE:g} pt type, and the column is {width / MM:.0f} mm: its longest words are broken; "
                "use fewer columns, shorter headings, or split the table"), True))
        data = measured           # (fit only reads the cells' words: as styled, they are the table's cells)
        if fit.scale != 1.0:
            cell, head = _scaled(cell, fit.scale), _scaled(head, fit.scale)
            data = [[Paragraph(c, head if h else cell) for c in cells] for cells, h in rows]
        return Table(data, colWidths=fit.widths, repeatRows=header, style=self.st.table_style(header, fit.padding),
                     hAlign="LEFT", spaceAfter=8)

    # --- figures --------------------------------------------------------------------------
    def figures(self, inline, node, width: float) -> Flowable:
        arts = []
        for child in inline.children:
            if child.type != "image":
                continue
            address = child.attrs.get("src", "")
            try:
                art = self.components.resolve(address)
            except RefError as exc:
                raise self.source.error(_line(node), f"figure '{address}': {exc}; the rulebook may only draw "
                                        "what the game has") from None
            self._warn_left_out(art, self.source.line(_line(node)))
            arts.append((art, child.content))
        return self._row(arts, width)

    def figure_row(self, addresses: list[str], line: int | None = None) -> Flowable:
        """Figures without captions, side by side (the title page's cover: its warnings at the
        rulebook file's `line`)."""
        arts = []
        for address in addresses:
            arts.append((self.components.resolve(address), ""))
            self._warn_left_out(arts[-1][0], line)
        return self._row(arts, self.width, keep=False)

    def _warn_left_out(self, art, line: int | None) -> None:
        """A warning at the figure's line of the rulebook file for each thing its picture
        cannot draw (as a card's image element gets at its template line)."""
        self.notes += [Notice(self.source.path, line, f"figure: {w}") for w in art.warnings]

    def _row(self, arts, width: float, keep: bool = True) -> Flowable:
        gaps = FIGURE_GAP * (len(arts) - 1)
        room = width / MM - gaps
        natural = [a.width or (min(a.view[2], room) if a.shape == "none" else a.view[2]) for a, _ in arts]
        shrink = min(1.0, room / sum(natural))
        tallest = max(a.view[3] * n / a.view[2] for (a, _), n in zip(arts, natural))
        shrink = min(shrink, self.height / MM * MAX_FIGURE_SHARE / tallest)
        figs, caps, cols = [], [], []
        for (art, caption), w in zip(arts, natural):
            scale = w * shrink / art.view[2]
            figs.append(Figure(art, scale, self.components.icons, self.components.images))
            caps.append(Paragraph(self.text(caption, hyphenate=False), self.st.caption) if caption else "")
            cols.append(w * shrink * MM + FIGURE_GAP * MM)
        cols[-1] -= FIGURE_GAP * MM
        cols = [max(c, 20 * MM) for c in cols]
        table = Table([figs, caps], colWidths=cols, style=self.st.figure_table, hAlign="CENTER")
        return KeepTogether([Spacer(1, 4), table, Spacer(1, 6)]) if keep else table

    # --- inline ---------------------------------------------------------------------------
    def inline(self, node, hyphenate: bool = True) -> str:
        """Inline Markdown as reportlab paragraph markup (with soft hyphens in long words
        unless `hyphenate` is False)."""
        if node is None:
            return ""
        out = []
        for child in node.children or []:
            t = child.type
            if t == "text":
                out.append(self.text(child.content, hyphenate))
            elif t == "softbreak":
                out.append(" ")
            elif t == "hardbreak":
                out.append("<br/>")
            elif t == "strong":
                out.append(f"<b>{self.inline(child, hyphenate)}</b>")
            elif t == "em":
                out.append(f"<i>{self.inline(child, hyphenate)}</i>")
            elif t == "s":
                out.append(f"<strike>{self.inline(child, hyphenate)}</strike>")
            elif t == "code_inline":
                out.append(f'<font face="{self.st.mono}">{escape(child.content)}</font>')
            elif t == "link":
                href = child.attrs.get("href", "")
                text = self.inline(child, hyphenate)
                if href.startswith(("http://", "https://", "mailto:")):
                    out.append(f'<a href="{escape(href, {chr(34): "&quot;"})}" color="#1d4f91">{text}</a>')
                else:
                    out.append(text)
            elif t in ("html_inline",):
                out.append(escape(child.content))
            elif t == "image":
                out.append(escape(child.content))
            else:
                out.append(self.inline(child, hyphenate) if child.children else escape(child.content or ""))
        return SPACE_BEFORE_TAG.sub(r"<span>\1</span>", "".join(out))

    def text(self, text: str, hyphenate: bool = True) -> str:
        """Escaped text with its `:icon:`s drawn, soft hyphens where long words may break,
        and a character the body face lacks set in a rulebook face that has it."""
        out = []
        for i, part in enumerate(icons.PATTERN.split(text)):
            if i % 2:
                out.append(self.icon(part))
                continue
            if hyphenate:
                part = WORD.sub(lambda m: self.st.hyphenator.inserted(m.group(), hyphen="\xad"), part)
            if self.st.in_both_faces(part):
                out.append(escape(part))
                continue
            for ch in part:
                face = self.st.face_for(ch)
                out.append(escape(ch) if face is None else f'<font face="{face}">{escape(ch)}</font>')
        return "".join(out)

    def icon(self, name: str) -> str:
        """The markup of the game's icon `name`; an icon the game lacks is an error at its line."""
        if name not in self.icons:
            raise self.source.error(self.line, f"unknown icon ':{name}:'" + did_you_mean(name, self.icons) +
                                    "; an icon is one of the names under `icons:` in game.yaml: add it there, "
                                    f"or write `:{name}:` between backquotes to print it as text")
        return icons.markup(name, self.icons[name])

    def _md_inline(self, text: str, node) -> str:
        tree = SyntaxTreeNode(parser().parse(text))
        para = tree.children[0] if tree.children else None
        return self.inline(para.children[0]) if para is not None and para.children else escape(text)


def _only_images(inline) -> bool:
    kinds = [c.type for c in inline.children if not (c.type == "text" and not c.content.strip())]
    kinds = [k for k in kinds if k != "softbreak"]
    return bool(kinds) and all(k == "image" for k in kinds)


def _line(node) -> int | None:
    return node.map[0] if node.map else None


def _scaled(style: ParagraphStyle, scale: float) -> ParagraphStyle:
    """`style` in type `scale` times its size (a table shrunk to fit its column)."""
    if scale == 1.0:
        return style
    return ParagraphStyle(f"{style.name}-{scale:.3f}", parent=style, fontSize=style.fontSize * scale,
                          leading=style.leading * scale)
