"""The rulebook's typography: embedded DejaVu faces (serif body, sans headings), paragraph
and table styles. Body text is 10 pt on 13 pt with hyphenation, and nothing a reader has to
read is smaller than 9 pt."""

from __future__ import annotations

import pyphen
from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import TableStyle

from .. import fontfaces, fonts

FACES = {
    "rb-serif": "DejaVuSerifCondensed.ttf",
    "rb-serif-bold": "DejaVuSerifCondensed-Bold.ttf",
    "rb-serif-italic": "DejaVuSerifCondensed-Italic.ttf",
    "rb-serif-bolditalic": "DejaVuSerifCondensed-BoldItalic.ttf",
    "rb-sans": "DejaVuSansCondensed.ttf",
    "rb-sans-bold": "DejaVuSansCondensed-Bold.ttf",
    "rb-sans-italic": "DejaVuSansCondensed-Oblique.ttf",
    "rb-mono": "DejaVuSansMono.ttf",
}
INK = Color(0.11, 0.10, 0.09)
MUTED = Color(0.38, 0.38, 0.38)
ACCENT = Color(0.16, 0.30, 0.44)
RULE = Color(0.75, 0.75, 0.75)
ACCENTS = {"note": Color(0.16, 0.36, 0.56), "example": Color(0.62, 0.38, 0.08), "tip": Color(0.20, 0.47, 0.25),
           "summary": Color(0.40, 0.28, 0.55)}
FONT = ("FONTNAME", (0, 0), (-1, -1), "rb-sans")
"""Every table names an embedded font (reportlab's default for a cell is Helvetica)."""
TINTS = {"note": Color(0.92, 0.95, 0.98), "example": Color(0.99, 0.95, 0.89), "tip": Color(0.92, 0.97, 0.92),
         "summary": Color(0.95, 0.93, 0.98)}


def register() -> None:
    """Register the rulebook faces (once) and their bold/italic families."""
    for name, file in FACES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(fontfaces.load_font(name, fonts.HERE / file))
    registerFontFamily("rb-serif", normal="rb-serif", bold="rb-serif-bold", italic="rb-serif-italic",
                       boldItalic="rb-serif-bolditalic")
    registerFontFamily("rb-sans", normal="rb-sans", bold="rb-sans-bold", italic="rb-sans-italic",
                       boldItalic="rb-sans-bold")
    registerFontFamily("rb-mono", normal="rb-mono", bold="rb-mono", italic="rb-mono", boldItalic="rb-mono")


class Styles:
    """Every style the rulebook uses, for one language (hyphenation) and one column width."""

    cell_padding = 4.0
    mono = "rb-mono"

    def __init__(self, language: str = "en_US"):
        register()
        self._cover = {f: frozenset(pdfmetrics.getFont(f).face.charToGlyph) for f in ("rb-serif", "rb-sans", "rb-mono")}
        self._both = self._cover["rb-serif"] & self._cover["rb-sans"] | {0xAD}     # face_for: None
        self.accent = ACCENT
        # hyphenation points are soft hyphens that markdown.py puts into the text with pyphen
        # (reportlab's own hyphenation miscounts inside words that hold a hyphen)
        self.hyphenator = pyphen.Pyphen(lang=language)
        hy = dict(uriWasteReduce=0.3)
        self.body = ParagraphStyle("body", fontName="rb-serif", fontSize=10, leading=13, alignment=TA_JUSTIFY,
                                   spaceAfter=5, textColor=INK, allowWidows=0, allowOrphans=0, **hy)
        self.aside = ParagraphStyle("aside", parent=self.body, fontName="rb-serif-italic", textColor=MUTED)
        self.callout = ParagraphStyle("callout", parent=self.body, fontName="rb-sans", fontSize=9.5, leading=12.5,
                                      alignment=TA_LEFT, spaceAfter=4)
        self.callout_title = ParagraphStyle("callout-title", parent=self.callout, fontName="rb-sans-bold",
                                            fontSize=10, spaceAfter=3)
        self.heading = [
            ParagraphStyle("h1", fontName="rb-sans-bold", fontSize=17, leading=21, spaceBefore=10, spaceAfter=6,
                           textColor=ACCENT, keepWithNext=0),
            ParagraphStyle("h2", fontName="rb-sans-bold", fontSize=13, leading=16, spaceBefore=9, spaceAfter=4,
                           textColor=ACCENT, keepWithNext=0),
            ParagraphStyle("h3", fontName="rb-sans-bold", fontSize=11, leading=14, spaceBefore=7, spaceAfter=3,
                           textColor=INK, keepWithNext=0),
            ParagraphStyle("h4", fontName="rb-sans-bold", fontSize=10, leading=13, spaceBefore=5, spaceAfter=2,
                           textColor=INK, keepWithNext=0),
        ]
        self.caption = ParagraphStyle("caption", fontName="rb-sans-italic", fontSize=9, leading=11.5,
                                      alignment=TA_CENTER, textColor=MUTED, spaceBefore=3)
        self.table_cell = ParagraphStyle("cell", fontName="rb-sans", fontSize=9, leading=11.5, textColor=INK)
        self.table_head = ParagraphStyle("head", parent=self.table_cell, fontName="rb-sans-bold")
        self.code = ParagraphStyle("code", fontName="rb-mono", fontSize=9, leading=11.5, textColor=INK,
                                   spaceAfter=5, leftIndent=6)
        self.title = ParagraphStyle("title", fontName="rb-serif-bold", fontSize=34, leading=40,
                                    alignment=TA_CENTER, textColor=ACCENT, spaceAfter=8)
        self.subtitle = ParagraphStyle("subtitle", fontName="rb-serif-italic", fontSize=15, leading=20,
                                       alignment=TA_CENTER, textColor=INK, spaceAfter=14)
        self.facts = ParagraphStyle("facts", fontName="rb-sans-bold", fontSize=11, leading=15,
                                    alignment=TA_CENTER, textColor=MUTED, spaceAfter=10)
        self.credit = ParagraphStyle("credit", fontName="rb-sans", fontSize=9, leading=12, alignment=TA_CENTER,
                                     textColor=MUTED)
        self.toc_title = ParagraphStyle("toc-title", parent=self.heading[0], spaceBefore=0)
        self.toc = [ParagraphStyle("toc1", fontName="rb-sans-bold", fontSize=10.5, leading=15, leftIndent=0,
                                   firstLineIndent=0, textColor=INK),
                    ParagraphStyle("toc2", fontName="rb-sans", fontSize=10, leading=13, leftIndent=14,
                                   firstLineIndent=0, textColor=INK)]
        self.footer = ("rb-sans", 9)
        self.toc_table = TableStyle([FONT, ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                     ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                                     ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])

    def in_both_faces(self, text: str) -> bool:
        """Whether face_for is None for every character of `text` (as for most text)."""
        return self._both.issuperset(map(ord, text))

    def face_for(self, ch: str) -> str | None:
        """None when both text faces have `ch`; else the rulebook face that has it (or None
        when no face has it, which the build reports)."""
        code = ord(ch)
        if code == 0xAD or code in self._cover["rb-serif"] and code in self._cover["rb-sans"]:
            return None
        return next((f for f in ("rb-sans", "rb-serif", "rb-mono") if code in self._cover[f]), None)

    def callout_table(self, kind: str) -> TableStyle:
        return TableStyle([FONT, ("BACKGROUND", (0, 0), (-1, -1), TINTS[kind]),
                           ("LINEBEFORE", (0, 0), (0, -1), 3, ACCENTS[kind]),
                           ("LEFTPADDING", (0, 0), (-1, -1), 9), ("RIGHTPADDING", (0, 0), (-1, -1), 7),
                           ("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)])

    @property
    def aside_table(self) -> TableStyle:
        return TableStyle([FONT, ("LINEBEFORE", (0, 0), (0, -1), 1.5, RULE), ("LEFTPADDING", (0, 0), (-1, -1), 8),
                           ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])

    def table_style(self, header_rows: int, padding: float | None = None) -> TableStyle:
        p = self.cell_padding if padding is None else padding
        cmds = [FONT, ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), p), ("RIGHTPADDING", (0, 0), (-1, -1), p),
                ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE)]
        if header_rows:
            cmds += [("BACKGROUND", (0, 0), (-1, header_rows - 1), Color(0.90, 0.91, 0.93)),
                     ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, ACCENT)]
        cmds += [("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [None, Color(0.97, 0.97, 0.97)])]
        return TableStyle(cmds)

    @property
    def figure_table(self) -> TableStyle:
        return TableStyle([FONT, ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                           ("VALIGN", (0, 1), (-1, 1), "TOP"),
                           ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                           ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
