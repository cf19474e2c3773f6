"""`pnpgen export tts`: every deck of a game as Tabletop Simulator face sheets, a back image
(or back sheets where cards have their own backs), and <deck>.json, a saved object that TTS
loads in one step (Saves/Saved Objects/); tokens as Custom Tokens in a bag, boards as Custom
Boards. Sheet ids are unique across the game's decks and drawn from the game's and the deck's
names (tts_objects.SheetIds), so decks brought onto one table, from one game or several, do not
share an id (TTS would show one deck's faces on the other's cards)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote, urlsplit

from ..errors import InputError
from . import tts_objects as objects
from .faces import BoardFaces, DeckFaces
from .job import INCH, Job
from .raster import SHARED_LEVEL, render_faces
from .tts_sheets import DPI, MAX_PX, SheetSaver, card_px, grid, runs, write_sheet

BOARD_DPI = 150


def checked_url_base(value: str | None) -> str | None:
    """--url-base as the folder the images will be served from: an http, https or file URL,
    ending in '/' (one is added); anything else is bad input."""
    if value is None:
        return None
    parts = urlsplit(value)
    web = parts.scheme in ("http", "https") and parts.netloc
    local = parts.scheme == "file" and parts.path
    if not (web or local) or parts.query or parts.fragment or any(c.isspace() for c in value):
        raise InputError.at("--url-base", None, f"'{value}' is not the address of a folder: give an http://, "
                            "https:// or file:// URL, such as https://example.org/my-game/ (each image's file "
                            "name is added to it)")
    return value if value.endswith("/") else value + "/"


def write_tts(job: Job) -> list[str]:
    """Every deck, token sheet and board of the game into job.work; returns the notes."""
    base = job.url_base or (job.target.resolve().as_uri() + "/")
    sheet_ids = objects.SheetIds(job.game.id, job.game.game.code)
    deck_ids = {deck.id for deck in job.decks if deck.kind == "deck"}
    notes = []
    with SheetSaver() as saver:
        for deck in job.decks:
            name = deck.id
            if deck.kind == "board":
                if name in deck_ids:      # a board named like a deck: its files must not take the deck's place
                    name = f"board-{deck.id}"
                states, note = _board(job, deck, base, name, saver)
            elif deck.pack:
                states, note = _tokens(job, deck, base)
            else:
                states, note = _deck(job, deck, base, sheet_ids, saver)
            (job.work / f"{name}.json").write_text(json.dumps(objects.saved_object(states), indent=2,
                                                              ensure_ascii=False) + "\n", encoding="utf-8")
            notes.append(note)
    return notes


def _deck(job: Job, deck: DeckFaces, base: str, sheet_ids, saver: SheetSaver) -> tuple[list[dict], str]:
    """Face sheets <deck>-1.png..., backs as <deck>-back.png (one back for every card) or
    <deck>-1-backs.png... (a sheet laid out like the faces, where some card has its own)."""
    sheets, cards, pixels = {}, [], []
    tiles = job.work / f".{deck.id}.tiles"
    for number, run in enumerate(runs(len(deck.fronts)), 1):
        fronts = [deck.fronts[i] for i in run]
        cols, rows = grid(len(fronts), fronts[0].size)
        size = card_px(fronts[0].size, cols, rows)
        pixels.append(size)
        face_sheet = f"{deck.id}-{number}.png"
        write_sheet(deck, fronts, cols, rows, size, tiles / f"f{number}", job.work / face_sheet, job.workers, saver)
        backs = [deck.back_of(front) for front in fronts]
        unique = any(back is not None and back is not deck.common_back for back in backs)
        if unique:     # a back sheet: each card's own back, or the common one, in the card's slot
            back = f"{deck.id}-{number}-backs.png"
            write_sheet(deck, backs, cols, rows, size, tiles / f"b{number}", job.work / back, job.workers, saver)
        else:          # one back for the whole deck (blank for single-sided cards), drawn once
            back = f"{deck.id}-back.png"
            if job.work / back not in saver.targets and not (job.work / back).exists():
                write_sheet(deck, [deck.common_back], 1, 1, size, tiles / "back", job.work / back, job.workers, saver)
        sheet_id = sheet_ids.next(deck.id, number)
        entry = objects.sheet_entry(base + quote(face_sheet), base + quote(back), cols, rows, unique)
        sheets[str(sheet_id)] = entry
        for slot, front in enumerate(fronts):
            cards += [objects.card(front, sheet_id * 100 + slot, sheet_id, entry)] * front.count
    saver.remove(tiles)
    w, h = deck.fronts[0].size
    state = objects.deck(f"{job.game.game.title}: {deck.name}", job.game.game.credits, cards, sheets, w > h)
    dpi = min(round(p[0] / w * INCH) for p in pixels)
    return [state], (f"{deck.id}: {len(cards)} card{'s' if len(cards) != 1 else ''} on {len(sheets)} sheet"
                     f"{'s' if len(sheets) != 1 else ''}, {dpi} DPI")


def _tokens(job: Job, deck: DeckFaces, base: str) -> tuple[list[dict], str]:
    """Each kind of token as <deck>-<code>.png (and -back.png), trimmed, at DPI, transparent
    outside a round one; every copy in one bag."""
    faces = deck.fronts + deck.backs
    names = [f"{deck.id}-{f.code}{'-back' if f.side == 'back' else ''}.png" for f in faces]
    sizes = [(int(f.size[0] / INCH * DPI), int(f.size[1] / INCH * DPI)) for f in faces]
    render_faces(deck, faces, [job.work / n for n in names], sizes, 0.0, DPI, job.work, job.workers, alpha=True,
                 level=SHARED_LEVEL)
    url = {id(face): base + quote(name) for face, name in zip(faces, names)}
    contents = []
    for front in deck.fronts:
        back = deck.back_of(front)
        contents += [objects.token(front, url[id(front)], url[id(back)] if back is not None else None)] * front.count
    bag = objects.bag(f"{job.game.game.title}: {deck.name}", job.game.game.credits, contents)
    return [bag], f"{deck.id}: {len(contents)} tokens ({len(deck.fronts)} kinds) in a bag"


def _board(job: Job, deck: BoardFaces, base: str, stem: str, saver: SheetSaver) -> tuple[list[dict], str]:
    """A board as a Custom Board per side (<stem>-a.png, -b.png), at most BOARD_DPI and
    within MAX_PX, side B beside side A."""
    states = []
    for across, face in enumerate(deck.faces()):
        w, h = face.size
        scale = min(BOARD_DPI / INCH, MAX_PX / max(w, h))
        name = f"{stem}-{face.code}.png"
        write_sheet(deck, [face], 1, 1, (int(w * scale), int(h * scale)), job.work / f".{deck.id}.tiles" / face.code,
                    job.work / name, job.workers, saver)
        nickname = deck.name + (f", side {face.code.upper()}" if deck.backs else "")
        states.append(objects.board(nickname, job.game.game.credits, face.size, base + quote(name), across))
    saver.remove(job.work / f".{deck.id}.tiles")
    return states, f"{deck.id}: board, {len(states)} side{'s' if len(states) > 1 else ''} as a Custom Board"
