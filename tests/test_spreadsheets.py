"""Spreadsheet decks: a deck's `cards:` names a .csv, .xlsx or .ods card sheet, whose cells
are typed by the deck's fields; the cards print as a YAML deck's would, every bad cell is
named as a spreadsheet names it, hostile workbooks are refused before they are read, an
edited cell lays out only its own sheet again, and `pnpgen pull` fetches a sheet from its
`source:` address."""

from __future__ import annotations

import datetime
import re
import http.server
import os
import random
import json
import shutil
import threading
import zipfile
from pathlib import Path

import pytest

from pnpgen.build import Options, Project, build_game
from pnpgen.preview.live import Live
from pnpgen.preview.watch import affected
from pnpgen.sources import remote

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import page_texts
from .sheetfiles import write_csv, write_ods, write_xlsx

ROOT = Path(__file__).resolve().parent.parent
GAME = "title: Sheet Game\ncode: SG\n"
FACE = """size: poker
elements:
  - text: {x: 4, y: 6, w: 55, h: 8, text: "{{ title }} | cost {{ cost }} | power {{ power }} | rare {{ rare }}", size: 6}
  - text: {x: 4, y: 20, w: 55, h: 8, text: "tags {{ tags | join('+') }}", size: 6}
"""
DECK = """name: Sheet deck
template: face
fields:
  title: {required: true}
  cost: {type: int, default: 0}
  power: {type: number, default: 1}
  rare: {type: bool, default: false}
  tags: {type: list, default: []}
cards: {cards}
"""
HEADER = ["title", "cost", "power", "rare", "tags", "count"]
ROWS = [["Fox", 3.0, 2.5, True, "quick|sly", 2],      # 3.0 in a whole-number field prints 3
        ["Owl", None, 4, "no", None, None],           # empty cells: the fields' defaults, one copy
        [None, None, None, None, None, None],         # an empty row between cards is skipped
        ["Élan", 12, 0.25, False, "wild", 1]]


def sheet_game(root: Path, cards: str, extra: str = "") -> Path:
    return make_game(root, GAME, DECK.replace("{cards}", cards) + extra, {"face": FACE})


def card_texts(root: Path) -> list[str]:
    result = pnpgen("build", "--out", root / "out", cwd=root)
    assert result.returncode == 0, result.stderr
    return page_texts(root / "out" / "mini" / "deck.pdf")


def assert_cards_printed(text: str) -> None:
    assert text.count("Fox | cost 3 | power 2.5 | rare True") == 2        # count 2: two copies
    assert text.count("tags quick+sly") == 2
    assert text.count("Owl | cost 0 | power 4 | rare False") == 1
    assert text.count("Élan | cost 12 | power 0.25 | rare False") == 1 and "tags wild" in text
    assert [code for code in ("SG-001", "SG-002", "SG-003") if code in text] == ["SG-001", "SG-002", "SG-003"]
    assert "SG-004" not in text


def test_an_xlsx_deck_builds_its_cards_from_the_named_sheet(tmp_path):
    folder = sheet_game(tmp_path, "cards.xlsx", "sheet: Cards\n")
    write_xlsx(folder / "cards.xlsx", {"Notes": [["nothing", "here"]], "Cards": [HEADER, *ROWS]})
    (text,) = card_texts(tmp_path)
    assert_cards_printed(text)


def test_an_ods_deck_builds_from_its_first_sheet(tmp_path):
    folder = sheet_game(tmp_path, "cards.ods")
    write_ods(folder / "cards.ods", {"Cards": [HEADER, *ROWS, [(None, 900)]], "Other": [["title"], ["x"]]},
              row_repeats={len(ROWS) + 1: 50_000})     # the trailing empty rows LibreOffice writes
    (text,) = card_texts(tmp_path)
    assert_cards_printed(text)


@pytest.mark.parametrize("separator, bom", [(";", True), (",", False), (",", True)])
def test_a_csv_deck_with_or_without_a_bom_and_comma_or_semicolon(tmp_path, separator, bom):
    folder = sheet_game(tmp_path, "decks/cards.csv")
    rows = [[("true" if v is True else "" if v is None else v) for v in row] for row in ROWS]
    write_csv(folder / "decks" / "cards.csv", [HEADER, *rows], separator, bom)
    (text,) = card_texts(tmp_path)
    assert_cards_printed(text)


def errors_of(root: Path) -> list[str]:
    result = pnpgen("build", "--out", root / "out", cwd=root)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert not (root / "out" / "mini" / "deck.pdf").exists()
    return result.stderr.strip().splitlines()


def test_a_bad_xlsx_cell_is_named_by_sheet_column_and_row(tmp_path):
    folder = sheet_game(tmp_path, "cards.xlsx")
    bad = [["Fox", "two", 1, "maybe", None, None], ["Owl", 1, "lots", True, None, 5000], [None, 2, 1, None, None, None]]
    write_xlsx(folder / "cards.xlsx", {"My Cards": [HEADER, *bad]})
    assert errors_of(tmp_path) == [
        "cards/mini/cards.xlsx: 'My Cards'!B2 (cost): expected a whole number, got 'two'",
        "cards/mini/cards.xlsx: 'My Cards'!D2 (rare): expected true or false (or yes / no), got 'maybe'",
        "cards/mini/cards.xlsx: 'My Cards'!C3 (power): expected a number, got 'lots'",
        "cards/mini/cards.xlsx: 'My Cards'!F3 (count): expected a whole number from 0 to 1000, got 5000",
        "cards/mini/cards.xlsx: 'My Cards'!A4 (title): required field is empty; give it a value"]


def test_a_bad_csv_cell_and_an_unknown_column_are_named_as_a_csv_reader_sees_them(tmp_path):
    folder = sheet_game(tmp_path, "cards.csv")
    write_csv(folder / "cards.csv", [["title", "cots", "power"], ["Fox", "1", "2"], ["Owl", "2", "x"]])
    assert errors_of(tmp_path) == [
        "cards/mini/cards.csv: row 1, column B: unknown column 'cots' (did you mean 'cost'?); name each column "
        "after a field declared under fields: in the deck file (or count, template, back, number)",
        "cards/mini/cards.csv: row 3, column power: expected a number, got 'x'"]


@pytest.mark.parametrize("deck, files, message", [
    ("cards.xlsx\nsheet: Crads", {"cards.xlsx": {"Cards": [["title"], ["x"]]}},
     "cards/mini/cards.xlsx: no sheet 'Crads' in this workbook (did you mean 'Cards'?)"),
    ("../outside.csv", {}, "cards/mini/decks/deck.yaml:9: cards: '../outside.csv' points outside the game folder"),
    ("missing.csv", {}, "cards/mini/decks/deck.yaml:9: cards: card sheet 'missing.csv' not found"),
    ("cards.txt", {}, "cards/mini/decks/deck.yaml:9: cards: 'cards.txt' is not a card sheet"),
    ("cards.csv", {"cards.csv": b"title\n\xff\xfeFox\n"}, "cards/mini/cards.csv: byte 7 is not UTF-8 text"),
    ("cards.csv", {"cards.csv": b"cost\n1\n"}, "cards/mini/cards.csv: row 1: no column 'title', a required field"),
    ("cards.xlsx", {"cards.xlsx": b"not a zip"}, "cards/mini/cards.xlsx: it is not a readable XLSX workbook"),
])
def test_a_card_sheet_that_cannot_be_read_is_refused_at_its_file(tmp_path, deck, files, message):
    folder = sheet_game(tmp_path, deck)
    (tmp_path / "cards" / "outside.csv").write_text("title\nFox\n")
    for name, content in files.items():
        if isinstance(content, bytes):
            (folder / name).write_bytes(content)
        else:
            write_xlsx(folder / name, content)
    (first, *_) = errors_of(tmp_path)
    assert first.startswith(message), first


def test_formulas_read_as_their_saved_values_and_dates_as_iso_dates(tmp_path):
    folder = sheet_game(tmp_path, "cards.xlsx")
    deck = folder / "decks" / "deck.yaml"
    deck.write_text(deck.read_text().replace("  tags:", "  when: {}\n  tags:"))
    face = tmp_path / "templates" / "mini" / "face.yaml"
    face.write_text(FACE.replace("tags {{ tags | join('+') }}", "on {{ when }} power {{ power }}"))
    write_xlsx(folder / "cards.xlsx", {"Cards": [["title", "cost", "when", "power"],
                                                 ["Fox", "=1+2", datetime.date(2026, 11, 25), "=0.1+0.2"],
                                                 ["Owl", 2, datetime.datetime(2026, 1, 2, 13, 30), 4]]})
    # openpyxl writes a formula without the value a spreadsheet program saves beside it: put those in
    with zipfile.ZipFile(folder / "cards.xlsx") as book:
        parts = {name: book.read(name) for name in book.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    # (an empty <v> is written <v />, <v/> or <v></v>, as the XML writer openpyxl finds has it)
    for formula, value in ((b"1+2", b"3"), (b"0.1+0.2", b"0.30000000000000004")):
        parts[sheet], found = re.subn(rb"<f>" + re.escape(formula) + rb"</f><v\s*(/>|></v>)",
                                      b"<f>" + formula + b"</f><v>" + value + b"</v>", parts[sheet])
        assert found == 1, parts[sheet]
    with zipfile.ZipFile(folder / "cards.xlsx", "w") as book:
        for name, data in parts.items():
            book.writestr(name, data)
    (text,) = card_texts(tmp_path)
    assert "Fox | cost 3 | power 0.3" in text and "on 2026-11-25" in text
    assert "Owl | cost 2 | power 4" in text and "on 2026-01-02T13:30:00" in text


def test_columns_without_a_name_or_with_a_name_twice(tmp_path):
    folder = sheet_game(tmp_path, "cards.csv")
    write_csv(folder / "cards.csv", [["title", "", "cost", "cost"], ["Fox", "", "1", "1"], ["Owl", "", "2", "2", "x"]])
    assert errors_of(tmp_path) == [
        "cards/mini/cards.csv: row 1, column D: a second column named 'cost' (the first is column C); column "
        "names must differ",
        "cards/mini/cards.csv: row 3, column E: this column has no name in the first row; name it after a field, "
        "or clear it"]


def test_a_csv_past_the_row_limit_is_refused(tmp_path):
    folder = sheet_game(tmp_path, "cards.csv")
    (folder / "cards.csv").write_text("title\n" + "Fox\n" * 20_001)
    assert errors_of(tmp_path) == ["cards/mini/cards.csv: more than 20,001 rows; a deck holds at most 20,000 "
                                   "cards: split it into several decks"]


def test_a_workbook_whose_cells_reach_far_is_refused_before_it_is_read(tmp_path):
    """calamine would ask for one cell block from A1 to XFD1048576 (half a terabyte) and end
    the process: the guard refuses the 5 KB file first."""
    folder = sheet_game(tmp_path, "cards.xlsx")
    write_xlsx(folder / "cards.xlsx", {"Cards": [["title"], ["Fox"]]})
    import openpyxl
    book = openpyxl.load_workbook(folder / "cards.xlsx")
    book["Cards"]["XFD1048576"] = "far"
    book.save(folder / "cards.xlsx")
    assert (folder / "cards.xlsx").stat().st_size < 10_000
    assert errors_of(tmp_path) == ["cards/mini/cards.xlsx: a sheet reaches row 1,048,576 and column 16,384; a card "
                                   "sheet may have at most 20,001 rows and 100 columns: clear the cells beyond the cards"]
    write_xlsx(folder / "cards.xlsx", {"Cards": [["title"], ["Fox"]]})     # the reader takes the last of two r=
    rewrite_parts(folder / "cards.xlsx", lambda name, data: data.replace(b'<c r="A2"', b'<c r="A2" r="XFD1048576"'))
    assert errors_of(tmp_path)[0].startswith("cards/mini/cards.xlsx: a sheet reaches row 1,048,576 and column 16,384")
    write_ods(folder / "cards.ods", {"Cards": [["title"], ["Fox", ("x", 16_000)]]}, row_repeats={1: 1_000_000})
    (folder / "decks" / "deck.yaml").write_text(DECK.replace("{cards}", "cards.ods"))
    assert errors_of(tmp_path)[0].startswith("cards/mini/cards.ods: a sheet reaches row 1,000,001 and column 16,001")


def rewrite_parts(path: Path, change) -> None:
    """Rewrite a workbook's archive, each part's bytes through `change(name, data)`."""
    with zipfile.ZipFile(path) as book:
        parts = {name: change(name, book.read(name)) for name in book.namelist()}
    with zipfile.ZipFile(path, "w") as book:
        for name, data in parts.items():
            book.writestr(name, data)


def test_a_workbook_that_asks_the_reader_for_room_it_cannot_have_is_refused(tmp_path):
    """Room for four billion shared texts (the reader reserves it up front), and an ODS formula
    cell repeated across a million rows: both refused before the reader sees them."""
    folder = sheet_game(tmp_path, "cards.xlsx")
    write_xlsx(folder / "cards.xlsx", {"Cards": [["title"], ["Fox"]]})
    shared = (b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
              b'2006/main" count="4000000000" uniqueCount="4000000000"><si><t>x</t></si></sst>')
    link = (b'<Relationship Id="rId9" Target="sharedStrings.xml" Type="http://schemas.openxmlformats.org/'
            b'officeDocument/2006/relationships/sharedStrings"/></Relationships>')
    rewrite_parts(folder / "cards.xlsx", lambda name, data: data.replace(b"</Relationships>", link)
                  if name == "xl/_rels/workbook.xml.rels" else data)
    with zipfile.ZipFile(folder / "cards.xlsx", "a") as book:
        book.writestr("xl/sharedStrings.xml", shared)
    assert errors_of(tmp_path) == ["cards/mini/cards.xlsx: it holds 4,000,000,000 cells (or room for as many "
                                   "texts); a card sheet may hold at most 2,000,100"]
    write_ods(folder / "cards.ods", {"Cards": [["title"], ["Fox"], ["Owl"]]}, row_repeats={2: 1_000_000})
    rewrite_parts(folder / "cards.ods", lambda name, data: data.replace(
        b'<table:table-cell office:value-type="string"><text:p>Owl</text:p></table:table-cell>',
        b'<table:table-cell table:formula="of:=1" table:number-columns-repeated="90"/>'))
    (folder / "decks" / "deck.yaml").write_text(DECK.replace("{cards}", "cards.ods"))
    assert errors_of(tmp_path)[0].startswith("cards/mini/cards.ods: a sheet reaches row 1,000,002 and column 90")


def test_a_fifo_named_as_the_card_sheet_is_refused_without_waiting(tmp_path):
    folder = sheet_game(tmp_path, "cards.csv")
    os.mkfifo(folder / "cards.csv")
    (first,) = errors_of(tmp_path)
    assert first.startswith("cards/mini/decks/deck.yaml:9: cards: 'cards.csv' is a FIFO (named pipe), not a file")


@pytest.mark.parametrize("kind", ["xlsx", "ods", "csv"])
def test_random_damage_to_a_card_sheet_never_crashes(tmp_path, kind):
    """Bytes flipped, runs cut out or repeated, the file cut short: a located error (or, where
    the damage misses, cards), never a traceback or a reader that ends the process."""
    folder = sheet_game(tmp_path, f"cards.{kind}")
    rows = [HEADER, *[[f"Card {i}", i, 1.5, True, "a|b", 1] for i in range(30)]]
    path = folder / f"cards.{kind}"
    {"xlsx": write_xlsx, "ods": write_ods, "csv": lambda p, r: write_csv(p, {"Cards": r}["Cards"])}[kind](
        path, {"Cards": rows} if kind != "csv" else rows)
    good, rng = path.read_bytes(), random.Random(17)
    for round_ in range(12):
        data = bytearray(good)
        at = rng.randrange(len(data))
        if round_ % 3 == 0:
            data[at:at + 8] = bytes(rng.randrange(256) for _ in range(8))
        elif round_ % 3 == 1:
            data[at:at + rng.randrange(1, 200)] = b""
        else:
            data = data[:at]
        path.write_bytes(bytes(data))
        result = pnpgen("build", "--out", tmp_path / "out", "--no-cache", cwd=tmp_path)
        assert result.returncode in (0, 2) and "Traceback" not in result.stderr, (round_, result.stderr)
        assert result.returncode == 0 or result.stderr.startswith("cards/mini/"), result.stderr


def test_rules_and_layout_warnings_point_at_the_card_sheets_row(tmp_path):
    rules = "rules:\n  - id: one-each\n    text: One copy of each card.\n    deck: deck\n    unique: title\n"
    folder = make_game(tmp_path, GAME, DECK.replace("{cards}", "cards.csv"), {"face": FACE}, rules=rules)
    write_csv(folder / "cards.csv", [["title", "count"], ["Fox", "1"], ["Owl", "2"]])
    result = pnpgen("check", "mini", cwd=tmp_path)
    assert result.returncode == 1
    assert "cards/mini/cards.csv:3: " in result.stdout + result.stderr


def test_an_edited_cell_lays_out_only_its_cards_sheet_again(tmp_path, laid_out):
    folder = sheet_game(tmp_path, "cards.xlsx")
    rows = [[f"Card {i}", i % 5, 1, None, None, None] for i in range(1, 25)]      # 24 cards: 3 sheets of 8
    write_xlsx(folder / "cards.xlsx", {"Cards": [HEADER, *rows]})
    options = Options(out=tmp_path / "out", cache=True, workers=1)
    (first,) = build_game(Project(tmp_path), "mini", options)
    assert first.drawn == first.pages == 3
    laid_out.clear()
    rows[12][1] = 4        # card 13's cost: the second sheet (numbered from 0)
    write_xlsx(folder / "cards.xlsx", {"Cards": [HEADER, *rows]})
    (edited,) = build_game(Project(tmp_path), "mini", options)
    assert laid_out == [(1, 0)] and edited.drawn == 1 and edited.kept == 2
    assert "Card 13 | cost 4" in page_texts(tmp_path / "out" / "mini" / "deck.pdf")[1]


def test_changes_and_reprint_find_the_card_whose_cell_changed(tmp_path):
    root = tmp_path / "now"
    folder = sheet_game(root, "cards.ods")
    rows = [[f"Card {i}", i, 1, None, None, None] for i in range(1, 11)]
    write_ods(folder / "cards.ods", {"Cards": [HEADER, *rows]})
    shutil.copytree(root, tmp_path / "before")
    rows[6][2] = 9                     # card 7's power
    write_ods(folder / "cards.ods", {"Cards": [HEADER, *rows]})
    result = pnpgen("changes", "--since", tmp_path / "before", "--format", "json", cwd=root)
    assert result.returncode == 0, result.stderr
    changes = [(c["kind"], c["code"]) for g in json.loads(result.stdout)["games"] for d in g["decks"]
               for c in d["changes"]]
    assert changes == [("changed", "SG-007")]
    result = pnpgen("reprint", "--since", tmp_path / "before", "--out", root / "out", cwd=root)
    assert result.returncode == 0, result.stderr
    (text,) = page_texts(root / "out" / "mini" / "reprint-deck.pdf")
    assert "Card 7 | cost 7 | power 9" in text and "Card 6" not in text


def test_the_preview_redraws_the_card_whose_cell_changed_and_names_its_row(tmp_path):
    folder = sheet_game(tmp_path, "cards.csv")
    write_csv(folder / "cards.csv", [["title", "cost"], ["Fox", "1"], ["Owl", "2"], ["Bat", "3"]])
    live = Live(Project(tmp_path))
    live.refresh()
    before = {c["key"]: c for d in json.loads(live.state_json())["games"][0]["decks"] for c in d["cards"]}
    assert affected(live, [folder / "cards.csv"]) == {"mini"}
    write_csv(folder / "cards.csv", [["title", "cost"], ["Fox", "1"], ["Owl", "5"], ["Bat", "3"]])
    live.refresh()
    after = {c["key"]: c for d in json.loads(live.state_json())["games"][0]["decks"] for c in d["cards"]}
    assert [k for k in after if after[k]["front"] != before[k]["front"]] == ["SG-002"]
    assert after["SG-002"]["entry"].endswith("/cards/mini/cards.csv:3")         # its row, where the designer edits it


class _Sheets(http.server.BaseHTTPRequestHandler):
    """Serves `pages` (path -> (content type, body)); 404 for anything else."""

    pages: dict[str, tuple[str, bytes]] = {}
    asked: list[str] = []

    def do_GET(self):
        self.asked.append(self.path)
        kind, body = self.pages.get(self.path, ("text/plain", b""))
        self.send_response(200 if self.path in self.pages else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Sheets)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)  # (quick to stop)
    thread.start()
    _Sheets.pages, _Sheets.asked = {}, []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_pull_fetches_every_source_and_the_build_reads_the_local_copy(tmp_path, server):
    folder = sheet_game(tmp_path, "cards.csv", f"source: {server}/sheet.csv\n")
    _Sheets.pages["/sheet.csv"] = ("text/csv", "title;cost\r\nFox;3\r\nOwl;4\r\n".encode())
    result = pnpgen("pull", "mini", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"mini: pulled cards/mini/cards.csv (2 rows under its header) from {server}/sheet.csv\n"
    assert (folder / "cards.csv").read_bytes() == b"title;cost\r\nFox;3\r\nOwl;4\r\n"
    (text,) = card_texts(tmp_path)
    assert "Fox | cost 3" in text and "Owl | cost 4" in text
    _Sheets.pages["/sheet.csv"] = ("text/csv", b"title;cost\r\nFox;5\r\n")       # edited online: pull again
    quiet = pnpgen("pull", "-q", cwd=tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert "Fox | cost 5" in card_texts(tmp_path)[0] and _Sheets.asked == ["/sheet.csv", "/sheet.csv"]


@pytest.mark.parametrize("page, message", [
    (None, "cards/mini/decks/deck.yaml:10: source: the server answered 404"),
    (("text/html", b"<!DOCTYPE html><html>Sign in</html>"), "cards/mini/decks/deck.yaml:10: source: it gave a web page"),
    (("text/csv", b"title\n\xff\n"), "cards/mini/cards.csv: byte 7 is not UTF-8 text"),
])
def test_a_failed_pull_keeps_the_local_copy(tmp_path, server, page, message):
    folder = sheet_game(tmp_path, "cards.csv", f"source: {server}/sheet.csv\n")
    (folder / "cards.csv").write_text("title\nKept\n")
    if page:
        _Sheets.pages["/sheet.csv"] = page
    result = pnpgen("pull", "mini", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(message), result.stderr
    assert (folder / "cards.csv").read_text() == "title\nKept\n"
    assert sorted(p.name for p in folder.iterdir()) == ["cards.csv", "decks", "game.yaml"]


def test_pull_with_no_source_says_what_to_add(tmp_path):
    sheet_game(tmp_path, "cards.csv")
    result = pnpgen("pull", cwd=tmp_path)
    assert result.returncode == 2 and "no deck has a source:" in result.stderr


@pytest.mark.parametrize("url, suffix, wanted", [
    ("https://docs.google.com/spreadsheets/d/1AbC-x_9/edit#gid=123", ".csv",
     "https://docs.google.com/spreadsheets/d/1AbC-x_9/export?format=csv&gid=123"),
    ("https://docs.google.com/spreadsheets/d/1AbC-x_9/edit?usp=sharing", ".xlsx",
     "https://docs.google.com/spreadsheets/d/1AbC-x_9/export?format=xlsx"),
    ("https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml?gid=7&single=true", ".csv",
     "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=csv&gid=7&single=true"),
    ("https://example.org/cards.csv?x=1", ".csv", "https://example.org/cards.csv?x=1"),
])
def test_a_google_sheet_address_becomes_its_export_address(url, suffix, wanted):
    assert remote.export_url(url, suffix) == wanted


def test_the_documented_example_builds(tmp_path):
    example = ROOT / "docs" / "examples" / "spreadsheet-deck"
    shutil.copytree(example / "cards", tmp_path / "cards")
    shutil.copytree(example / "templates", tmp_path / "templates")
    result = pnpgen("build", "--out", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (text,) = page_texts(tmp_path / "out" / "critters" / "critters.pdf")
    assert "Fox" in text and "Heron" in text


@pytest.mark.parametrize("cards, valid", [("cards.xlsx", True), ("data/Cards.CSV", True), ("cards.ods", True),
                                          ("cards.txt", False), ("all of them", False)])
def test_the_editors_schema_takes_a_card_sheet_name_as_the_loader_does(cards, valid):
    from pydantic import ValidationError

    from pnpgen.game.models import Deck

    from .test_editor import schema_errors
    deck = {"name": "D", "template": "front", "fields": {"title": {"required": True}}, "cards": cards}
    try:
        Deck.model_validate(deck)
        accepted = True
    except ValidationError:
        accepted = False
    assert (schema_errors("deck", deck) == []) == valid == accepted


def test_the_limits_are_listed():
    result = pnpgen("schema", "limits")
    assert "card sheet size: 20,001 rows, 100 columns" in result.stdout
