"""The `pnpgen` group: its options, its commands, and the one handler that turns a raised
PnpgenError into its message on stderr and its exit status."""

from __future__ import annotations

from pathlib import Path

import click

from .. import __version__
from ..build import Project
from ..errors import PnpgenError
from . import build, calibrate, changes, check, export, listing, new, preview, schema


class PnpgenGroup(click.Group):
    """A click group whose commands only raise: an error shows itself and sets the exit status."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpgenError as exc:
            exc.show()
            ctx.exit(exc.exit_code)


@click.group(cls=PnpgenGroup)
@click.version_option(__version__, prog_name="pnpgen")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Project folder holding cards/ and templates/.")
@click.pass_context
def main(ctx, root):
    """Turn YAML card databases into cut-ready print-and-play PDFs."""
    ctx.obj = Project(root)


for _command in (build.build, check.check, schema.schema, new.new, listing.list_, calibrate.calibrate,
                 export.export, preview.preview, changes.changes, changes.reprint):
    main.add_command(_command)
