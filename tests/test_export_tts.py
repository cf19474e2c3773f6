"""Tabletop Simulator exports checked against the save-file format as TTS itself writes it,
not only against our own reading: a saved object's outer fields, a custom deck ("DeckCustom")
with its CustomDeck sheets, DeckIDs and "Card" objects, a lone card, tokens and tiles in a bag,
and a custom board. Also: sheet ids unique across a game and across games, stable from one
export to the next, card ids as TTS numbers them, the
grid that gives cards the most pixels, and --url-base checked."""

from __future__ import annotations

import json
import shutil

import pytest
from PIL import Image

from pnpgen.build import Project, load
from pnpgen.errors import InputError
from pnpgen.export import check_options, export_game, tts_sheets
from pnpgen.export import tts as tts_export
from pnpgen.export.tts_objects import SHEET_IDS, SheetIds
from pnpgen.export.tts_sheets import MAX_PX, card_px, grid, runs

from .clirun import pnpgen
from .minigame import make_game

# The shape of what Tabletop Simulator writes, from its knowledge base's "Save File Format"
# page (kb.tabletopsimulator.com/custom-content/save-file-format/) and from objects that TTS
# saved (a deck of custom cards: "DeckCustom" holding "Card" objects, each card's CardID its
# CustomDeck id x 100 + its index on the sheet). Values are our own, keys and value types are
# TTS's; the fields TTS fills in itself when it loads an object (GUID, ColorDiffuse...) are
# there too, so that a key we write that TTS does not know is caught.
TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
FLAGS = {"GUID": "a1b2c3", "GMNotes": "", "ColorDiffuse": {"r": 0.71, "g": 0.71, "b": 0.71},
         "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False,
         "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
         "GridProjection": False, "HideWhenFaceDown": True, "Hands": True, "LuaScript": "", "LuaScriptState": "",
         "XmlUI": ""}
SHEET = {"FaceURL": "https://example.org/faces.png", "BackURL": "https://example.org/back.png", "NumWidth": 10,
         "NumHeight": 7, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
CARD = {**FLAGS, "Name": "Card", "Transform": TRANSFORM, "Nickname": "Scout", "Description": "", "CardID": 1704,
        "SidewaysCard": False, "CustomDeck": {"17": SHEET}, "ContainedObjects": []}
DECK = {**FLAGS, "Name": "DeckCustom", "Transform": TRANSFORM, "Nickname": "", "Description": "",
        "SidewaysCard": False, "DeckIDs": [1704, 1705], "CustomDeck": {"17": SHEET},
        "ContainedObjects": [CARD, {**CARD, "CardID": 1705}]}
IMAGE = {"ImageURL": "https://example.org/a.png", "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
TOKEN = {**FLAGS, "Name": "Custom_Token", "Transform": TRANSFORM, "Nickname": "", "Description": "",
         "CustomImage": {**IMAGE, "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                                  "Stackable": False}}}
TILE = {**FLAGS, "Name": "Custom_Tile", "Transform": TRANSFORM, "Nickname": "", "Description": "",
        "CustomImage": {**IMAGE, "CustomTile": {"Type": 0, "Thickness": 0.2, "Stackable": False, "Stretch": True}}}
BAG = {**FLAGS, "Name": "Bag", "Transform": TRANSFORM, "Nickname": "", "Description": "",
       "ContainedObjects": [TOKEN, TILE]}
BOARD = {**FLAGS, "Name": "Custom_Board", "Transform": TRANSFORM, "Nickname": "", "Description": "",
         "CustomImage": IMAGE}
SAVE = {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
        "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "",
        "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": []}
REFERENCE = {"DeckCustom": DECK, "Card": CARD, "Custom_Token": TOKEN, "Custom_Tile": TILE, "Bag": BAG,
             "Custom_Board": BOARD}
NEEDED = {"DeckCustom": {"Name", "Transform", "DeckIDs", "CustomDeck", "ContainedObjects"},
          "Card": {"Name", "Transform", "CardID", "CustomDeck"},
          "Custom_Token": {"Name", "Transform", "CustomImage"}, "Custom_Tile": {"Name", "Transform", "CustomImage"},
          "Bag": {"Name", "Transform", "ContainedObjects"}, "Custom_Board": {"Name", "Transform", "CustomImage"}}
NEEDED_SHEET = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}


def kind(value) -> str:
    """A JSON value's type as TTS reads it: whole numbers (ids, grid sizes) apart from other numbers."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return {float: "number", str: "text", list: "list", dict: "object"}[type(value)]


def differences(ours, theirs, where: str) -> list[str]:
    """Where `ours` departs from TTS's shape `theirs`: keys TTS does not write, values of another type."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        if where.endswith("CustomDeck"):      # keyed by sheet id: each entry is a sheet
            return [p for key, entry in ours.items() for p in
                    ([f"{where}: key {key!r} is no positive whole number"] if not key.isdigit() or key == "0" else [])
                    + differences(entry, SHEET, f"{where}.{key}")]
        found = [f"{where}.{key}: TTS writes no such key" for key in ours if key not in theirs]
        return found + [p for key in ours if key in theirs for p in differences(ours[key], theirs[key],
                                                                                 f"{where}.{key}")]
    if isinstance(theirs, list) and isinstance(ours, list):
        if where.endswith("ContainedObjects"):
            return [p for i, obj in enumerate(ours) for p in check_object(obj, f"{where}[{i}]")]
        return [p for i, v in enumerate(ours) for p in differences(v, theirs[0], f"{where}[{i}]")] if theirs else []
    number = {"int", "number"}
    if kind(ours) != kind(theirs) and not (kind(theirs) == "number" and kind(ours) in number):
        return [f"{where}: {kind(ours)} where TTS writes {kind(theirs)}"]
    return []


def check_object(obj: dict, where: str) -> list[str]:
    name = obj.get("Name")
    if name not in REFERENCE:
        return [f"{where}: an object named {name!r}"]
    missing = [f"{where}: no {key}" for key in sorted(NEEDED[name] - set(obj))]
    sheets = [f"{where}.CustomDeck.{k}: no {key}" for k, s in obj.get("CustomDeck", {}).items()
              for key in sorted(NEEDED_SHEET - set(s))]
    return missing + sheets + differences(obj, REFERENCE[name], where)


def check_saved_object(data: dict) -> list[str]:
    found = [f"{key}: TTS writes no such key" for key in data if key not in SAVE]
    found += [f"{key}: {kind(data[key])}" for key in data if key in SAVE and kind(data[key]) != kind(SAVE[key])
              and not {kind(data[key]), kind(SAVE[key])} <= {"int", "number"}]
    return found + [p for i, obj in enumerate(data.get("ObjectStates") or [None])
                    for p in (check_object(obj, f"ObjectStates[{i}]") if obj else ["no ObjectStates"])]


def test_the_shape_check_catches_what_tts_would_not_read():
    """The check itself: a good deck passes; a made-up key, a text id, a float grid size fail."""
    assert check_saved_object({**SAVE, "ObjectStates": [DECK]}) == []
    bad = {**DECK, "Flavour": 1, "DeckIDs": ["1704"], "CustomDeck": {"x": {**SHEET, "NumWidth": 10.0}}}
    assert sorted(check_saved_object({**SAVE, "ObjectStates": [bad]})) == [
        "ObjectStates[0].CustomDeck.x.NumWidth: number where TTS writes int",
        "ObjectStates[0].CustomDeck: key 'x' is no positive whole number",
        "ObjectStates[0].DeckIDs[0]: text where TTS writes int",
        "ObjectStates[0].Flavour: TTS writes no such key"]


# --- a game to export --------------------------------------------------------------------------

def _rect(fill, w=63.5, h=88.9, shape=""):
    return (f"size: [{w}, {h}]\n{shape}elements:\n  - rect: {{x: 0, y: 0, w: {w}, h: {h}, fill: '{fill}', "
            "bleed: true}\n")


TEMPLATES = {"face": _rect("#2a6f3a"), "back": _rect("#6a2a2a"), "own": _rect("#2a2a6a"),
             "aid": _rect("#8a6f1d", 177.8, 127), "coin": _rect("#d4a017", 20, 20, "shape: round\n"),
             "coin-b": _rect("#5a5a5a", 20, 20, "shape: round\n"), "mat": _rect("#1d5c8a", 200, 150)}
F = "fields:\n  title: {required: true}\n"


def _cards(n, extra=lambda i: ""):
    return "cards:\n" + "".join(f"  - {{title: C{i}{extra(i)}}}\n" for i in range(n))


DECKS = {"mixed": "name: Mixed\ntemplate: face\nback: {template: back}\n" + F + _cards(5, lambda i: ", back: own"
                                                                                      if i in (1, 3) else ""),
         "sixteen": "name: Sixteen\ntemplate: face\nback: {template: back}\n" + F + _cards(16),
         "aids": "name: Aids\ncard_size: [177.8, 127]\ntemplate: aid\n" + F + _cards(2),
         "lone": "name: Lone\ntemplate: face\nback: {template: back}\n" + F + _cards(1),
         "many": "name: Many\ntemplate: face\nback: {template: back}\n" + F + _cards(73),
         "coins": "name: Coins\npack: true\ntemplate: coin\n" + F
                  + "cards:\n  - {title: Gold, count: 2, back: coin-b}\n  - {title: Tin, count: 3}\n"}


@pytest.fixture(scope="module", autouse=True)
def fast_compression():
    """Tabletop Simulator's images compressed at zlib's fastest level in this file: nothing it
    checks (the saved objects, the ids, the grid's pixels) depends on the level, and
    test_export_files.py checks the level itself."""
    with pytest.MonkeyPatch.context() as patch:
        for module in (tts_export, tts_sheets):
            patch.setattr(module, "SHARED_LEVEL", 1)
        yield


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    """The game exported for TTS: (its folder, {deck id: saved object})."""
    root = tmp_path_factory.mktemp("tts")
    folder = make_game(root, "title: Tabletop\ncode: TT\n", DECKS["mixed"], TEMPLATES, deck_id="mixed")
    for deck_id, text in DECKS.items():
        (folder / "decks" / f"{deck_id}.yaml").write_text(text)
    (folder / "boards").mkdir()
    (folder / "boards" / "mat.yaml").write_text("name: Mat\nsize: [200, 150]\ntemplate: mat\n")
    ran = pnpgen("--root", root, "export", "tts", "mini", "--url-base", "https://example.org/kit", cwd=root)
    assert ran.returncode == 0, ran.stderr
    out = root / "out" / "mini" / "tts"
    return out, {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}


def test_every_saved_object_has_the_shape_tts_writes(tts):
    _, saved = tts
    assert sorted(saved) == ["aids", "coins", "lone", "many", "mat", "mixed", "sixteen"]
    for name, data in saved.items():
        assert check_saved_object(data) == [], name
    assert [s["Name"] for s in saved["coins"]["ObjectStates"][0]["ContainedObjects"]] == \
        ["Custom_Tile"] * 2 + ["Custom_Token"] * 3       # Gold has a back: a two-faced tile
    assert saved["lone"]["ObjectStates"][0]["Name"] == "Card"      # a deck of one is a card
    assert saved["mat"]["ObjectStates"][0]["Name"] == "Custom_Board"


def _decks(saved):
    return {name: data["ObjectStates"][0] for name, data in saved.items()
            if data["ObjectStates"][0]["Name"] in ("DeckCustom", "Card")}


def test_sheet_ids_are_unique_across_the_game_and_card_ids_are_tts_own(tts):
    _, saved = tts
    owner = {}
    for name, state in _decks(saved).items():
        cards = state.get("ContainedObjects", [state])
        assert (state["DeckIDs"] if "DeckIDs" in state else [state["CardID"]]) == [c["CardID"] for c in cards]
        for sheet_id in state["CustomDeck"]:
            assert owner.setdefault(sheet_id, name) == name, f"sheet {sheet_id} of {owner[sheet_id]} and {name}"
        for card in cards:
            ((sheet_id, sheet),) = card["CustomDeck"].items()
            assert state["CustomDeck"][sheet_id] == sheet
            assert card["CardID"] // 100 == int(sheet_id)
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1   # never the hidden slot
    assert all(int(i) in SHEET_IDS for i in owner)
    assert len(owner) == 6           # many has two sheets


def test_sheet_ids_differ_across_games_and_stay_the_same_at_every_export(tts):
    """Two games' decks on one table must not share a CustomDeck id; the ids of a game are the
    same each time it is exported (a saved table keeps working after a new export)."""
    folder, saved = tts
    root = folder.parent.parent.parent
    other = root / "cards" / "other"
    shutil.copytree(root / "cards" / "mini", other)
    (other / "game.yaml").write_text("title: Another Table\ncode: AT\n")
    shutil.copytree(root / "templates" / "mini", root / "templates" / "other")
    ran = pnpgen("--root", root, "export", "tts", "other", "mini", "--out", "again", "--url-base",
                 "https://example.org/kit", cwd=root)
    assert ran.returncode == 0, ran.stderr
    assert json_of(root / "again" / "mini" / "tts") == saved                                       # the same ids, the same files
    ids = {game: {int(k) for state in _decks(json_of(root / "again" / game / "tts")).values()
                  for k in state["CustomDeck"]} for game in ("mini", "other")}
    assert len(ids["mini"]) == len(ids["other"]) == 6 and not ids["mini"] & ids["other"]


def json_of(folder):
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")}


def test_a_sheet_id_taken_already_is_passed_over_for_the_next_free_one():
    ids = SheetIds("g", "G", range(1000, 1003))               # three ids for three sheets: each gets one
    got = [ids.next(deck, 1) for deck in "abc"]
    assert sorted(got) == [1000, 1001, 1002]
    fresh = SheetIds("g", "G", range(1000, 1003))
    assert [fresh.next(deck, 1) for deck in "abc"] == got       # the same order, the same ids
    with pytest.raises(InputError, match="more than 3 Tabletop Simulator sheets"):
        ids.next("d", 1)


def test_the_grid_gives_the_cards_the_most_pixels(tts):
    folder, saved = tts
    decks = _decks(saved)
    (sixteen,) = decks["sixteen"]["CustomDeck"].values()
    assert (sixteen["NumWidth"], sixteen["NumHeight"]) == (5, 4)     # not 10 x 2: cards twice as large
    with Image.open(folder / "sixteen-1.png") as im:
        assert im.width // 5 / (63.5 / 25.4) > 290                   # on 10 x 2 it would be 164 DPI
    (aids,) = decks["aids"]["CustomDeck"].values()
    with Image.open(folder / "aids-1.png") as im:
        dpi = im.width / aids["NumWidth"] / (177.8 / 25.4)
        assert dpi > 290 and max(im.size) <= MAX_PX                   # was 58 on a 10-wide grid
    assert all(c["SidewaysCard"] for c in decks["aids"]["ContainedObjects"])
    assert not any(c["SidewaysCard"] for c in decks["sixteen"]["ContainedObjects"])
    assert sorted(len([c for c in decks["many"]["ContainedObjects"] if c["CardID"] // 100 == int(k)])
                  for k in decks["many"]["CustomDeck"]) == [36, 37]     # 73 cards shared out evenly


def test_grid_choice_rules():
    assert grid(16, (63.5, 88.9)) == (5, 4)
    assert grid(69, (63.5, 88.9)) == (10, 7)
    assert grid(1, (63.5, 88.9)) == (2, 2)                 # TTS's smallest grid
    for n in range(1, 70):
        cols, rows = grid(n, (88.9, 63.5))
        w, h = card_px((88.9, 63.5), cols, rows)
        assert n + 1 <= cols * rows and cols <= 10 and rows <= 7 and cols * w <= MAX_PX and rows * h <= MAX_PX
    assert [len(r) for r in runs(140)] == [47, 47, 46]
    assert [len(r) for r in runs(69)] == [69] and [len(r) for r in runs(70)] == [35, 35]


def test_a_mixed_deck_has_each_cards_own_back_or_the_common_one_in_its_slot(tts):
    folder, saved = tts
    ((sheet_id, sheet),) = _decks(saved)["mixed"]["CustomDeck"].items()
    assert sheet["UniqueBack"] and sheet["BackURL"] == "https://example.org/kit/mixed-1-backs.png"
    cols = sheet["NumWidth"]
    with Image.open(folder / "mixed-1-backs.png") as im:
        w, h = im.width // cols, im.height // sheet["NumHeight"]
        colours = [im.getpixel(((i % cols) * w + w // 2, (i // cols) * h + h // 2)) for i in range(5)]
    own, common = (0x2a, 0x2a, 0x6a), (0x6a, 0x2a, 0x2a)
    assert colours == [common, own, common, own, common]


def test_url_base_gets_its_slash_and_bad_ones_are_refused(tmp_path, tts):
    _, saved = tts
    (sheet,) = _decks(saved)["sixteen"]["CustomDeck"].values()
    assert sheet["FaceURL"] == "https://example.org/kit/sixteen-1.png"      # the '/' added
    assert check_options("tts", url_base="file:///srv/kit") == "file:///srv/kit/"
    for bad in ("example.org/kit", "ftp://example.org/", "https://", "https://example.org/a b/", "kit/"):
        with pytest.raises(InputError) as err:
            check_options("tts", url_base=bad)
        assert "http://, https:// or file:// URL" in str(err.value)
    ran = pnpgen("export", "tts", "--url-base", "www.example.org", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.startswith("--url-base: 'www.example.org' is not the address of a folder")
    ran = pnpgen("export", "png", "--url-base", "https://example.org/", cwd=tmp_path)
    assert ran.returncode == 2 and "--url-base is for tts only" in ran.stderr


def test_a_board_named_like_a_deck_keeps_both(tmp_path):
    folder = make_game(tmp_path, "title: Clash\ncode: CL\n", DECKS["sixteen"], TEMPLATES, deck_id="mat")
    (folder / "boards").mkdir()
    (folder / "boards" / "mat.yaml").write_text("name: Mat\nsize: [200, 150]\ntemplate: mat\n")
    out = export_game(load(Project(tmp_path), "mini"), "tts", tmp_path / "out").folder
    names = {p.name: json.loads(p.read_text())["ObjectStates"][0]["Name"] for p in out.glob("*.json")}
    assert names == {"mat.json": "DeckCustom", "board-mat.json": "Custom_Board"}
    assert (out / "board-mat-a.png").exists() and (out / "mat-1.png").exists()
