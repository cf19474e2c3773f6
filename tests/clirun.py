"""Run the `pnpgen` command in this process with click's CliRunner, and hand back what a
subprocess would have given: the exit status, stdout and stderr (kept apart).

An exception the command does not handle would reach the user as a Python traceback and exit
status 1; CliRunner catches it instead, so it is put back here: exit status 1 and the
traceback at the end of stderr, where the tests' `"Traceback" not in stderr` checks find it."""

from __future__ import annotations

import contextlib
import os
import traceback
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from pnpgen.cli import main


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def pnpgen(*args, cwd: Path | str | None = None, env: dict[str, str] | None = None) -> Ran:
    """`pnpgen ARGS...` run as from `cwd` (default: here); stdout and stderr are not terminals."""
    with _working_folder(cwd):
        result = CliRunner().invoke(main, [os.fspath(a) for a in args], env=env, prog_name="pnpgen")
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))
        return Ran(1, result.stdout, stderr)
    return Ran(result.exit_code, result.stdout, stderr)


@contextlib.contextmanager
def _working_folder(cwd: Path | str | None):
    """Run from `cwd` (contextlib.chdir is Python 3.11+; pnpgen supports 3.10)."""
    if cwd is None:
        yield
        return
    before = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)
