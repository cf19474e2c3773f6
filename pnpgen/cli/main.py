"""The `pnpgen` group: its options, its commands, and the one handler that turns a raised
PnpgenError into its message on stderr and its exit status. A command's module is imported
when the command is run (or listed by --help), so `pnpgen build` does not pay for the
exporters, the preview server and the rest at every start."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from .. import __version__
from ..build import Project
from ..errors import PnpgenError

COMMANDS = {"build": ("build", "build"), "calibrate": ("calibrate", "calibrate"), "changes": ("changes", "changes"),
            "check": ("check", "check"), "examples": ("examples", "examples"), "export": ("export", "export"),
            "list": ("listing", "list_"), "new": ("new", "new"), "preview": ("preview", "preview"), "pull": ("pull", "pull"),
            "reprint": ("changes", "reprint"), "schema": ("schema", "schema")}
"""Command name -> (its module in pnpgen.cli, the click command's name there)."""


class PnpgenGroup(click.Group):
    """A click group whose commands only raise: an error shows itself and sets the exit status."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpgenError as exc:
            exc.show()
            ctx.exit(exc.exit_code)


class CommandsOnDemand(PnpgenGroup):
    """The pnpgen group: its commands (COMMANDS) imported when asked for."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx, name):
        if name in self.commands or name not in COMMANDS:
            return self.commands.get(name)
        module, attribute = COMMANDS[name]
        return getattr(importlib.import_module(f"{__package__}.{module}"), attribute)


@click.group(cls=CommandsOnDemand)
@click.version_option(__version__, prog_name="pnpgen")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Project folder holding cards/ and templates/.")
@click.pass_context
def main(ctx, root):
    """Turn YAML card databases into cut-ready print-and-play PDFs."""
    ctx.obj = Project(root)
