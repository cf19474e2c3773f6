"""`pnpgen export FORMAT`: card faces as PNGs, print-shop uploads or a Tabletop Simulator
deck; the formats are pnpgen.export.formats's."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Project, load
from ..errors import InputError, Reported
from ..export.formats import FORMATS
from .options import selected


@click.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(list(FORMATS)))
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project); files go to <out>/<game>/<FORMAT>/.")
@click.option("--dpi", type=click.FloatRange(50, 1200), default=300, show_default=True, help="PNG resolution.")
@click.option("--no-bleed", is_flag=True, help="PNG faces cut at the trim (default: with the game's bleed).")
@click.option("--url-base", default=None, metavar="URL",
              help="tts: the http(s):// or file:// folder the images will be served from, e.g. "
                   "https://example.org/kit/ (default: file URLs of the exported files).")
@click.pass_obj
def export(project: Project, fmt, game, out, dpi, no_bleed, url_base):
    """Export card faces: png (one file a face, named by code), tgc / mpc (The Game Crafter,
    MakePlayingCards uploads at their exact pixel sizes), dtc (DriveThruCards PDF/X-1a, a card
    face a page, each card's front then its back) or tts (Tabletop Simulator sheets and a
    saved-object JSON)."""
    from ..export import check_options, export_game
    url_base = check_options(fmt, dpi, url_base)     # once, before any game is drawn
    failed = False
    for name in selected(project, game):
        try:
            result = export_game(load(project, name), fmt, out or project.root / "out", dpi, not no_bleed, url_base)
        except InputError as exc:     # shown now, in order; the next game still exports
            exc.show()
            failed = True
            continue
        click.echo(f"{name}: {result.files} files in {result.folder}")
        for note in result.notes:
            click.echo(f"  {note}", err=note.startswith("warning"))
    if failed:
        raise Reported(InputError.exit_code)
