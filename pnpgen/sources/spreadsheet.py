"""Read a card sheet: a CSV file, or one sheet of an XLSX or ODS workbook (read with calamine,
after workbook_guard has checked it), as a header row and the rows under it, each cell named
the way a spreadsheet program names it (`Cards!D14`, or `row 14, column cost` in a CSV)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, did_you_mean
from . import workbook_guard
from .workbook_guard import MAX_COLUMNS, MAX_ROWS

SUFFIXES = (".csv", ".xlsx", ".ods")
"""The card sheets a deck's `cards:` may name."""
MAX_FILE_BYTES = 20_000_000
"""Largest card sheet on disk."""


@dataclass
class Table:
    """A card sheet as read: its header cells, and the rows under it (row 2 onwards)."""

    shown: str                # the file, as messages show it
    sheet: str | None         # the workbook's sheet read; None for a CSV file
    header: list
    rows: list[list]

    def cell(self, index: int, column: int, name: str | None = None) -> str:
        """Where a data row's cell is, in a spreadsheet user's words: `Cards!D14 (cost)` or (in
        a CSV file) `row 14, column cost`; `index` counts the data rows from 0 (-1: the header
        row), `column` from 0; `name` is the column's name, when it has one."""
        row = index + 2
        if self.sheet is None:
            return f"row {row}, column {name or column_letters(column)}"
        sheet = self.sheet if self.sheet.replace("_", "").isalnum() else "'" + self.sheet.replace("'", "''") + "'"
        return f"{sheet}!{column_letters(column)}{row}" + (f" ({name})" if name else "")

    def row(self, index: int) -> str:
        """A data row, as `Cards row 14` or `row 14`."""
        return f"{self.sheet} row {index + 2}" if self.sheet else f"row {index + 2}"


def column_letters(column: int) -> str:
    """A column's letters: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def read(path: Path, shown: str, sheet: str | None = None) -> Table:
    """The card sheet at `path` (a regular file inside the game folder, checked by the caller);
    anything that stops it being read is an InputError at the file."""
    suffix = path.suffix.lower()
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError.at(shown, None, f"cannot read file: {exc.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise InputError.at(shown, None, f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}")
    if suffix == ".csv":
        if sheet is not None:
            raise InputError.at(shown, None, "a CSV file has no sheets; remove sheet: from the deck")
        rows = _csv_rows(path.read_bytes(), shown)
    else:
        sheet, rows = _workbook_rows(path, shown, sheet)
    while rows and not any(filled(v) for v in rows[-1]):
        rows.pop()
    if not rows:
        raise InputError.at(shown, None, "the sheet is empty; its first row names the columns (the deck's fields)")
    return Table(shown, sheet, rows[0], rows[1:])


def filled(value) -> bool:
    """Whether a cell holds anything (an empty cell reads as None or '')."""
    return value is not None and value != ""


def _csv_rows(data: bytes, shown: str) -> list[list]:
    """A CSV file's rows. UTF-8 with or without a byte-order mark; its first line decides the
    separator: semicolons when it holds more of them than commas, else commas."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.at(shown, None, f"byte {exc.start + 1:,} is not UTF-8 text; save the file as "
                            "'CSV UTF-8' from the spreadsheet program") from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    rows = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            if len(rows) >= MAX_ROWS:
                raise InputError.at(shown, None, f"more than {MAX_ROWS:,} rows; a deck holds at most "
                                    f"{MAX_ROWS - 1:,} cards: split it into several decks")
            if len(row) > MAX_COLUMNS:
                raise InputError.at(shown, None, f"row {len(rows) + 1} has {len(row)} columns; the limit is "
                                    f"{MAX_COLUMNS}")
            rows.append(row)
    except csv.Error as exc:
        raise InputError.at(shown, None, f"row {len(rows) + 1}: {exc}; check its quotes") from None
    return rows


def _workbook_rows(path: Path, shown: str, sheet: str | None) -> tuple[str, list[list]]:
    """The chosen sheet (default: the first) of an XLSX or ODS workbook, and its rows from A1."""
    from python_calamine import CalamineWorkbook   # (only decks kept in workbooks pay for it)

    wrong = workbook_guard.check(path)
    if wrong:
        raise InputError.at(shown, None, wrong)
    try:
        with CalamineWorkbook.from_path(str(path)) as book:
            names = book.sheet_names
            if sheet is None:
                sheet = names[0] if names else ""
            elif sheet not in names:
                raise InputError.at(shown, None, f"no sheet '{sheet}' in this workbook{did_you_mean(sheet, names)}")
            rows = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    except InputError:
        raise
    except Exception as exc:  # calamine's own errors (CalamineError, ZipError, XmlError...) share no base
        raise InputError.at(shown, None, f"cannot read this workbook ({type(exc).__name__}: {exc}); "
                            "save it again from the spreadsheet program") from None
    return sheet, rows
