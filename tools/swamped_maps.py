"""Generate the 32 map faces of Swamped and the three deck files that carry them.

    python tools/swamped_maps.py                 # print the three deck files
    python tools/swamped_maps.py --seed 7        # another draw
    python tools/swamped_maps.py --write [--force]   # write cards/swamped/decks/*.yaml

The committed deck files are the source of truth: designers edit them by hand, and
`pnpgen check swamped` keeps them honest. This tool is how the first draw was made, and how
to make a fresh one; --write refuses to overwrite the files unless given --force.

Every map is drawn at random (random.Random(seed)) and redrawn until it meets the map rules
of docs/seed-components.md section 1.3: a 6 x 6 grid, rows 3 and 4 open at both side edges,
2-5 straight wall runs of 1-3 segments inside the map, every space reachable from the west
edge, one tiger, the feature mix its card needs (below), no two features in one space."""

from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from pnpgen.maps import gridmap  # noqa: E402

SEED = 1906
SIZE = 6
SYMBOLS = "KRAMTCB^v"
MAP = dict(size=(SIZE, SIZE), symbols=SYMBOLS, border=("N", "S"), openings={"^": "N", "v": "S"})
FALLS = dict(MAP, border=("N",), openings={})   # the Waterfall's bottom edge is the falls: open
OPEN_ROWS = (2, 3)                              # rows 3 and 4, 0-based: every card joins its neighbours
OTHERS = "RAM"                                  # the treasures other than Kingsfoil
WIDTH = 112                                     # YAML line length to aim for


@dataclass
class Want:
    """What one map face must hold, besides one tiger and its walls."""

    croc: bool = False          # a Croc start in column A or B (every Deck and Pounce map)
    boat: bool = False          # the Boat start in column A, row 3 or 4 (start map)
    kingsfoil: int = 0
    others: int = 0             # Root, Exotic Animals, Mushrooms
    exit: bool = False          # an exit arrow on the top or bottom row, never column A
    falls: bool = False         # Waterfall: bottom open, no tiger on row 6, column A kept for the current


# --- drawing one map ------------------------------------------------------------------------

def draw_map(rng: random.Random, want: Want, bag: list[str]) -> tuple[list[str], list[str]]:
    """Rows and walls of one map face meeting `want` and the map rules."""
    treasures = ["K"] * want.kingsfoil + [_take(rng, bag) for _ in range(want.others)]
    while True:
        cells = _place(rng, want, treasures)
        walls = _walls(rng)
        rows = [" ".join(row) for row in cells]
        if not _problems(rows, walls, want):
            return rows, walls


def _take(rng, bag):
    """The next of Root, Exotic Animals, Mushrooms from a shuffled bag, so the deck holds
    about as many of each (the Adventurers' objectives count them)."""
    if not bag:
        bag.extend(rng.sample(OTHERS * 4, len(OTHERS) * 4))
    return bag.pop()


def _place(rng, want, treasures) -> list[list[str]]:
    """The features, each in its own space, within the columns and rows they are allowed."""
    cells = [["."] * SIZE for _ in range(SIZE)]
    free = {(c, r) for c in range(SIZE) for r in range(SIZE)}

    def put(symbol, spaces):
        col, row = rng.choice(sorted(spaces & free))
        cells[row][col] = symbol
        free.discard((col, row))

    everywhere = {(c, r) for c in range(1 if want.falls else 0, SIZE) for r in range(SIZE)}
    if want.boat:
        put("B", {(0, 2), (0, 3)})
    if want.croc:
        put("C", {(c, r) for c in (0, 1) for r in range(SIZE)})
    if want.exit:
        symbol, row = rng.choice([("^", 0), ("v", SIZE - 1)])
        put(symbol, {(c, row) for c in range(1, SIZE)})
    put("T", {(c, r) for c, r in everywhere if not (want.falls and r == SIZE - 1)})
    for symbol in treasures:
        put(symbol, everywhere)
    return cells


def _walls(rng) -> list[str]:
    """2-5 straight runs of 1-3 wall segments inside the map, and now and then a closed
    segment on a side edge outside rows 3-4."""
    walls = []
    for _ in range(rng.randint(2, 5)):
        length = rng.randint(1, 3)
        if rng.random() < 0.5:      # a vertical run: east sides of one column
            col, row = rng.randrange(SIZE - 1), rng.randrange(SIZE - length + 1)
            walls += [f"{gridmap.cell_name(col, row + i)}:E" for i in range(length)]
        else:                       # a horizontal run: south sides along one row
            col, row = rng.randrange(SIZE - length + 1), rng.randrange(SIZE - 1)
            walls += [f"{gridmap.cell_name(col + i, row)}:S" for i in range(length)]
    if rng.random() < 0.3:
        row = rng.choice([r for r in range(SIZE) if r not in OPEN_ROWS])
        col, side = rng.choice([(0, "W"), (SIZE - 1, "E")])
        walls.append(f"{gridmap.cell_name(col, row)}:{side}")
    return walls


def wall_runs(grid: gridmap.GridMap) -> list[int]:
    """The lengths of the maximal straight chains of inner wall segments."""
    lines = {}
    for (x0, y0), (x1, y1) in grid.wall_segments():
        vertical = x0 == x1
        if (x0 in (0, grid.cols) if vertical else y0 in (0, grid.rows)):
            continue    # the outer edge is not an inner wall
        key, pos = ((x0, "|"), y0) if vertical else ((y0, "-"), x0)
        lines.setdefault(key, []).append(pos)
    runs = []
    for positions in lines.values():
        positions.sort()
        length = 1
        for a, b in zip(positions, positions[1:]):
            if b == a + 1:
                length += 1
            else:
                runs.append(length)
                length = 1
        runs.append(length)
    return runs


def _problems(rows, walls, want) -> list[str]:
    """Why a drawn map breaks the map rules (empty when it is fine)."""
    try:
        grid = gridmap.parse(rows, walls, **(FALLS if want.falls else MAP))
    except gridmap.GridError as exc:
        return [str(exc)]   # e.g. two runs that overlap repeat a wall
    out = []
    runs = wall_runs(grid)
    if not 2 <= len(runs) <= 5 or max(runs) > 3:
        out.append(f"wall runs {runs}")
    for side in "WE":
        if not set(OPEN_ROWS) <= set(gridmap.open_edge(grid, side)):
            out.append(f"rows 3-4 closed on {side}")
    starts = [(0, r) for r in gridmap.open_edge(grid, "W")]
    if len(gridmap.reachable(grid, starts)) != SIZE * SIZE:
        out.append("a space cannot be reached")
    return out


# --- the 32 faces ------------------------------------------------------------------------------

COLORS = ["Red", "Blue", "Green", "Yellow"]
DIRECTIONS = {"North": [1, 1, 2, 1], "East": [2, 1, 3, 1], "South": [1, 2, 1, 4], "West": [3, 2, 4, 2]}
CORNERS = ["nw", "ne", "se", "sw"]
LETS_MOVE = 8
EXITS = {"Coordinate": 5, "Let's Move": 3}      # 8 of 24, in proportion, so backs tell nothing
KINGSFOIL = {"Coordinate": 7, "Let's Move": 3}  # 10 of 24 (about 40 %)
POUNCE = [  # title, corner template, pattern (T the tiger, x a space it hits)
    ("Pounce: Sides", "North", [".x.", "xTx", ".x."]),
    ("Pounce: Diagonals", "East", ["x.x", ".T.", "x.x"]),
    ("Pounce: Ring", "South", ["xxx", "xTx", "xxx"]),
    ("Pounce: Long Reach", "West", ["..x..", "..x..", "xxTxx", "..x..", "..x.."]),
]


def deck_cards(rng, bag) -> list[dict]:
    """The 24 Deck cards: 16 Coordinate (4 colours x 4 directions, the white corner turned
    through all four positions in every colour and every direction) and 8 Let's Move."""
    cards = [{"title": f"{color} {direction}", "kind": "Coordinate", "color": color, "direction": direction,
              "corners": corners, "white": CORNERS[(i + j) % 4]}
             for i, color in enumerate(COLORS) for j, (direction, corners) in enumerate(DIRECTIONS.items())]
    cards += [{"title": "Let's Move!", "kind": "Let's Move", "template": "lets-move"} for _ in range(LETS_MOVE)]
    for kind in EXITS:
        members = [c for c in cards if c["kind"] == kind]
        exits = set(map(id, rng.sample(members, EXITS[kind])))
        kings = set(map(id, rng.sample(members, KINGSFOIL[kind])))
        for card in members:
            k = id(card) in kings
            want = Want(croc=True, kingsfoil=int(k), others=rng.randint(1, 3) - k, exit=id(card) in exits)
            card["map"], card["walls"] = draw_map(rng, want, bag)
    return cards


def component_cards(rng, bag) -> dict:
    """The two faces of the starting Map card: the Boat start, one Kingsfoil, no Croc, no exit."""
    front = draw_map(rng, Want(boat=True, kingsfoil=1, others=1), bag)
    back = draw_map(rng, Want(boat=True, kingsfoil=1, others=1), bag)
    return {"map": front[0], "walls": front[1], "back_map": back[0], "back_walls": back[1]}


def expansion_cards(rng, bag) -> list[dict]:
    """4 Pounce cards (maps like the Deck's: one has an exit, two have Kingsfoil) and the two
    Waterfall faces (no exits, no Croc)."""
    exits, kings = rng.sample(range(4), 1), rng.sample(range(4), 2)
    cards = []
    for i, (title, direction, pattern) in enumerate(POUNCE):
        k = i in kings
        rows, walls = draw_map(rng, Want(croc=True, kingsfoil=int(k), others=rng.randint(1, 3) - k,
                                         exit=i in exits), bag)
        cards.append({"title": title, "expansion": "Swamp Tiger", "corners": DIRECTIONS[direction],
                      "white": CORNERS[i], "pattern": pattern, "map": rows, "walls": walls})
    front = draw_map(rng, Want(others=2, falls=True), bag)
    back = draw_map(rng, Want(kingsfoil=1, others=1, falls=True), bag)
    cards.append({"title": "Waterfall", "expansion": "Waterfall", "map": front[0], "walls": front[1],
                  "back_map": back[0], "back_walls": back[1]})
    return cards


# --- writing YAML ----------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 '!-]*")
_RESERVED = {"yes", "no", "y", "n", "true", "false", "on", "off", "null"}


def _q(value) -> str:
    """A YAML scalar: numbers and plain words bare, anything else double-quoted."""
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _RESERVED and not text.endswith(" "):
        return text
    return _quoted(text)


def _quoted(text) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _items(items) -> list[str]:
    """The items of a list, all quoted if any text item needs quotes, so they read alike."""
    shown = [_q(v) for v in items]
    if any(s.startswith('"') for s in shown):
        shown = [_quoted(v) if isinstance(v, str) else s for v, s in zip(items, shown)]
    return shown


def _flow(value) -> str:
    return "[" + ", ".join(_items(value)) + "]" if isinstance(value, list) else _q(value)


def _column(key, items) -> str:
    """`key: [a,` then each further item under the first, so rows line up as on the card."""
    pad = " " * (5 + len(key) + 3)
    return f"{key}: [" + (",\n" + pad).join(items) + "]"


def card_yaml(card: dict) -> str:
    """One card as a flow mapping: the front's fields first, as many to a line as fit, then
    each map as a column of row strings (always quoted), so that the spaces line up as on the
    card. A list too long for its line goes one item per line."""
    parts = []
    for key, value in card.items():
        text = f"{key}: {_flow(value)}"
        if key.endswith("map") or key == "pattern":
            text = _column(key, [_quoted(row) for row in value])
        elif isinstance(value, list) and len(text) + 6 > WIDTH:
            text = _column(key, _items(value))
        parts.append(text)
    lines = [["  - {"]]     # each line: its indent, then its parts
    for part in parts:
        line = lines[-1]
        used = sum(len(p) + 2 for p in line)
        if len(line) > 1 and ("\n" in part or "\n" in line[-1] or used + len(part) > WIDTH):
            lines.append(["     "])
        lines[-1].append(part)
    return ",\n".join(line[0] + ", ".join(line[1:]) for line in lines) + "}"


MAP_KEY_HELP = """\
# A map is 6 row strings, top row first, one symbol per space: . empty, K Kingsfoil, R Root,
# A Exotic Animals, M Mushrooms, T Swamp Tiger, C Croc start, B Boat start, ^ exit off the
# top edge, v exit off the bottom edge. Walls are "<cell>:<side>": column A-F (left to right),
# row 1-6 (top to bottom), side N/E/S/W; "C3:E" and "D3:W" are the same wall. The top and
# bottom edges are swamp bank (closed) except at an exit; the side edges join the next card.
"""
MAP_FIELDS = """\
  map: {type: list, description: "The map: 6 row strings, top row first, one symbol per space"}
  walls: {type: list, default: [], description: "Mangrove walls of the map, as <cell>:<side>"}
"""
PROVENANCE = """\
  provenance:
    choices: [given, partial, recon, absent, ext]
    default: recon
    description: "Where the content comes from: recon = reconstructed for this kit, not in the rulebook"
"""

DECK_HEAD = """\
# Swamped: the Deck. 16 Coordinate cards (4 colours x North/East/South/West) and 8 Let's Move
# cards, each with its own map on the back: the Deck is held and dealt map side up, and the
# Pilot lays these maps out as the Swamp. The corner numbers follow the four templates of
# docs/seed-components.md 1.3, read clockwise from the white corner (North 1,1,2,1 is the
# rulebook's Example 3; the rest is reconstructed). 8 maps carry an exit (5 Coordinate,
# 3 Let's Move) and 10 carry Kingsfoil (7 and 3), in proportion, so a back gives nothing away.
# Maps first drawn by tools/swamped_maps.py; edit them here by hand.
{key}name: "The Deck"
template: coordinate
back: {{template: map, per_card: true}}

fields:
  title: {{required: true, description: "Name on the front: colour and direction of a Coordinate card"}}
  kind: {{required: true, choices: [Coordinate, "Let's Move"], description: "Which front the card has"}}
  color:
    choices: [Red, Blue, Green, Yellow]
    description: "Pile colour of a Coordinate card (white is never a colour: it marks the start corner)"
  direction:
    choices: [North, East, South, West]
    description: "Compass label that tells the four cards of one colour apart"
  corners:
    type: list
    description: "The 4 corner numbers (1-4), read clockwise starting from the white corner"
  white: {{choices: [nw, ne, se, sw], description: "Where the white corner sits on the printed front"}}
{map}{prov}
cards:
"""

COMPONENTS_HEAD = """\
# Swamped: the cards outside the Deck. The starting Map card (a map on each side, with the
# Boat start), the Croc card and the 4 Treasure cards (turned to show a value), 6 Adventurer
# cards (two secret objectives each) and the Pilot card. The Adventurers share the deck's
# back; every other card names its own front and back. Treasure values are the rulebook's
# (0-3 on the front, 4-7 on the back); the Croc values, the Adventurers and the start maps
# are reconstructed (docs/seed-components.md 1.3).
{key}name: "Components"
template: adventurer
back: {{template: adventurer-back}}

fields:
  title: {{required: true, description: "Name on the card"}}
{map}  back_map: {{type: list, description: "Starting Map card: the map on the other side"}}
  back_walls: {{type: list, default: [], description: "Starting Map card: the walls of back_map"}}
  values:
    type: list
    description: "Croc card: the 8 speeds clockwise from the top edge (top, top-right corner, right, ...)"
  labels: {{type: list, description: "Croc card: the difficulty word at each of the 8 positions (empty for none)"}}
  symbol: {{choices: [K, R, A, M], description: "Treasure card: the treasure's map symbol"}}
  edges: {{type: list, description: "Treasure front: the values on its top, right, bottom and left edges"}}
  back_edges:
    type: list
    description: >-
      Treasure back: the values on the back's own top, right, bottom and left edges as printed. The card
      turns over about its vertical axis, so the front's left edge lies behind the back's right edge
  objective_a: {{description: "Adventurer: the first objective (the player scores the higher of the two)"}}
  objective_b: {{description: "Adventurer: the second objective"}}
  privileges: {{type: list, description: "Pilot card front: what the Pilot does, in short lines"}}
  summary: {{type: list, description: "Pilot card back: a turn, step by step"}}
{prov}
cards:
"""

EXPANSIONS_HEAD = """\
# Swamped expansions, left out of the base game. Swamp Tiger: 4 Pounce cards, wild Coordinate
# cards shuffled into the Deck, so they carry a map on the back like every Deck card; each
# shows which spaces around a tiger symbol it hits. Waterfall: 1 double-sided map card laid
# beside the third Swamp card; column A shows the current of each row, the falls are the open
# bottom edge. Side A's current (1,1,2,2,3,3) is the rulebook's; side B, the patterns and the
# maps are reconstructed (docs/seed-components.md 1.3).
{key}name: "Expansions: Swamp Tiger and Waterfall"
template: pounce
back: {{template: map, per_card: true}}

fields:
  title: {{required: true, description: "Name on the card"}}
  expansion: {{required: true, choices: [Swamp Tiger, Waterfall], description: "The module the card belongs to"}}
  corners:
    type: list
    description: "Pounce: the 4 corner numbers (1-4), read clockwise starting from the white corner"
  white: {{choices: [nw, ne, se, sw], description: "Pounce: where the white corner sits on the printed front"}}
  pattern:
    type: list
    description: "Pounce: the spaces hit, as odd-length rows around the tiger: T the tiger (centre), x hit, . safe"
{map}  current: {{type: list, description: "Waterfall side A: the current of rows 1-6, shown in column A"}}
  back_map: {{type: list, description: "Waterfall side B: its map"}}
  back_walls: {{type: list, default: [], description: "Waterfall side B: the walls of back_map"}}
  back_current: {{type: list, description: "Waterfall side B: the current of rows 1-6"}}
{prov}
cards:
"""


def _fixed_components() -> list[dict]:
    """The components whose content is not drawn at random."""
    croc = {"title": "Croc", "template": "croc", "back": "croc-back",
            "values": [1, 2, 2, 3, 3, 4, 4, 5], "labels": ["EASY", "", "MEDIUM", "", "HARD", "", "", ""]}
    treasures = [{"title": name, "template": "treasure", "back": "treasure-back", "symbol": symbol,
                  "edges": [0, 1, 2, 3], "back_edges": [7, 4, 5, 6], "provenance": "partial"}
                 for symbol, name in [("K", "Kingsfoil"), ("R", "Root"), ("A", "Exotic Animals"),
                                      ("M", "Mushrooms")]]
    adventurers = [{"title": t, "objective_a": a, "objective_b": b} for t, a, b in [
        ("Mycologist", "3 points for each Mushroom", "12 points if the team holds 4 or more Mushrooms"),
        ("Zoologist", "3 points for each Exotic Animal", "12 points if the team holds 4 or more Exotic Animals"),
        ("Root Digger", "3 points for each Root", "12 points if the team holds 4 or more Roots"),
        ("Collector", "5 points for each full set of Root, Exotic Animal and Mushroom",
         "1 point for each treasure of any type"),
        ("Company Chemist", "3 points for each Kingsfoil", "2 points for each Mushroom and 1 for each Root"),
        ("Smuggler", "2 points for each Exotic Animal and each Mushroom",
         "2 points for each Root and each Exotic Animal"),
    ]]
    pilot = {"title": "Pilot", "template": "pilot", "back": "pilot-back", "provenance": "partial",
             "privileges": ["Takes the first turn of each round",
                            "Gets 2 extra cards and adds 2 maps to the Swamp",
                            "Moves the Boat 1 extra space after a Let's Move",
                            "Moves the Boat 2 spaces, not 1, after a discard",
                            "Moves the Croc",
                            "Breaks every tie"],
             "summary": ["Play a card from your hand, or discard one",
                         "Coordinate: start a pile in a new colour, or raise your corner on its colour's pile",
                         "Let's Move: first pass the Pilot token clockwise",
                         "then, from the white corner, each player moves the Boat up to their number",
                         "Discard: move the Boat 1 (Pilot 2), turn a pile, or hand on the Pilot token",
                         "After a Let's Move or a discard, the Croc moves",
                         "Draw a card"]}
    return [croc, *treasures, *adventurers, pilot]


def render_files(seed: int) -> dict[str, str]:
    """{file name: text} for the three deck files, from one seed."""
    rng = random.Random(seed)
    bag: list[str] = []
    fmt = dict(key=MAP_KEY_HELP, map=MAP_FIELDS, prov=PROVENANCE)
    deck = deck_cards(rng, bag)
    start = dict(title="Starting Map", template="start-map", back="start-map-b", **component_cards(rng, bag))
    expansions = expansion_cards(rng, bag)
    falls = expansions[-1]
    falls.update(template="waterfall", back="waterfall-b", provenance="partial",
                 current=[1, 1, 2, 2, 3, 3], back_current=[1, 2, 2, 3, 3, 4])
    falls = {k: falls[k] for k in ["title", "template", "back", "expansion", "provenance",
                                   "map", "walls", "current", "back_map", "back_walls", "back_current"]}
    expansions[-1] = falls
    coordinate = [c for c in deck if c["kind"] == "Coordinate"]
    return {
        "deck.yaml": DECK_HEAD.format(**fmt) + "  # Coordinate cards\n" + _cards(coordinate)
        + "\n  # Let's Move cards: one entry each, as every one has its own map\n"
        + _cards([c for c in deck if c not in coordinate]),
        "components.yaml": COMPONENTS_HEAD.format(**fmt) + "  # Starting Map card (double-sided)\n"
        + _cards([start]) + "\n" + _components_text(),
        "expansions.yaml": EXPANSIONS_HEAD.format(**fmt) + "  # Swamp Tiger: Pounce cards\n"
        + _cards(expansions[:-1]) + "\n  # Waterfall (double-sided)\n" + _cards(expansions[-1:]),
    }


def _components_text() -> str:
    fixed = _fixed_components()
    groups = [("Croc card: turn it so the active speed faces the Swamp", fixed[:1]),
              ("Treasure cards: turn them so the team's count faces the Swamp", fixed[1:5]),
              ("Adventurer cards (share the deck's back)", fixed[5:11]),
              ("Pilot card", fixed[11:])]
    return "\n".join(f"  # {title}\n" + "\n".join(card_yaml(c) for c in cards) + "\n" for title, cards in groups)


def _cards(cards) -> str:
    return "\n".join(card_yaml(c) for c in cards) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--write", action="store_true", help="write cards/swamped/decks/*.yaml")
    parser.add_argument("--force", action="store_true", help="with --write: overwrite existing files")
    args = parser.parse_args(argv)
    files = render_files(args.seed)
    if not args.write:
        for name, text in files.items():
            print(f"# ---- cards/swamped/decks/{name}\n{text}")
        return 0
    folder = ROOT / "cards" / "swamped" / "decks"
    existing = [n for n in files if (folder / n).exists()]
    if existing and not args.force:
        print(f"not overwriting {', '.join(existing)} (hand edits would be lost); use --force", file=sys.stderr)
        return 1
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
        print(f"wrote {folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
