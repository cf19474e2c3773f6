"""An entry of a template's `elements:` list is checked by its one element's model alone
(pnpgen.elements.one_element), made when first drawn: it must accept, refuse and word its
messages exactly as ElementEntry, the model with every element's key, does."""

from __future__ import annotations

import pickle

import pytest
from pydantic import ValidationError

from pnpgen import elements
from pnpgen.elements import ELEMENTS, NAMES, one_element

ENTRIES = [
    {"rect": {"x": 0, "y": 0, "w": 63.5, "h": 10, "fill": "#ffcc00"}},
    {"text": {"x": 5, "y": 5, "w": 50, "h": 9, "text": "{{ title }}", "size": 12}},
    {"text": {"x": 5, "y": 5, "w": "{{ card.width - 10 }}", "h": 9, "text": "hi"}},
    {"group": {"x": 3, "draw": [{"circle": {"cx": 1, "cy": 1, "r": 2}}, {"line": {"points": [[0, 0], [5, 5]]}}]}},
    {"slots": {"values": [1, 2], "draw": [{"text": {"x": -3, "y": -2, "w": 6, "h": 4, "text": "{{ value }}"}}]}},
    # refused, each in its own way
    {"rect": {"x": 0, "y": 0, "w": -1, "h": 10}},
    {"text": {"x": 0, "y": 0, "w": 10, "h": 5, "text": "x", "size": "big", "colour": "red"}},
    {"group": {"draw": [{"rect": {"x": 0, "y": 0, "w": 1, "h": 1}}, {"rectangle": {}}]}},
    {"rectangle": {"x": 0}},
    {"rect": {"x": 0, "y": 0, "w": 1, "h": 1}, "text": {"x": 0, "y": 0, "w": 1, "h": 1, "text": "a"}},
    {"text": None},
    {},
    "rect",
    {"rect": "x: 0"},
    {1: {"x": 0}},
]


def _outcome(validate, entry):
    try:
        checked = validate(entry)
    except ValidationError as exc:
        return "refused", [{**e, "ctx": repr(e.get("ctx"))} for e in exc.errors(include_url=False)]
    return "accepted", (checked.kind, checked.element, checked.element.model_dump(warnings=False))


@pytest.mark.parametrize("entry", ENTRIES, ids=range(len(ENTRIES)))
def test_an_entry_checked_alone_gives_what_the_whole_entry_model_gives(entry):
    alone = _outcome(one_element, entry)
    assert alone == _outcome(elements.ElementEntry.model_validate, entry)
    if alone[0] == "refused":
        assert all(error["msg"] for error in alone[1])


def test_an_entry_holds_its_element_and_survives_pickling():
    entry = one_element({"rect": {"x": 1, "y": 2, "w": 3, "h": 4}})
    again = pickle.loads(pickle.dumps(entry))
    assert again == entry and again.kind == "rect" and again.element.w == 3
    assert type(again).__name__ == "ElementEntry_rect"


def test_every_element_module_is_a_key_and_elemententry_has_them_all():
    assert list(ELEMENTS) == list(NAMES) and len(NAMES) == 11
    assert list(elements.ElementEntry.model_fields) == list(NAMES)
    assert all(ELEMENTS[name].__module__ == f"pnpgen.elements.{name}" for name in NAMES)
    with pytest.raises(KeyError):
        ELEMENTS["base"]
