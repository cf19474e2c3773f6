"""`pnpgen preview`: the live page of every card face, redrawn as files are saved."""

from __future__ import annotations

import click

from ..build import Project
from .say import talk


@click.command()
@click.argument("game", nargs=-1)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 to serve the page on (0 picks a free one).")
@click.option("--since", default=None, metavar="REF",
              help="Also list what prints differently than at REF, with a picture of each change (before / now / "
                   "difference): REF is a git revision (a branch, a tag, a commit, HEAD~1) or a folder, as for "
                   "`pnpgen changes --since`.")
@talk
@click.pass_obj
def preview(project: Project, game, port, since, quiet, verbose):
    """Serve a live page of every card face of every game (or the GAMEs named) on
    127.0.0.1, redrawn as you save: fronts and backs with codes, titles and the file:line
    they come from, rule findings and layout warnings on their cards, bad input shown
    over the last good faces. With --since REF, what changed since REF too. Ctrl-C stops it.
    With -q it prints nothing while it serves (the page shows every problem); with -v, also
    each page and picture it serves."""
    from ..preview import serve
    serve(project, game, port, since, quiet=quiet, verbose=verbose)
