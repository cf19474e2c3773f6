"""A deck's cards read from a card sheet (pnpgen.sources.spreadsheet): the first row names the
columns (the deck's fields, and count, template, back, number), every row under it that is not
empty is one card, and each cell is typed and checked by its field, an empty cell taking the
field's default. Every problem names its cell (`Cards!D14 (cost)`, `row 14, column cost`)."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import Problem, did_you_mean
from ..sources import cells
from ..sources.spreadsheet import Table, column_letters, filled
from .models import MAX_COUNT, RESERVED, Deck

Entry = tuple[int, dict, int, str | None, str | None, int | None, bool]
"""One card: (its row number, field values, count, template, back, pinned number, own template)."""


class SheetCards:
    """The cards of one card sheet for one deck; `problems` gathers what is wrong."""

    def __init__(self, deck: Deck, table: Table):
        self.deck, self.table = deck, table
        self.problems: list[Problem] = []
        self.columns: dict[str, int] = {}         # column name -> its index
        self._read_header()

    def _problem(self, where: str, message: str) -> None:
        self.problems.append(Problem(self.table.shown, None, f"{where}: {message}"))

    def _read_header(self) -> None:
        allowed = set(self.deck.fields) | set(RESERVED)
        width = max([len(self.table.header)] + [len(row) for row in self.table.rows])
        for i in range(width):    # (a CSV row may run on past its header)
            cell = self.table.header[i] if i < len(self.table.header) else None
            name = cells.to_text(cell).strip() if filled(cell) else ""
            where = self.table.cell(-1, i)
            if not name:
                self._unnamed(i)
            elif name not in allowed:
                self._problem(where, f"unknown column '{name}'{did_you_mean(name, allowed)}; name each column "
                              "after a field declared under fields: in the deck file (or count, template, back, "
                              "number)")
            elif name in self.columns:
                self._problem(where, f"a second column named '{name}' (the first is column "
                              f"{column_letters(self.columns[name])}); column names must differ")
            else:
                self.columns[name] = i
        for name, spec in self.deck.fields.items():
            if spec.required and name not in self.columns:
                self._problem(self.table.row(-1), f"no column '{name}', a required field; add it to the first row")

    def _unnamed(self, column: int) -> None:
        """A column with no name in the header row must be empty."""
        for index, row in enumerate(self.table.rows):
            if column < len(row) and filled(row[column]):
                self._problem(self.table.cell(index, column), "this column has no name in the first row; "
                              "name it after a field, or clear it")
                return

    def entries(self) -> Iterator[Entry]:
        """Each card (the rows that are not empty), checked; what is wrong into `problems`."""
        fields = [(name, spec, self.columns.get(name), cells.CONVERTERS[spec.type])
                  for name, spec in self.deck.fields.items()]
        for index, row in enumerate(self.table.rows):
            if not any(filled(v) for v in row):
                continue
            values = {}
            for name, spec, column, convert in fields:
                value = row[column] if column is not None and column < len(row) else None
                values[name] = self._value(index, column, name, spec, value, convert)
            count = self._setting(index, row, "count", cells.to_int, 1, 0, MAX_COUNT)
            number = self._setting(index, row, "number", cells.to_int, None, 1, 99999)
            template = self._setting(index, row, "template", cells.to_text, None)
            back = self._setting(index, row, "back", cells.to_text, None)
            own = template is not None
            template = template if own else self.deck.template
            if template is None:
                self._problem(self.table.row(index), "no template; set template: in the deck file, or give "
                              "this card one in a template column")
            yield index + 2, values, count, template, back, number, own

    def _value(self, index, column, name, spec, value, convert):
        """A field's value from its cell: converted and checked, or its default when empty."""
        if not filled(value):
            if spec.required:
                self._problem(self._where(index, column, name), "required field is empty; give it a value")
            return spec.default
        try:
            value = convert(value)
        except ValueError as exc:
            self._problem(self._where(index, column, name), str(exc))
            return spec.default
        if spec.type == "text" and len(value) > 5000:
            self._problem(self._where(index, column, name), "text is longer than 5000 characters")
        elif spec.choices is not None and value not in spec.choices:
            self._problem(self._where(index, column, name),
                          f"{value!r} is not one of the allowed values{did_you_mean(value, spec.choices)}")
        return value

    def _where(self, index: int, column: int | None, name: str) -> str:
        return self.table.cell(index, column, name) if column is not None else f"{self.table.row(index)} ({name})"

    def _setting(self, index, row, name, convert, default, low=None, high=None):
        """A card setting (count, number, template, back) from its column, or `default`."""
        column = self.columns.get(name)
        value = row[column] if column is not None and column < len(row) else None
        if not filled(value):
            return default
        try:
            value = convert(value)
            if low is not None and not low <= value <= high:
                raise ValueError(f"expected a whole number from {low} to {high}, got {value!r}")
        except ValueError as exc:
            self._problem(self.table.cell(index, column, name), str(exc))
            return default
        return value.strip() if isinstance(value, str) else value
