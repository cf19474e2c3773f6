"""`pnpgen list`: games, their decks, boards and card counts, as text or JSON."""

from __future__ import annotations

import json

import click

from ..build import Project, load, plan_game
from ..build.printing import kit, printing
from ..game.expand import assign_numbers, expand
from .options import selected
from .say import Say, talk


@click.command(name="list")
@click.argument("game", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@talk
@click.pass_obj
def list_(project: Project, game, as_json, quiet, verbose):
    """List games, their decks and card counts, and how the kit prints: the paper, each
    file's sheets, one- or double-sided and the flip edge (as the rulebook's printing section
    says). With -q, only check that they load: exit status 0, or the errors."""
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
    plan = plan_game(src)
    paper = printing(plan)
    printed = kit(plan, paper)
    for part in decks + boards:
        found = [f for f in printed.files if f.id == part["id"]]
        part["sheets"] = found[0].sheets if found else 0
        part["print"] = printed.print_as(found[0]) if found else None
        part["on"] = [f"{name}.pdf" for name in paper.sharing.files_of(part["id"])]
        part["per_player"] = found[0].per_player or None if found else None
        part["sheets_for_players"] = {str(n): c for n, c in found[0].players.items()} if found else {}
        part["pages_for_players"] = {str(n): p for n, p in found[0].pages_for.items() if p} if found else {}
    return {"id": name, "title": src.game.title, "code": src.game.code,
            "cards": sum(d["cards"] for d in decks), "credits": src.game.credits, "decks": decks,
            "boards": boards, "printing": printed.as_dict(), "sheets_saved": paper.sharing.saved,
            "shared": [{"id": f.id, "file": f.file, "holds": f.holds, "sheets": f.sheets, "print": printed.print_as(f)}
                       for f in printed.files if f.id in {s.name for s in paper.sharing.shared}]}


def _show(g: dict, say: Say) -> None:
    say.out(f"{g['id']}: {g['title']} ({g['code']}), {g['cards']} cards")
    if g["credits"]:
        say.out(f"  {g['credits']}")
    p = g["printing"]
    say.out(f"  print on {p['paper']} at 100 %: {p['card_sheets']} sheet{'s' if p['card_sheets'] != 1 else ''} "
            f"of card stock" + (f" ({g['sheets_saved']} saved by sharing)" if g["sheets_saved"] else "")
            + f", {p['board_sheets']} of paper for boards")
    if p["players"]:
        say.out(f"  for {_player_range(p['players'])} players: " + "; ".join(
            f"{row['players']}: {row['card_sheets']} + {row['board_sheets']}" for row in p["players"]["sheets"])
            + " (sheets of card stock + of paper)")
    for d in g["decks"]:
        w, h = d["size_mm"]
        size = "packed, each at its template's size" if d["packed"] else f"{w:g} x {h:g} mm"
        say.out(f"  {d['id']}: {d['name']}, {d['cards']} cards ({d['distinct']} distinct), "
                f"{size}, back: {d['back'] or 'none'}" + _sheets(d))
        say.detail(f"    from {d['file']}")
    for s in g["shared"]:
        say.out(f"  {s['id']}: {s['holds']}" + _sheets(s))
    for b in g["boards"]:
        w, h = b["size_mm"]
        say.out(f"  {b['id']}: {b['name']}, board {w:g} x {h:g} mm, {b['sides']} side{'s' if b['sides'] > 1 else ''}"
                + (", generated from a seed" if b["generated"] else "") + _sheets(b))


def _player_range(players: dict) -> str:
    low, high = players["min"], players["max"]
    return f"{low}" if low == high else f"{low} to {high}"


def _sheets(part: dict) -> str:
    """'; 9 sheets, double-sided, long-edge flip, card stock' (nothing for an empty deck), and
    how it grows with the players: '; one per player' or '; by player: 2 players pages 1-4'."""
    if not part["sheets"]:
        return f"; on {', '.join(part['on'])}" if part.get("on") else ""
    grows, whose = "", part.get("per_player")     # (a shared file is nobody's)
    if whose == "copy":
        grows = "; one per player"
    elif whose:
        pages = part["pages_for_players"]
        grows = f"; a set per {whose}" + (": " + ", ".join(
            f"{n} players pages {p}" for n, p in pages.items()) if pages else "")
    return f"; {part['sheets']} sheet{'s' if part['sheets'] != 1 else ''}, {part['print']}{grows}"
