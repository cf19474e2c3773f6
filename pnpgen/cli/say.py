"""Where a command's words go, the same for every command: -q/--quiet and -v/--verbose (the
`talk` options), `Say` (errors and warnings always, as text on stderr or as GitHub annotations;
what the command has to report on stdout unless quiet; detail only when verbose) and the live
progress line of long work, drawn on stderr only when it is a terminal (never in a CI log)."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import click

from ..errors import InputError
from .options import annotation

QUIET_HELP = "Say nothing but errors (and warnings); the exit status says how it went."
VERBOSE_HELP = "Say more: every file written, and progress lines even when not on a terminal."


def talk(command):
    """The -q/--quiet and -v/--verbose options of a command (its `quiet` and `verbose` arguments)."""
    command = click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)(command)
    return click.option("-q", "--quiet", is_flag=True, help=QUIET_HELP)(command)


class Say:
    """A command's words (see the module docstring). Output a command was asked for in a format
    for machines (--json, --markdown, --format json or github) is not talk: commands write it
    whatever -q says."""

    STEP_EVERY = 0.1
    """Seconds between redraws of the progress line."""

    def __init__(self, quiet: bool = False, verbose: bool = False, fmt: str = "text"):
        self.fmt, self.quiet, self.verbose = fmt, quiet, verbose and not quiet
        self.terminal = sys.stderr.isatty()
        self.talk = not quiet and (verbose or self.terminal)
        self.live = not quiet and self.terminal
        self._shown = 0           # characters of the progress line on screen now
        self._drawn_at = 0.0

    def out(self, message: str = "") -> None:
        """What the command reports (a summary, a listing, what it wrote): stdout, unless quiet."""
        if not self.quiet:
            self.clear()
            click.echo(message)

    def detail(self, message: str) -> None:
        """More than the report: stdout, only when verbose."""
        if self.verbose:
            self.clear()
            click.echo(message)

    def progress(self, message: str, indent: str = "  ") -> None:
        """A line on how long work goes: stderr, on a terminal or when verbose."""
        if self.talk:
            self.clear()
            click.echo(indent + message, err=True)

    def warning(self, message: str) -> None:
        self.clear()
        click.echo(message, err=True)

    def step(self, label: str, done: int, total: int | None = None, unit: str = "pages") -> None:
        """The progress line of long work: `label: done/total unit [####....]` (or `done unit`
        where the total is not known), redrawn in place on a terminal at most every STEP_EVERY
        seconds; gone once done reaches total (or at `clear`)."""
        if not self.live:
            return
        finished = total is not None and done >= total
        now = time.monotonic()
        if not finished and now - self._drawn_at < self.STEP_EVERY:
            return
        self._drawn_at = now
        if finished:
            self.clear()
            return
        text = f"{label}: {done}/{total} {unit} [{_bar(done, total)}]" if total else f"{label}: {done} {unit}"
        text = text[:max(10, shutil.get_terminal_size().columns - 1)]
        click.echo("\r" + text.ljust(self._shown), err=True, nl=False)
        self._shown = len(text)

    def clear(self) -> None:
        """Take the progress line off the screen (before any other line is written)."""
        if self._shown:
            click.echo("\r" + " " * self._shown + "\r", err=True, nl=False)
            self._shown = 0

    def problem(self, level: str, problem, title: str) -> None:
        """A warning or error located in a file (a Notice, a rule violation, a print finding)."""
        self.clear()
        if self.fmt == "github":
            click.echo(annotation(level, str(problem.path), problem.line, title, problem.message))
        else:
            click.echo(str(problem), err=True)

    def input_error(self, exc: InputError, game: str) -> None:
        self.clear()
        if self.fmt == "github":
            for p in exc.problems:
                self.problem("error", p, f"{game}: invalid input")
        else:
            exc.show()

    def wrote(self, paths: list[Path]) -> None:
        """Each file written, when verbose."""
        for path in paths:
            self.detail(f"  wrote {path}")


def _bar(done: int, total: int, width: int = 20) -> str:
    filled = min(width, width * done // max(1, total))
    return "#" * filled + "." * (width - filled)
