"""Errors that a designer can act on, each carrying the exit status the command ends with
(as click's exceptions do): bad input `path:line: what is wrong (hint)` exits 2, a game that
breaks its rules exits 1. The command line's one handler calls `show()` and exits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click


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


class PnpgenError(Exception):
    """An error that ends a command: `show()` says what went wrong on stderr, and the
    process exits with `exit_code`."""

    exit_code = 1

    def __init__(self, message: str = "", exit_code: int | None = None):
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code

    def show(self) -> None:
        if self.message:
            click.echo(self.message, err=True)


class UsageProblem(PnpgenError):
    """A command given a name it does not know (a topic, a kind). Exit status 2."""

    exit_code = 2


class Reported(PnpgenError):
    """What went wrong has been printed already (problems game by game, a machine-readable
    report): only the exit status is left to give."""

    def __init__(self, exit_code: int):
        super().__init__("", exit_code)


class RulesBroken(Reported):
    """A game breaks its rules (its violations printed already). Exit status 1."""

    def __init__(self):
        super().__init__(1)


class InputError(PnpgenError):
    """Bad input: one or more problems, each with file and line. Exit status 2."""

    exit_code = 2

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):      # (a worker process hands its error to the build whole)
        return type(self), (self.problems,)

    def show(self) -> None:
        for problem in self.problems:
            click.echo(str(problem), err=True)

    @classmethod
    def at(cls, path, line, message) -> "InputError":
        return cls(Problem(path, line, message))


def did_you_mean(word: str, choices) -> str:
    """A ' (did you mean 'x'?)' suffix, or a list of the choices when nothing is close."""
    import difflib      # (only now: a build without a misspelt name never needs it)
    choices = sorted(str(c) for c in choices)
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    if close:
        return f" (did you mean '{close[0]}'?)"
    if choices and len(choices) <= 12:
        return " (expected one of: " + ", ".join(choices) + ")"
    return ""
