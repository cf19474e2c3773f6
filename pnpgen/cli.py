"""The `pnpgen` command: thin click wrappers over pnpgen.build."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import __version__
from .build import Options, Project, build_game, games, load
from .errors import InputError
from .expand import assign_numbers, expand


def _fail(exc: InputError):
    for problem in exc.problems:
        click.echo(str(problem), err=True)
    sys.exit(2)


def _selected(project: Project, names: tuple[str, ...]) -> list[str]:
    available = games(project)
    if not names:
        if not available:
            _fail(InputError.at(str(project.cards), None, "no games found: add cards/<game>/game.yaml"))
        return available
    return list(names)


@click.group()
@click.version_option(__version__, prog_name="pnpgen")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Project folder holding cards/ and templates/.")
@click.pass_context
def main(ctx, root):
    """Turn YAML card databases into cut-ready print-and-play PDFs."""
    ctx.obj = Project(root)


@main.command()
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project).")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None, help="Override each game's paper.")
@click.option("--flip", type=click.Choice(["long", "short"]), default=None,
              help="Duplex flip edge the backs are placed for (default: the game's, usually long).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
@click.pass_obj
def build(project: Project, game, out, paper, flip, quiet):
    """Build every game (or the GAMEs named) into out/<game>/<deck>.pdf."""
    talk = not quiet and sys.stderr.isatty()
    options = Options(out=out or project.root / "out", paper=paper, flip=flip,
                      progress=(lambda m: click.echo(f"  {m}", err=True)) if talk else (lambda m: None))
    failed = False
    for name in _selected(project, game):
        if talk:
            click.echo(f"building {name}", err=True)
        try:
            results = build_game(project, name, options)
        except InputError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            failed = True
            continue
        for r in results:
            for w in r.warnings:
                click.echo(f"warning: {r.path}: {w}", err=True)
            if talk:
                click.echo(f"  wrote {r.path}: {r.cards} cards on {r.sheets} sheets "
                           f"({r.per_sheet} per sheet, {r.pages} pages)", err=True)
    if failed:
        sys.exit(2)


@main.command(name="list")
@click.argument("game", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def list_(project: Project, game, as_json):
    """List games, their decks and card counts."""
    data = []
    try:
        for name in _selected(project, game):
            src = load(project, name)
            numbers = assign_numbers(src)
            decks = []
            for deck in src.decks:
                cards = expand(src, deck, numbers)
                decks.append({"id": deck.id, "name": deck.deck.name, "cards": len(cards),
                              "distinct": len(deck.cards), "size_mm": list(deck.size),
                              "back": None if not deck.deck.back else
                              ("per card" if deck.deck.back.per_card else "common")})
            data.append({"id": name, "title": src.game.title, "code": src.game.code,
                         "cards": sum(d["cards"] for d in decks), "decks": decks})
    except InputError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for g in data:
        click.echo(f"{g['id']}: {g['title']} ({g['code']}), {g['cards']} cards")
        for d in g["decks"]:
            w, h = d["size_mm"]
            click.echo(f"  {d['id']}: {d['name']}, {d['cards']} cards ({d['distinct']} distinct), "
                       f"{w:g} x {h:g} mm, back: {d['back'] or 'none'}")


if __name__ == "__main__":  # pragma: no cover
    main()
