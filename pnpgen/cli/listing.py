"""`pnpgen list`: games, their decks, boards and card counts, as text or JSON."""

from __future__ import annotations

import json

import click

from ..build import Project, load
from ..game.expand import assign_numbers, expand
from .options import selected
from .say import Say, talk


@click.command(name="list")
@click.argument("game", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@talk
@click.pass_obj
def list_(project: Project, game, as_json, quiet, verbose):
    """List games, their decks and card counts (with -q, only check that they load: exit
    status 0, or the errors)."""
    data = [_game(project, name) for name in selected(project, game)]
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    say = Say(quiet, verbose)
    for g in data:
        _show(g, say)


def _game(project: Project, name: str) -> dict:
    src = load(project, name)
    numbers = assign_numbers(src)
    decks = []
    for deck in src.decks:
        cards = expand(src, deck, numbers)
        own = any(c.back for c in deck.cards)
        back = deck.deck.back
        decks.append({"id": deck.id, "name": deck.deck.name, "file": src.rel(deck.doc.path), "cards": len(cards),
                      "distinct": len(deck.cards), "size_mm": list(deck.size), "packed": deck.deck.pack,
                      "back": ("per card" if back.per_card else "common" + (" and per card" if own else ""))
                      if back else ("per card" if own else None)})
    boards = [{"id": b.id, "name": b.board.name, "size_mm": list(b.board.size),
               "sides": 2 if b.board.back else 1, "generated": b.board.hexmap is not None}
              for b in src.boards]
    return {"id": name, "title": src.game.title, "code": src.game.code,
            "cards": sum(d["cards"] for d in decks), "credits": src.game.credits, "decks": decks,
            "boards": boards}


def _show(g: dict, say: Say) -> None:
    say.out(f"{g['id']}: {g['title']} ({g['code']}), {g['cards']} cards")
    if g["credits"]:
        say.out(f"  {g['credits']}")
    for d in g["decks"]:
        w, h = d["size_mm"]
        size = "packed, each at its template's size" if d["packed"] else f"{w:g} x {h:g} mm"
        say.out(f"  {d['id']}: {d['name']}, {d['cards']} cards ({d['distinct']} distinct), "
                f"{size}, back: {d['back'] or 'none'}")
        say.detail(f"    from {d['file']}")
    for b in g["boards"]:
        w, h = b["size_mm"]
        say.out(f"  {b['id']}: {b['name']}, board {w:g} x {h:g} mm, {b['sides']} side{'s' if b['sides'] > 1 else ''}"
                + (", generated from a seed" if b["generated"] else ""))
