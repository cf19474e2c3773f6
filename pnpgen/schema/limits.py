"""The limits a game's files and expressions are held to, as `pnpgen schema limits` and
docs/reference.md list them: read off the constants that enforce them."""

from __future__ import annotations

from .. import expr
from ..rulebook import source as rulebook
from ..sources import spreadsheet, workbook_guard, yamlsrc

TOPIC = "limits"
INTRO = ("What one file, and one evaluation of an expression, may ask for. A card file is untrusted input: past "
         "a limit the command stops at the file and line, saying which limit, with exit status 2, the same on "
         "every machine (only the clock depends on the machine, and it is the last guard). An evaluation is one "
         "template text or `when:` of one card, one rule expression for one card, or a whole rulebook.")


def rows() -> list[tuple[str, str, str]]:
    """(what, limit, meaning)."""
    return [
        ("YAML file", f"{yamlsrc.MAX_FILE_BYTES:,} bytes", "Split a bigger deck into several files."),
        ("YAML values", f"{yamlsrc.MAX_NODES:,} a file", "Values in one file, counted after aliases (*name) are "
         "expanded."),
        ("YAML nesting", f"{yamlsrc.MAX_DEPTH} levels", "Lists and mappings inside one another."),
        ("YAML whole number", f"{yamlsrc.MAX_DIGITS} digits", "Quote a longer one (an id, a barcode) to keep it as "
         "text."),
        ("card sheet file", f"{spreadsheet.MAX_FILE_BYTES:,} bytes", "A deck's .csv, .xlsx or .ods `cards:` file."),
        ("card sheet size", f"{workbook_guard.MAX_ROWS:,} rows, {workbook_guard.MAX_COLUMNS} columns",
         "Counted from A1 to the furthest filled cell, header row included; clear cells beyond the cards."),
        ("workbook unpacked", f"{workbook_guard.MAX_UNPACKED:,} bytes", "All the parts of an .xlsx or .ods file "
         "together, unpacked."),
        ("rulebook.md", f"{rulebook.MAX_BYTES:,} bytes", "The rulebook source."),
        ("steps", f"{expr.MAX_STEPS:,} an evaluation", f"The work an expression may do. A loop turn costs 1 "
         "step plus 1 for each operation in the loop's body, and so does each run of a macro; a call or a filter "
         f"costs {expr.CALL_STEPS}; building, reading or comparing text or a list costs 1 for every "
         f"{expr.CHARS_PER_STEP} characters or items."),
        ("text or list", f"{expr.MAX_SIZE:,} characters or items", "Any one text or list an expression builds, "
         "with all it holds (a list that holds a long text ten times counts it ten times), and its output."),
        ("number", f"{expr.MAX_BITS:,} bits", f"About {int(expr.MAX_BITS * 0.30103):,} decimal digits."),
        ("calls inside calls", f"{expr.MAX_DEPTH}", "A macro that calls a macro that calls... A macro that "
         "calls itself needs a way out before this."),
        ("nesting", f"{expr.MAX_NESTING} levels", "Brackets, filters, operators and blocks inside one another, "
         "as the expression is read."),
        ("time", f"{expr.MAX_SECONDS:g} s an evaluation", "Wall-clock time: a guard for work the steps do not "
         "count."),
    ]


def text() -> str:
    return "\n".join([f"{TOPIC}: what a file or an expression may ask for", f"  {INTRO}"] +
                     [f"  {what}: {limit}\n      {meaning}" for what, limit, meaning in rows()])


def markdown() -> list[str]:
    return [f"## {TOPIC}", "", INTRO, "", "| what | limit | meaning |", "|---|---|---|"] + \
        [f"| {what} | {limit} | {meaning} |" for what, limit, meaning in rows()] + [""]
