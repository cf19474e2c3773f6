"""A spreadsheet cell's value as a field of a given type: what a CSV file holds as text and a
workbook as a number, a truth value or a date, turned into what the same card written in YAML
would hold (3.0 in a whole-number field is 3; 'yes' in a true/false field is true). Each
converter returns the value, or raises ValueError with what is wrong in words."""

from __future__ import annotations

import datetime
import math
import re

_WHOLE = re.compile(r"[+-]?\d+(?:\.0*)?")
TRUE = ("true", "yes", "y", "1", "x")
FALSE = ("false", "no", "n", "0")
LIST_SEPARATOR = "|"
"""What separates the items of a list field in one cell."""


def _got(value) -> str:
    return f"got {value!r}"


def to_text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.15g}"
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def to_int(value):
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, {_got(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip().split(".")[0])
    raise ValueError(f"expected a whole number, {_got(value)}")


def to_number(value):
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", ".") if value.count(",") == 1 and "." not in value
                          else value.strip())
        except ValueError:
            raise ValueError(f"expected a number, {_got(value)}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"expected a number, {_got(value)}")
    if isinstance(value, float):     # (as a spreadsheet shows it: 15 digits, without 0.1 + 0.2's last one)
        value = float(f"{value:.15g}")
        return int(value) if value.is_integer() else value
    return value


def to_bool(value):
    if isinstance(value, bool):
        return value
    word = to_text(value).strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError(f"expected true or false (or yes / no), {_got(value)}")


def to_list(value):
    """Text items: the cell's text split on LIST_SEPARATOR, each trimmed, empty ones left out."""
    items = [item.strip() for item in to_text(value).split(LIST_SEPARATOR)]
    return [item for item in items if item]


CONVERTERS = {"text": to_text, "int": to_int, "number": to_number, "bool": to_bool, "list": to_list}
"""Field type -> its converter."""
