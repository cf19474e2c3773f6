"""Sheets for each player count: game.yaml `players`, decks and boards marked `per_player`, and
the rulebook's printing section and `pnpgen list` telling how many sheets (and which pages of
a file of player sets) each count needs, read off the build's own sheet plan: checked here
against the pages the build wrote."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import page_texts
from .test_rulebook_printing import RULES, section_of, sheets_of

GAME = "title: Mini\ncode: MIN\nplayers: 2-4\n"
COLOURS = ["Red", "Blue", "Green", "Yellow"]
HANDS = ("name: Hands\ntemplate: face\nper_player: who\nfields:\n  title: {required: true}\n  who: {}\ncards:\n"
         + "".join(f"  - {{title: {c} {i}, who: {c}}}\n" for c in COLOURS for i in range(1, 10))
         + "  - {title: Shared 1}\n  - {title: Shared 2}\n")
MATS = ("name: Mats\ntemplate: face\nper_player: true\nfields:\n  title: {required: true}\ncards:\n"
        + "".join(f"  - {{title: Mat {i}}}\n" for i in range(1, 11)))
FACE = """size: poker
elements:
  - text: {x: 5, y: 5, w: 53, h: 10, text: "{{ title }}", size: 12}
"""


def build_players(tmp_path, game: str = GAME):
    folder = make_game(tmp_path, game, HANDS, {"face": FACE}, deck_id="hands")
    (folder / "decks" / "mats.yaml").write_text(MATS)
    (folder / "rulebook.md").write_text(RULES)
    return {r.id: r for r in build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))}


def listed_pages(text: str, file: str, n: int) -> list[int] | None:
    """The pages of `file` the section says `n` players print (None: all of it)."""
    line = text[text.index(f"{file} holds a set for each player"):]
    line = line[:line.index(".", line.index(":"))]
    found = re.search(rf"for {n} players print pages ([-\d, ]+) \(", line)
    if found is None:
        assert re.search(rf"for ({n}|\d+ or more) players all of it", line), line
        return None
    pages = []
    for span in found[1].split(","):
        low, _, high = span.strip().partition("-")
        pages += range(int(low), int(high or low) + 1)
    return pages


def table_row(text: str, n: int) -> tuple[int, ...]:
    """The sheets the section's table gives for `n` players (card stock, and board paper)."""
    row = re.search(rf"Card stock(?: Paper for boards)? .*?\b{n} (\d+) sheets?(?: (\d+) sheets?)?", text)
    return tuple(int(v) for v in row.groups() if v is not None)


def needed(pages: list[str], n: int) -> list[int]:
    """The pages (1-based) of the built hands.pdf that hold a card of the first `n` colours or a
    shared card: read off the PDF's text."""
    return [i for i, page in enumerate(pages, 1)
            if "Shared" in page or any(f"{c} {k}" in page for c in COLOURS[:n] for k in range(1, 10))]


def test_a_deck_of_player_sets_prints_only_the_pages_of_the_players_at_the_table(tmp_path):
    built = build_players(tmp_path)
    text = section_of(built["rulebook"].path)
    pages = [" ".join(t.split()) for t in page_texts(built["hands"].path)]
    mats = len(PdfReader(built["mats"].path).pages)
    for n in (2, 3, 4):
        want = needed(pages, n)
        assert listed_pages(text, "hands.pdf", n) == (None if len(want) == len(pages) else want), n
        printed = " ".join(pages[p - 1] for p in want)
        assert all(f"{c} {i}" in printed for c in COLOURS[:n] for i in range(1, 10))
        assert table_row(text, n) == (len(want) + n * mats,)
    assert len(needed(pages, 2)) < len(pages)       # 2 players leave some pages out
    assert f"mats.pdf is one player’s: print it once for each player ({mats} sheets each)" in text


def test_list_gives_the_same_counts_as_the_rulebook(tmp_path):
    built = build_players(tmp_path)
    text = section_of(built["rulebook"].path)
    pages = [" ".join(t.split()) for t in page_texts(built["hands"].path)]
    ran = pnpgen("list", "mini", "--json", cwd=tmp_path)
    assert ran.returncode == 0
    listed = json.loads(ran.stdout)[0]
    rows = listed["printing"]["players"]
    assert (rows["min"], rows["max"]) == (2, 4)
    for row in rows["sheets"]:
        assert table_row(text, row["players"]) == (row["card_sheets"],) and row["board_sheets"] == 0
    hands = [d for d in listed["decks"] if d["id"] == "hands"][0]
    two = ", ".join(str(p) for p in needed(pages, 2))
    assert hands["per_player"] == "who" and hands["sheets_for_players"]["2"] == len(needed(pages, 2))
    assert hands["pages_for_players"]["2"].replace("-", ", ") in (two, _spans_as_list(hands, pages))
    shown = pnpgen("list", "mini", cwd=tmp_path).stdout
    assert "for 2 to 4 players: 2: " in shown and f"a set per who: 2 players pages {hands['pages_for_players']['2']}" in shown
    assert "mats: Mats" in shown and "; one per player" in shown


def _spans_as_list(part: dict, pages: list[str]) -> str:
    """list's '1-3, 5' written out ('1, 2, 3, 5') when it matches the pages the PDF says."""
    out = []
    for span in part["pages_for_players"]["2"].split(","):
        low, _, high = span.strip().partition("-")
        out += range(int(low), int(high or low) + 1)
    assert out == needed(pages, 2)
    return part["pages_for_players"]["2"].replace("-", ", ")


def test_without_players_the_section_gives_one_copy_only(tmp_path):
    built = build_players(tmp_path, "title: Mini\ncode: MIN\n")
    text = section_of(built["rulebook"].path)
    assert "Sheets for each player count" not in text and "for 2 players" not in text
    one = build_players(tmp_path / "one", "title: Mini\ncode: MIN\nplayers: 3\n")
    text = section_of(one["rulebook"].path)
    pages = [" ".join(t.split()) for t in page_texts(one["hands"].path)]
    assert "The game is for 3 players." in text
    assert table_row(text, 3) == (len(needed(pages, 3)) + 3 * sheets_of(one["mats"]),)


def test_swarm_aids_for_fewer_players_leave_out_the_others_trackers(built, project):
    results = {r.id: r for r in built["swarm"]}
    text = section_of(results["rulebook"].path)
    pages = [" ".join(t.split()) for t in page_texts(results["aids"].path)]
    for n in range(2, 6):
        chosen = listed_pages(text, "aids.pdf", n)
        printed = " ".join(pages[p - 1] for p in chosen)
        assert [k for k in range(1, 7) if f"PLAYER {k} ATTRIBUTE TRACKER" in printed] == list(range(1, n + 1))
        assert "TURN ORDER" in printed
    assert listed_pages(text, "aids.pdf", 6) is None


def test_swamp_monsters_counts_a_deck_aids_and_playmat_for_each_player(built):
    results = {r.id: r for r in built["swamp-monsters"]}
    text = section_of(results["rulebook"].path)
    own = sheets_of(results["main"]) + sheets_of(results["aids"])
    shared = sheets_of(results["champions"]) + sheets_of(results["markers"])
    mat = len(PdfReader(results["swamp"].path).pages)
    for n in range(2, 7):
        assert table_row(text, n) == (shared + n * own, n * mat), n
    assert "The game is for 2 to 6 players." in text


def test_bad_player_counts_are_located_errors(tmp_path):
    make_game(tmp_path, "title: Mini\ncode: MIN\nplayers: 5-2\n", HANDS, {"face": FACE}, deck_id="hands")
    ran = pnpgen("list", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "cards/mini/game.yaml:3:" in ran.stderr and "min (5) is above max (2)" in ran.stderr
    make_game(tmp_path, "title: Mini\ncode: MIN\nplayers: lots\n", HANDS, {"face": FACE}, deck_id="hands")
    ran = pnpgen("list", cwd=tmp_path)
    assert ran.returncode == 2 and "cards/mini/game.yaml:3:" in ran.stderr and "write e.g. 2-4" in ran.stderr
    make_game(tmp_path, GAME, HANDS.replace("per_player: who", "per_player: whom"), {"face": FACE}, deck_id="hands")
    ran = pnpgen("list", cwd=tmp_path)
    assert ran.returncode == 2 and "cards/mini/decks/hands.yaml" in ran.stderr
    assert "per_player: 'whom' is not one of the deck's fields (title, who)" in ran.stderr


def figure_labels(path) -> dict:
    """{page name: (taping number, x, y)} of the '3: A2' labels of the printing section's
    board figure, read off the rulebook's last pages (points, y up)."""
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(str(path))
    out = {}
    try:
        for i in range(len(pdf)):
            textpage = pdf[i].get_textpage()
            text = textpage.get_text_range()
            if not re.search(r"order\s+to\s+tape", text):
                continue
            for found in re.finditer(r"(\d+): ([A-Z]+\d+)", text):
                boxes = [textpage.get_charbox(k) for k in range(found.start(), found.end())]
                out[found[2]] = (int(found[1]), (boxes[0][0] + boxes[-1][2]) / 2, (boxes[0][1] + boxes[0][3]) / 2)
    finally:
        pdf.close()
    return out


def test_the_tiled_board_figure_names_the_pages_the_board_prints_and_the_order_to_tape_them(built):
    results = {r.id: r for r in built["swamp-fox"]}
    printed = [found.groups() for text in page_texts(results["board"].path)
               for found in [re.search(r"page ([A-Z]+)(\d+) \(column", text)] if found]
    labels = figure_labels(results["rulebook"].path)
    assert sorted(labels) == sorted(f"{c}{r}" for c, r in printed) and len(labels) == 9
    rows = sorted({int(r) for _, r in printed})
    cols = sorted({c for c, _ in printed})
    order = [f"{c}{r}" for r in rows for c in cols]           # row by row from the top left
    assert [labels[name][0] for name in order] == list(range(1, len(order) + 1))
    for name in order:                                        # each where its page is on the board
        number, x, y = labels[name]
        col, row = cols.index(name[:-1]), rows.index(int(name[-1]))
        if col:
            assert x > labels[f"{cols[col - 1]}{name[-1]}"][1]
        if row:
            assert y < labels[f"{name[:-1]}{rows[row - 1]}"][2]


def test_a_standee_deck_gets_a_folding_figure_at_its_own_folds(built):
    results = {r.id: r for r in built["swamp-fox"]}
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(str(results["rulebook"].path))
    try:
        pages = [pdf[i].get_textpage() for i in range(len(pdf))]
        texts = [p.get_text_range() for p in pages]
        (at,) = [i for i, t in enumerate(texts) if "fold: the top" in t]
        text, textpage = texts[at], pages[at]
        ys = [textpage.get_charbox(m.start())[1] for m in re.finditer(r"(?m)^fold(?:: the top)?\r?$", text)]
    finally:
        pdf.close()
    assert "tabs out: the base" in text and "glue" in text and len(ys) == 3
    top, middle, bottom = sorted(ys, reverse=True)       # the standee's folds at 4.5, 49.5 and 94.5 mm
    assert (top - middle) / (top - bottom) == pytest.approx((49.5 - 4.5) / (94.5 - 4.5), abs=0.02)
    assert all("Folding the standees" not in t for t in page_texts(
        [r for r in built["swarm"] if r.id == "rulebook"][0].path))


def test_the_spinner_is_shown_mounted_on_a_pencil_with_a_paper_clip(built):
    results = {r.id: r for r in built["swamp-fox"]}
    pages = [" ".join(t.split()) for t in page_texts(results["rulebook"].path)]
    (at,) = [i for i, t in enumerate(pages) if "flick the clip, and its far end points to the spin" in t]
    shown = pages[at][max(0, pages[at].index("The spinner of tokens.pdf") - 400):]
    assert shown.count("HIT") >= 6 and shown.count("MISS") >= 6          # the dial's own art, drawn by its template
    assert any("Mounting the spinner" in t and "paper clip" in t for t in pages[at - 1:at + 1])
    assert all("Mounting the spinner" not in t for t in page_texts(
        [r for r in built["swarm"] if r.id == "rulebook"][0].path))
