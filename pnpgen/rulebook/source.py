"""Load a rulebook source: `cards/<game>/rulebook.md`, YAML front matter between `---`
lines, then Markdown with Jinja2 expressions. The expressions run in the sandboxed
environment against the game's facts; the result is Markdown, and a line map that takes
each line of it back to the source line it came from, so that later stages can say
`rulebook.md:line:` too."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from jinja2 import TemplateError, TemplateSyntaxError, UndefinedError
from pydantic import Field

from ..sources import yamlsrc
from ..sources.confine import Refused, inside
from reportlab.pdfbase import pdfmetrics

from ..errors import InputError, Notice
from ..expr import BudgetExceeded, environment
from ..sources.validation import Schema
from . import FILE
from .facts import Facts, RefError

MAX_BYTES = 1_000_000


class FrontMatter(Schema):
    """The YAML block at the top of `rulebook.md`."""

    title: str | None = Field(None, max_length=120)
    """The rulebook's title (default: the game's title)."""
    subtitle: str = Field("", max_length=200)
    """A line under the title."""
    players: str | int | None = None
    """Number of players, shown on the title page (e.g. 2-4)."""
    time: str | None = Field(None, max_length=60)
    """Playing time, shown on the title page."""
    ages: str | int | None = None
    """Player ages, shown on the title page (e.g. 10+)."""
    credit: str = Field("", max_length=2000)
    """Credits printed on the title page: who wrote what, and what is reconstructed."""
    booklet: bool = False
    """Also write rulebook-booklet.pdf (as `pnpgen build --booklet` does)."""
    contents: bool = True
    """Print a table of contents after the title page."""
    cover: list[str] | None = Field(None, max_length=12)
    """Figures on the title page, as figure addresses (card:common/Hive, spread:...); default:
    the first three cards of the first card deck; [] for none."""
    language: Literal["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL"] = "en_US"
    """Language of the text, for hyphenation."""


@dataclass
class Source:
    """A rulebook after its expressions ran: Markdown, and where each of its lines came from."""

    path: Path
    front: FrontMatter
    markdown: str
    lines: list[int]        # lines[i]: the source line of Markdown line i (0-based), 1-based
    front_doc: yamlsrc.Doc | None = None   # the front matter, for the line of a key

    def line(self, md_line: int | None) -> int | None:
        if md_line is None or not self.lines:
            return None
        return self.lines[min(max(md_line, 0), len(self.lines) - 1)]

    def error(self, md_line: int | None, message: str) -> InputError:
        return InputError.at(self.path, self.line(md_line), message)

    def missing_glyphs(self, faces: list[str]) -> list[Notice]:
        """A warning (an error under --strict) for each line that holds a character none of
        the rulebook's faces has: it would print as an empty box."""
        covers = [pdfmetrics.getFont(f).face.charToGlyph for f in faces]
        missing = {ch for ch in set(self.markdown) if not ch.isspace() and all(ord(ch) not in c for c in covers)}
        notes = []
        for i, text in enumerate(self.markdown.split("\n") if missing else ()):
            lacking = sorted(missing.intersection(text))
            if lacking:
                shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lacking[:5])
                notes.append(Notice(self.path, self.line(i), f"no rulebook font has {shown}: it would print as "
                                    "an empty box; use another character", True))
        return notes


def find(root: Path) -> Path | None:
    """The game's rulebook.md, or None when it has none; one that leads outside the game
    folder, or is not a regular file, is refused."""
    path = root / FILE
    try:
        inside(root, FILE)
    except Refused as exc:
        raise InputError.at(path, None, f"{exc}; the rulebook is read from the game folder only") from None
    return path if path.is_file() else None


def load(path: Path, shown, facts: Facts) -> Source:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise InputError.at(shown, None, f"the rulebook is over {MAX_BYTES} bytes; split it or trim it")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(shown, None, f"not UTF-8 text ({exc.reason}); save the file as UTF-8") from None
    except OSError as exc:
        raise InputError.at(shown, None, f"cannot read the rulebook: {exc.strerror}") from None
    text = text.replace("\r\n", "\n")
    front, doc, body, first = _split(text, shown)
    markdown = render(body, shown, first, facts)
    return Source(Path(str(shown)), front, markdown, _line_map(body, markdown, first), doc)


def _split(text: str, shown) -> tuple[FrontMatter, yamlsrc.Doc | None, str, int]:
    """Front matter and body; `first` is the source line (1-based) the body starts on."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return FrontMatter(), None, text, 1
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            doc = yamlsrc.loads("\n" + "\n".join(lines[1:i]) + "\n", shown)
            if doc.data is None:
                doc.data = {}
            if not isinstance(doc.data, dict):
                raise InputError.at(shown, 2, "the front matter must be a mapping of keys to values (title: ...)")
            from ..sources.validation import validate
            return validate(FrontMatter, doc), doc, "\n".join(lines[i + 1:]), i + 2
    raise InputError.at(shown, 1, "the front matter that starts here has no closing '---' line; add one "
                        "after its last key")


def render(body: str, shown, first: int, facts: Facts) -> str:
    """Run the body's Jinja2 expressions; an error names the source line."""
    env = environment()
    try:
        template = env.from_string(body)
    except TemplateSyntaxError as exc:
        raise InputError.at(shown, first + (exc.lineno or 1) - 1, f"template syntax: {exc.message}") from None
    try:
        return template.render(**facts.names())
    except RefError as exc:
        raise InputError.at(shown, _template_line(exc, first), f"{exc}; the rulebook may only name what the "
                            "game has") from None
    except UndefinedError as exc:
        raise InputError.at(shown, _template_line(exc, first), f"{exc.message}; see docs/rulebooks.md for the "
                            "names a rulebook can use") from None
    except BudgetExceeded as exc:
        raise InputError.at(shown, _template_line(exc, first), exc.message) from None
    except (TemplateError, TypeError, ValueError, ArithmeticError) as exc:
        raise InputError.at(shown, _template_line(exc, first), f"in an expression: {exc}") from None


def _template_line(exc: BaseException, first: int) -> int | None:
    """The template line an exception was raised at (Jinja rewrites its frames to them)."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return None if line is None else first + line - 1


def _line_map(body: str, markdown: str, first: int) -> list[int]:
    """For each line of the rendered Markdown, the source line it came from: unchanged lines
    map to themselves, lines an expression produced map to the expression's line."""
    src, out = body.split("\n"), markdown.split("\n")
    result = [first] * len(out)
    matcher = difflib.SequenceMatcher(None, src, out, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k, j in enumerate(range(j1, j2)):
            i = i1 + k if tag == "equal" else min(i1 + k, max(i2 - 1, i1))
            result[j] = first + i
    return result
