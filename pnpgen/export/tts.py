"""Tabletop Simulator: each deck as face sheets (at most 10 x 7 cards, within 4096 x 4096 px;
the last slot of a sheet is TTS's hidden-card slot, so 69 cards a sheet), a back image (or a
back sheet for per-card backs), and a saved-object JSON that TTS imports in one step
(Saves/Saved Objects/). A deck of more than 69 different cards spans several sheets."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from PIL import Image

from ..game.loader import GameSource
from .faces import DeckFaces, Face, write_pages
from .raster import render_pages

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1
DPI = 300     # faces are drawn at up to this, less when a sheet's 4096 px would be exceeded


def grid(n: int) -> tuple[int, int]:
    """Columns and rows of a sheet of n cards, n <= 69: at least 2 x 2 (TTS's smallest grid),
    with the grid's last slot left free for TTS's hidden card."""
    cols = min(MAX_COLS, max(2, n + 1))
    return cols, max(2, math.ceil((n + 1) / cols))


def card_px(size_mm: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A card's pixel size on a sheet: its trim at 300 DPI, shrunk so the sheet fits 4096 px."""
    w, h = size_mm
    scale = min(DPI / 25.4, MAX_PX / cols / w, MAX_PX / rows / h)
    return int(w * scale), int(h * scale)


def export_tts(game: GameSource, decks: list[DeckFaces], work: Path, url_base: str, workers) -> list[str]:
    notes = []
    for deck in decks:
        if deck.board:
            notes.append(_board(game, deck, work, url_base, workers))
            continue
        if deck.pack:
            notes.append(_tokens(game, deck, work, url_base, workers))
            continue
        state = _deck(game, deck, work, url_base, workers)
        (work / f"{deck.id}.json").write_text(json.dumps(state, indent=2, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
        sheets = len(state["ObjectStates"][0]["CustomDeck"])
        notes.append(f"{deck.id}: {sum(f.count for f in deck.fronts)} cards on {sheets} sheet"
                     f"{'s' if sheets != 1 else ''}")
    return notes


def _deck(game: GameSource, deck: DeckFaces, work: Path, url_base: str, workers) -> dict:
    chunks = [list(range(i, min(i + PER_SHEET, len(deck.fronts)))) for i in range(0, len(deck.fronts), PER_SHEET)]
    custom, contained, ids = {}, [], []
    tiles = work / f".{deck.id}.tiles"
    for s, chunk in enumerate(chunks, 1):
        cols, rows = grid(len(chunk))
        size = card_px(deck.fronts[0].size, cols, rows)
        face_sheet = f"{deck.id}-{s}.png"
        _sheet(deck, [deck.fronts[i] for i in chunk], cols, rows, size, tiles / f"f{s}", work / face_sheet, workers)
        if deck.backs:
            back = f"{deck.id}-{s}-backs.png"
            _sheet(deck, [deck.backs[i] for i in chunk], cols, rows, size, tiles / f"b{s}", work / back, workers)
        else:
            back = f"{deck.id}-back.png"
            if s == 1:
                face = deck.common_back or _blank(deck.fronts[0])
                _sheet(deck, [face], 1, 1, size, tiles / "back", work / back, workers)
        entry = {"FaceURL": url_base + face_sheet, "BackURL": url_base + back, "NumWidth": cols, "NumHeight": rows,
                 "BackIsHidden": True, "UniqueBack": bool(deck.backs), "Type": 0}
        custom[str(s)] = entry
        for k, i in enumerate(chunk):
            front = deck.fronts[i]
            card_id = s * 100 + k
            for _ in range(front.count):
                ids.append(card_id)
                contained.append({"Name": "Card", "Transform": _transform(), "Nickname": front.title,
                                  "Description": front.code, "CardID": card_id, "CustomDeck": {str(s): entry}})
    for p in sorted(tiles.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    if tiles.exists():
        tiles.rmdir()
    obj = {"Name": "DeckCustom", "Transform": _transform(), "Nickname": f"{game.game.title}: {deck.name}",
           "Description": game.game.credits, "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
           "Sticky": True, "Tooltip": True, "HideWhenFaceDown": True, "SidewaysCard": _sideways(deck),
           "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}
    return {"SaveName": "", "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [obj],
            "TabStates": {}, "VersionNumber": ""}


def _tokens(game: GameSource, deck: DeckFaces, work: Path, url_base: str, workers) -> str:
    """Tokens as TTS Custom Tokens (their outline taken from the image's transparency, so
    round ones stay round), every copy in one bag; a token with its own back is a Custom
    Tile with two faces instead."""
    tiles = work / f".{deck.id}.tiles"
    tiles.mkdir(parents=True, exist_ok=True)
    backs = {f.code: f for f in deck.backs}
    faces = list(deck.fronts) + list(deck.backs)
    names = [f"{deck.id}-{f.code}{'-back' if f.side == 'back' else ''}.png" for f in faces]
    pdf = tiles / "faces.pdf"
    write_pages(pdf, faces, deck, 0.0, deck.name)
    sizes = [(int(f.size[0] / 25.4 * DPI), int(f.size[1] / 25.4 * DPI)) for f in faces]
    render_pages(pdf, [(i, size, work / n) for i, (size, n) in enumerate(zip(sizes, names))], DPI, workers,
                 alpha=True)
    shutil.rmtree(tiles, ignore_errors=True)
    contained = []
    for front, name in zip(deck.fronts, names):
        back = backs.get(front.code)
        image = {"ImageURL": url_base + name, "ImageSecondaryURL": url_base + names[len(deck.fronts) +
                 list(backs).index(front.code)] if back else "", "ImageScalar": 1.0, "WidthScale": 0.0}
        if back is None:
            image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                    "Stackable": True}
        else:
            image["CustomTile"] = {"Type": 2 if front.shape == "round" else 0, "Thickness": 0.2,
                                   "Stackable": True, "Stretch": True}
        scale = front.size[0] / 25.4   # TTS units are roughly inches
        for _ in range(front.count):
            contained.append({"Name": "Custom_Token" if back is None else "Custom_Tile",
                              "Transform": {**_transform(), "rotY": 0, "rotZ": 0, "scaleX": scale, "scaleY": 1,
                                            "scaleZ": scale},
                              "Nickname": front.title, "Description": front.code, "CustomImage": image})
    bag = {"Name": "Bag", "Transform": {**_transform(), "rotY": 0, "rotZ": 0}, "Nickname": f"{game.game.title}: "
           f"{deck.name}", "Description": game.game.credits, "ContainedObjects": contained}
    obj = {"SaveName": "", "ObjectStates": [bag], "TabStates": {}, "VersionNumber": ""}
    (work / f"{deck.id}.json").write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return f"{deck.id}: {len(contained)} tokens ({len(deck.fronts)} kinds) in a bag"


def _board(game: GameSource, deck: DeckFaces, work: Path, url_base: str, workers) -> str:
    """A board as a TTS Custom Board: its image (side A; side B as a second object), scaled
    in the table's units so that it keeps its proportions."""
    states = []
    for i, face in enumerate(deck.fronts + deck.backs):
        w, h = face.size
        scale = min(1.0, MAX_PX / max(w, h) * 25.4 / 150)
        size = (int(w / 25.4 * 150 * scale), int(h / 25.4 * 150 * scale))
        name = f"{deck.id}-{face.code}.png"
        _sheet(deck, [face], 1, 1, size, work / f".{deck.id}.tiles" / face.code, work / name, workers)
        states.append({"Name": "Custom_Board", "Transform": {**_transform(), "rotY": 0, "rotZ": 0,
                                                              "posX": i * w / 25.4, "scaleX": w / 500,
                                                              "scaleY": 1, "scaleZ": w / 500},
                       "Nickname": f"{deck.name}" + (f", side {face.code.upper()}" if deck.backs else ""),
                       "Description": game.game.credits, "CustomImage": {"ImageURL": url_base + name,
                                                                         "ImageSecondaryURL": "",
                                                                         "WidthScale": round(w / h, 4)}})
    shutil.rmtree(work / f".{deck.id}.tiles", ignore_errors=True)
    obj = {"SaveName": "", "ObjectStates": states, "TabStates": {}, "VersionNumber": ""}
    (work / f"{deck.id}.json").write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return f"{deck.id}: board, {len(states)} side{'s' if len(states) > 1 else ''} as a Custom Board"


def _sheet(deck: DeckFaces, faces: list[Face], cols: int, rows: int, size, tiles: Path, target: Path,
           workers) -> None:
    """Render each face at `size` px (trimmed, no bleed) and paste them into one sheet image."""
    tiles.mkdir(parents=True, exist_ok=True)
    pdf = tiles / "faces.pdf"
    write_pages(pdf, faces, deck, 0.0, deck.name)
    names = [tiles / f"{i}.png" for i in range(len(faces))]
    render_pages(pdf, [(i, size, n) for i, n in enumerate(names)], DPI, workers)
    sheet = Image.new("RGB", (cols * size[0], rows * size[1]), (255, 255, 255))
    for i, name in enumerate(names):
        with Image.open(name) as tile:
            sheet.paste(tile, ((i % cols) * size[0], (i // cols) * size[1]))
    sheet.save(target, format="PNG")


def _blank(face: Face) -> Face:
    return Face("back", "back", "back", 1, face.size, "rect", [])


def _sideways(deck: DeckFaces) -> bool:
    w, h = deck.fronts[0].size
    return w > h


def _transform() -> dict:
    return {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
            "scaleX": 1, "scaleY": 1, "scaleZ": 1}
