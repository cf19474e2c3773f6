"""Input errors that a designer can act on: `path:line: what is wrong (hint)`."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Problem:
    """One thing wrong with the input, located in a file."""

    path: Path | str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = str(self.path)
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}"


@dataclass
class Notice(Problem):
    """Something the build noticed but could still draw. `strict` warnings (text cut to fit,
    a character no font has) fail a `--strict` build."""

    strict: bool = False

    def __str__(self) -> str:
        return "warning: " + super().__str__()


class LayoutError(Exception):
    """A problem found while drawing one element; the layouter adds where it is."""


class InputError(Exception):
    """Bad input: one or more problems, each with file and line. Exit status 2."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, path, line, message) -> "InputError":
        return cls(Problem(path, line, message))


def did_you_mean(word: str, choices) -> str:
    """A ' (did you mean 'x'?)' suffix, or a list of the choices when nothing is close."""
    choices = sorted(str(c) for c in choices)
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    if close:
        return f" (did you mean '{close[0]}'?)"
    if choices and len(choices) <= 12:
        return " (expected one of: " + ", ".join(choices) + ")"
    return ""
