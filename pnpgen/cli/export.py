"""`pnpgen export FORMAT`: card faces as PNGs, print-shop uploads or a Tabletop Simulator
deck; the formats are pnpgen.export.formats's."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Project, load
from ..errors import InputError, Notice, Reported
from ..export.formats import FORMATS
from ..pdf.colour import FLATTEN_PPI
from .options import selected
from .say import Say, talk


@click.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(list(FORMATS)))
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project); files go to <out>/<game>/<FORMAT>/.")
@click.option("--dpi", type=click.FloatRange(50, 1200), default=300, show_default=True, help="PNG resolution.")
@click.option("--no-bleed", is_flag=True, help="PNG faces cut at the trim (default: with the game's bleed).")
@click.option("--flatten-ppi", type=click.FloatRange(72, 2400), default=FLATTEN_PPI, show_default=True,
              metavar="PPI", help="dtc: a face that draws anything see-through (opacity, #rrggbbaa, soft-edged "
                                  "images) is flattened to an image at this resolution (PDF/X-1a has no "
                                  "transparency).")
@click.option("--url-base", default=None, metavar="URL",
              help="tts: the http(s):// or file:// folder the images will be served from, e.g. "
                   "https://example.org/kit/ (default: file URLs of the exported files).")
@talk
@click.pass_obj
def export(project: Project, fmt, game, out, dpi, no_bleed, flatten_ppi, url_base, quiet, verbose):
    """Export card faces: png (one file a face, named by code), tgc / mpc (The Game Crafter,
    MakePlayingCards uploads at their exact pixel sizes), dtc (DriveThruCards PDF/X-1a, a card
    face a page, each card's front then its back) or tts (Tabletop Simulator sheets and a
    saved-object JSON)."""
    from ..export import check_options, export_game
    url_base = check_options(fmt, dpi, url_base)     # once, before any game is drawn
    say = Say(quiet, verbose)
    failed = False
    for name in selected(project, game):
        say.progress(f"exporting {name} as {fmt}", indent="")
        try:
            result = export_game(load(project, name), fmt, out or project.root / "out", dpi, not no_bleed, url_base,
                                 rendered=_counter(say, f"{name}: {fmt}"), flatten_ppi=flatten_ppi)
        except InputError as exc:     # shown now, in order; the next game still exports
            say.input_error(exc, name)
            failed = True
            continue
        say.clear()
        say.out(f"{name}: {result.files} files in {result.folder}")
        say.wrote(sorted(p for p in result.folder.rglob("*") if p.is_file()))
        for note in result.notes:
            if isinstance(note, Notice):      # a template flattened in a PDF/X file: said unless quiet
                if not quiet:
                    say.problem("warning", note, f"{name}: {fmt}")
            elif note.startswith("warning"):
                say.warning(f"  {note}")
            else:
                say.out(f"  {note}")
    if failed:
        raise Reported(InputError.exit_code)


def _counter(say: Say, label: str):
    """The faces an export has drawn of all it draws, shown on the progress line (on a
    terminal only: say.step)."""
    def rendered(done: int, total: int) -> None:
        say.step(label, done, total, "faces drawn")
    return rendered
