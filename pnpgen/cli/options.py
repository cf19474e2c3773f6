"""What several commands share: the games a command runs on, and options parsed alike."""

from __future__ import annotations

import click

from .. import presets
from ..build import Project, games
from ..errors import InputError


def selected(project: Project, names: tuple[str, ...]) -> list[str]:
    """The GAMEs named, or every game of the project (none at all is bad input)."""
    available = games(project)
    if not names:
        if not available:
            raise InputError.at(str(project.cards), None, "no games found: add cards/<game>/game.yaml")
        return available
    return list(names)


def back_offset(ctx, param, value):
    """--back-offset X,Y -> (x, y) mm, or a usage error (exit 2) saying what is wrong."""
    if value is None:
        return None
    from ..build.calibrate import parse_offset
    try:
        return parse_offset(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def load_layout(layout):
    """--layout NAME|FILE -> the checked sheet layout (None stays None)."""
    if layout is None:
        return None
    from ..sheets.custom_layout import load
    return load(layout)


PAPER = click.Choice(list(presets.home_papers()))
"""--paper: the papers a home printer takes (presets/sizes.yaml `papers:`)."""
POSTER = click.Choice(list(presets.posters()))
"""--poster: the poster sizes a print shop prints a board whole on (presets/sizes.yaml `posters:`)."""
FLIP = click.Choice(["long", "short"])
"""--flip: the duplex flip edge."""


def annotation(level: str, path: str, line, title: str, message: str) -> str:
    """A GitHub Actions workflow command: ::error file=...,line=...,title=...::message"""
    def prop(value):
        return str(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A") \
            .replace(":", "%3A").replace(",", "%2C")
    data = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    where = f"file={prop(path)}" + (f",line={line}" if line else "")
    return f"::{level} {where},title={prop(title)}::{data}"
