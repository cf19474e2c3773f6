"""`print-size`: text smaller than a player can read at print size (card codes, read only
to sort the cards, have a lower floor of their own)."""

from ..findings import Hit

ORDER = 10
DOC = ("text smaller than `min_size` pt as printed (a card code: `min_code_size`), text in a "
       "scaled group counted at the size it prints")
PIXELS = False


def inspect(face, limits, under):
    for text in face.texts:
        if text.letters is None:       # inline icons only: they have no font size to read
            continue
        if text.code:
            floor, key, reader = limits.min_code_size, "min_code_size", "a card code needs to be sorted by"
        else:
            floor, key, reader = limits.min_size, "min_size", "a player can read"
        if text.size < floor - 0.005:
            yield Hit("size", text.where, face, text.size, f"{name(text)} is {text.size:.1f} pt",
                      f"below the {floor:g} pt {reader}; make it at least {floor:g} pt "
                      f"(or set print: {{{key}: ...}} in game.yaml)", floor)


def name(text) -> str:
    """'card code SWM-017' or "text 'Hive'", cut short when long."""
    shown = text.text if len(text.text) <= 32 else text.text[:30] + "..."
    return f"card code {shown}" if text.code else f"text {shown!r}"
