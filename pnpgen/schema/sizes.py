"""The named sizes, in millimetres, as `pnpgen schema sizes`, docs/reference.md, the game's
`card_size` key and the `pnpgen new` scaffold give them: read off presets/sizes.yaml, so a
size added there is listed everywhere."""

from __future__ import annotations

from .. import presets

TOPIC = "sizes"
INTRO = ("The names a `card_size:`, `size:` or `paper:` may give, in millimetres, width x height (a "
         "template's `card.width` and `card.height` are these numbers). Any other size is written [w, h] in mm.")
MM_PER_INCH = 25.4


def mm(size: tuple[float, float]) -> str:
    """'63.5 x 88.9 mm'."""
    return f"{size[0]:g} x {size[1]:g} mm"


def inches(size: tuple[float, float]) -> str:
    """'2.5 x 3.5 in' when both sides are whole hundredths of an inch, else ''."""
    sides = [side / MM_PER_INCH for side in size]
    if all(abs(s * 100 - round(s * 100)) < 1e-6 for s in sides):
        return f"{sides[0]:g} x {sides[1]:g} in"
    return ""


def rows() -> list[tuple[str, str, str, str]]:
    """(kind, name, mm, inches) of every named size."""
    tables = (("card", presets.card_sizes()), ("paper", presets.home_papers()), ("poster", presets.posters()))
    return [(kind, name, mm(size), inches(size)) for kind, table in tables for name, size in table.items()]


def card_list() -> str:
    """'poker 63.5 x 88.9, bridge 57.15 x 88.9, ...' (mm), for a description or a comment."""
    return ", ".join(f"{name} {w:g} x {h:g}" for name, (w, h) in presets.card_sizes().items())


def text() -> str:
    return "\n".join([f"{TOPIC}: named card, paper and poster sizes", f"  {INTRO}"] +
                     [f"  {name}: {size}" + (f" ({inch})" if inch else "") + f"  [{kind}]"
                      for kind, name, size, inch in rows()])


def markdown() -> list[str]:
    return [f"## {TOPIC}", "", INTRO, "", "| name | kind | millimetres | inches |", "|---|---|---|---|"] + \
        [f"| `{name}` | {kind} | {size} | {inch} |" for kind, name, size, inch in rows()] + [""]
