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
_FIRST_REF = re.compile(rb"<(?:[\w.-]+:)?c\s+r\s*=\s*[\"']([A-Za-z]*)([0-9]*)[\"']")
_ODS_TAG = re.compile(rb"<table:(table|table-row|table-cell|covered-table-cell)" + _ATTRS)


_FINDERS: dict[bytes, re.Pattern] = {}


def _attr(attrs: bytes, name: bytes) -> bytes | None:
    """The value of the attribute written exactly `name` in a tag's attribute text."""
    finder = _FINDERS.get(name)
    if finder is None:
        finder = _FINDERS[name] = re.compile(rb"(?:^|\s)" + re.escape(name) + rb"\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
    found = finder.search(attrs)
    return None if found is None else (found[1] if found[1] is not None else found[2])


def _column_number(letters: bytes) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ch - 64
    return number


def xlsx_extent(xml: bytes) -> tuple[int, int]:
    """(rows, columns) from A1 to the furthest cell of an XLSX worksheet part. Spreadsheet
    programs write every cell's reference as its first attribute: then the references alone
    say it, read in one pass; otherwise each tag is followed in order."""
    refs = _FIRST_REF.findall(xml)
    if len(refs) == len(_ANY_CELL.findall(xml)):
        rows = max((int(r) for _, r in refs if r), default=0)
        cols = max((_column_number(c) for c in {c for c, _ in refs} if c), default=0)
        if all(c and r for c, r in refs):
            return rows, cols
    return _xlsx_walk(xml)


def _xlsx_walk(xml: bytes) -> tuple[int, int]:
    """xlsx_extent, tag by tag: a row or cell without a reference follows the one before it."""
    row = col = rows = cols = 0
    for match in _XLSX_TAG.finditer(xml):
        kind, attrs = match[1], match[2]
        parts = _REF.fullmatch(_attr(attrs, b"r") or b"") or _REF.fullmatch(b"")
        if kind == b"row":
            row, col = (int(parts[2]) if parts[2] else row + 1), 0
            continue
        col = _column_number(parts[1]) if parts[1] else col + 1
        rows, cols = max(rows, int(parts[2]) if parts[2] else row), max(cols, col)
    return rows, cols


def ods_extent(xml: bytes) -> list[tuple[int, int]]:
    """(rows, columns) of each table in an ODS content.xml, up to its furthest cell that is not
    left empty (repeated rows and cells counted as many times as they stand for)."""
    tables: list[tuple[int, int]] = []
    row_at = rows = cols = col = 0
    for match in _ODS_TAG.finditer(xml):
        kind, attrs, closed = match[1], match[2], match[3]
        if kind == b"table":
            if tables or rows or cols or row_at:
                tables.append((rows, cols))
            row_at = rows = cols = 0
            continue
        if kind == b"table-row":
            row_at, col = row_at + int(_attr(attrs, b"table:number-rows-repeated") or 1), 0
            continue
        repeat = int(_attr(attrs, b"table:number-columns-repeated") or 1)
        col += repeat
        if not closed or _attr(attrs, b"office:value-type") is not None:
            rows, cols = max(rows, row_at), max(cols, col)
    tables.append((rows, cols))
    return tables


def check(path: Path) -> str | None:
    """What is wrong with the workbook at `path` as a card sheet, in words, or None."""
    kind = path.suffix.lower()
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            if sum(m.file_size for m in members) > MAX_UNPACKED:
                return f"it unpacks to more than {MAX_UNPACKED // 1_000_000} MB; keep the cards in a smaller workbook"
            extents = []
            for member in members:
                data = archive.read(member)      # (checks the part's size and checksum)
                # (both kinds of sheet are scanned whatever the file's name says it is)
                if member.filename.startswith("xl/worksheets/") and member.filename.endswith(".xml"):
                    extents.append(xlsx_extent(data))
                elif member.filename == "content.xml":
                    extents += ods_extent(data)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, ValueError) as exc:
        return f"it is not a readable {kind[1:].upper()} workbook ({exc}); save it again from the spreadsheet program"
    for rows, cols in extents:
        if rows > MAX_ROWS or cols > MAX_COLUMNS:
            return (f"a sheet reaches row {rows:,} and column {cols:,}; a card sheet may have at most "
                    f"{MAX_ROWS:,} rows and {MAX_COLUMNS} columns: clear the cells beyond the cards")
    return None
