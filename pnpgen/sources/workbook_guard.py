"""Check a workbook (XLSX or ODS) before its reader sees it: how much it unpacks to, and how
far its filled cells reach. The reader (calamine) holds a sheet as one block of cells from its
first filled cell to its last, so a file of a few kilobytes with one cell at A1 and another at
XFD1048576 would ask for half a terabyte and end the process. Here every part of the archive
is unpacked once (its checksum checked, its size held to MAX_UNPACKED), and the sheets' XML is
scanned for the furthest row and column any cell reaches, counted the way the reader counts
them (a cell without a reference follows the one before it; an ODS cell or row may stand for
many), so that a sheet past MAX_ROWS or MAX_COLUMNS is refused before it is read."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

MAX_ROWS = 20_001
"""Rows of a card sheet, its header row included (a deck holds at most 20,000 cards)."""
MAX_COLUMNS = 100
"""Columns of a card sheet."""
MAX_UNPACKED = 100_000_000
"""Bytes a workbook may unpack to, all its parts together."""

_ATTRS = rb"((?:\s+[^\s=>/]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>"
_XLSX_TAG = re.compile(rb"<(?:[\w.-]+:)?(row|c)" + _ATTRS)
_REF = re.compile(rb"([A-Za-z]*)([0-9]*)")
_ANY_CELL = re.compile(rb"<(?:[\w.-]+:)?c[\s/>]")
_FIRST_REF = re.compile(rb"<(?:[\w.-]+:)?c\s+r\s*=\s*[\"']([A-Za-z]+)([0-9]+)[\"']")
_ROW_FIRST_REF = re.compile(rb"<(?:[\w.-]+:)?row\s+r\s*=")
_ANY_REF = re.compile(rb"\sr\s*=")
_ODS_TAG = re.compile(rb"<table:(table|table-row|table-cell|covered-table-cell)" + _ATTRS)


_FINDERS: dict[bytes, re.Pattern] = {}


def _attrs(attrs: bytes, name: bytes) -> list[bytes]:
    """The values of the attribute written exactly `name` in a tag's attribute text (more than
    one when it is written twice, which the reader does not refuse)."""
    finder = _FINDERS.get(name)
    if finder is None:
        finder = _FINDERS[name] = re.compile(rb"(?:^|\s)" + re.escape(name) + rb"\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
    return [a or b for a, b in finder.findall(attrs)]


def _repeats(attrs: bytes, name: bytes) -> int:
    """How many rows or cells an ODS tag stands for (the largest count written in it)."""
    return max((int(v) if v.strip().isdigit() else 1 for v in _attrs(attrs, name)), default=1)


def _column_number(letters: bytes) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ch - 64
    return number


def xlsx_extent(xml: bytes) -> tuple[int, int, int]:
    """(rows, columns) from A1 to the furthest cell of an XLSX worksheet part, and how many
    cells it writes. Spreadsheet programs write every cell's reference as its first attribute:
    then the references alone say it, read in one pass; otherwise each tag is followed in order."""
    cells = len(_ANY_CELL.findall(xml))
    refs = _FIRST_REF.findall(xml)
    # (every r= accounted for: none written twice in a tag, where the reader takes the last)
    if len(refs) == cells and len(_ANY_REF.findall(xml)) == cells + len(_ROW_FIRST_REF.findall(xml)):
        letters, digits = zip(*refs) if refs else ((), ())
        rows = max(map(int, set(digits)), default=0)
        cols = max(map(_column_number, set(letters)), default=0)
        return rows, cols, cells
    return (*_xlsx_walk(xml), cells)


def _xlsx_walk(xml: bytes) -> tuple[int, int]:
    """xlsx_extent, tag by tag: a row or cell without a reference follows the one before it."""
    row = col = rows = cols = 0
    for match in _XLSX_TAG.finditer(xml):
        kind, attrs = match[1], match[2]
        refs = _attrs(attrs, b"r")       # (the reader takes the last of two)
        parts = _REF.fullmatch(refs[-1] if refs else b"") or _REF.fullmatch(b"")
        if kind == b"row":
            row, col = (int(parts[2]) if parts[2] else row + 1), 0
            continue
        col = _column_number(parts[1]) if parts[1] else col + 1
        rows, cols = max(rows, int(parts[2]) if parts[2] else row), max(cols, col)
    return rows, cols


_EMPTY_CELL_ATTRS = {b"table:style-name", b"table:number-columns-repeated", b"table:number-columns-spanned",
                     b"table:number-rows-spanned", b"table:content-validation-name"}
"""What an ODS cell left empty may carry (a value, a formula or anything else counts as filled)."""
_ATTR_NAME = re.compile(rb"([^\s=]+)\s*=")


def ods_extent(xml: bytes) -> list[tuple[int, int, int]]:
    """(rows, columns, cells) of each table in an ODS content.xml, up to its furthest cell that
    is not left empty (repeated rows and cells counted as many times as they stand for)."""
    tables: list[tuple[int, int, int]] = []
    row_at = rows = cols = col = cells = 0
    for match in _ODS_TAG.finditer(xml):
        kind, attrs, closed = match[1], match[2], match[3]
        if kind == b"table":
            if tables or rows or cols or row_at:
                tables.append((rows, cols, cells))
            row_at = rows = cols = cells = 0
            continue
        if kind == b"table-row":
            row_at, col = row_at + _repeats(attrs, b"table:number-rows-repeated"), 0
            continue
        repeat = _repeats(attrs, b"table:number-columns-repeated")
        col += repeat
        if not closed or not set(_ATTR_NAME.findall(attrs)) <= _EMPTY_CELL_ATTRS:
            rows, cols, cells = max(rows, row_at), max(cols, col), cells + repeat
    tables.append((rows, cols, cells))
    return tables


_UNIQUE_COUNT = re.compile(rb"uniqueCount\s*=\s*[\"']\+?0*([0-9]{1,30})")


def _extents(archive: zipfile.ZipFile) -> list[tuple[int, int, int]]:
    """(rows, columns, cells) of every sheet in the archive, each part unpacked once (its size
    and checksum checked). Every part is scanned as an XLSX sheet (the workbook says where its
    sheets are, anywhere in the archive) and content.xml as ODS; a shared-string count, which
    the reader reserves room for, counts as that many cells."""
    extents = []
    for member in archive.infolist():
        data = archive.read(member)
        extents.append(xlsx_extent(data))
        if member.filename == "content.xml":
            extents += ods_extent(data)
        extents += [(0, 0, int(n)) for n in _UNIQUE_COUNT.findall(data)]
    return extents


def check(path: Path) -> str | None:
    """What is wrong with the workbook at `path` as a card sheet, in words, or None."""
    try:
        with zipfile.ZipFile(path) as archive:
            if sum(m.file_size for m in archive.infolist()) > MAX_UNPACKED:
                return f"it unpacks to more than {MAX_UNPACKED // 1_000_000} MB; keep the cards in a smaller workbook"
            extents = _extents(archive)
    except Exception as exc:   # a damaged archive: zipfile raises BadZipFile, zlib.error, OSError, EOFError...
        if isinstance(exc, MemoryError):
            raise
        return (f"it is not a readable {path.suffix[1:].upper()} workbook ({exc}); save it again from the "
                "spreadsheet program")
    for rows, cols, cells in extents:
        if rows > MAX_ROWS or cols > MAX_COLUMNS:
            return (f"a sheet reaches row {rows:,} and column {cols:,}; a card sheet may have at most "
                    f"{MAX_ROWS:,} rows and {MAX_COLUMNS} columns: clear the cells beyond the cards")
        if cells > MAX_ROWS * MAX_COLUMNS:
            return (f"it holds {cells:,} cells (or room for as many texts); a card sheet may hold at most "
                    f"{MAX_ROWS * MAX_COLUMNS:,}")
    return None
