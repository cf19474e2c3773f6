"""`pnpgen calibrate`: the duplex calibration sheet that --back-offset is read off."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Project
from .options import FLIP, PAPER
from .say import Say, talk


@click.command()
@click.option("--paper", type=PAPER, default="letter", show_default=True,
              help="Paper the sheet is printed on.")
@click.option("--flip", type=FLIP, default="long", show_default=True,
              help="Duplex flip edge: the one you print cards with.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PDF to write (default: out/calibrate.pdf in the project).")
@talk
@click.pass_obj
def calibrate(project: Project, paper, flip, out, quiet, verbose):
    """Write a duplex calibration sheet: print it duplex, read X and Y off it against a
    window, then build with --back-offset X,Y (or back_offset: [X, Y] in game.yaml)."""
    from ..build.calibrate import write
    from ..presets import home_papers
    say = Say(quiet, verbose)
    target = out or project.root / "out" / "calibrate.pdf"
    write(target, paper, flip)
    say.out(f"wrote {target}: print it duplex ({flip}-edge flip) at 100 %, read X and Y against a window, "
            "then build with --back-offset X,Y")
    w, h = home_papers()[paper]
    say.detail(f"  two pages of {paper} paper ({w:g} x {h:g} mm), the back placed for a {flip}-edge flip")
