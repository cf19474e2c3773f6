"""Tabletop Simulator saved objects, as TTS itself writes them (its save-file format): the
save around them (ObjectStates), a custom deck (Name "DeckCustom", its CustomDeck sheets by
id, DeckIDs and one "Card" per copy in ContainedObjects), a lone card, tokens and tiles in a
bag, and a custom board. Card ids are TTS's: sheet id x 100 + the card's slot on the sheet.
Sheet ids (SheetIds) are drawn from the game and the deck, so that they differ across games as
well as within one: decks of several games can share a table."""

from __future__ import annotations

import hashlib

from ..errors import InputError
from .faces import Face
from .job import INCH


SHEET_IDS = range(1000, 100000)
"""The CustomDeck ids given: four and five digits, as in the saves TTS writes itself; a card's id
(sheet id x 100 + slot) then stays far inside the whole numbers TTS reads."""


class SheetIds:
    """CustomDeck ids for one game's sheets: each from a digest of the game (its folder and code),
    the deck and the sheet's number, so the same sheet gets the same id at every export and
    another game's sheets almost surely others; an id taken already in this game is passed over
    for the next free one."""

    def __init__(self, game_id: str, code: str, ids: range = SHEET_IDS):
        self.game_id, self.game, self.ids, self.taken = game_id, f"{game_id}\0{code}", ids, set()

    def next(self, deck_id: str, number: int) -> int:
        if len(self.taken) >= len(self.ids):
            raise InputError.at(f"cards/{self.game_id}", None, f"more than {len(self.ids)} Tabletop "
                                "Simulator sheets in one game; export fewer cards at a time")
        digest = hashlib.sha256(f"{self.game}\0{deck_id}\0{number}".encode()).digest()
        k = int.from_bytes(digest[:8], "big") % len(self.ids)
        while self.ids[k] in self.taken:
            k = (k + 1) % len(self.ids)
        self.taken.add(self.ids[k])
        return self.ids[k]


def saved_object(states: list[dict]) -> dict:
    """The save file around `states`, its outer fields left empty as in a saved object (what
    TTS writes to Saves/Saved Objects/)."""
    return {"SaveName": "", "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states,
            "TabStates": {}, "VersionNumber": ""}


def sheet_entry(face_url: str, back_url: str, cols: int, rows: int, unique_back: bool) -> dict:
    """One CustomDeck entry: a face sheet of cols x rows cards, and one back for them all or,
    with `unique_back`, a back sheet laid out like the faces. The back is what other players
    see of a card in a hand (BackIsHidden), so the sheet's last slot stays unused."""
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
            "UniqueBack": unique_back, "Type": 0}


def card(front: Face, card_id: int, sheet_id: int, entry: dict) -> dict:
    """One card: its title as the nickname, its code as the description, its sheet and slot."""
    w, h = front.size
    return {"Name": "Card", "Transform": transform(), "Nickname": front.title, "Description": front.code,
            "CardID": card_id, "SidewaysCard": w > h, "CustomDeck": {str(sheet_id): entry}}


def deck(nickname: str, description: str, cards: list[dict], sheets: dict[str, dict], sideways: bool) -> dict:
    """A custom deck of `cards` (one object per copy); a single card stands alone, as TTS
    keeps no deck of one."""
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Transform": transform(), "Nickname": nickname, "Description": description,
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "HideWhenFaceDown": True, "SidewaysCard": sideways, "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": sheets, "ContainedObjects": cards}


def token(front: Face, image_url: str, back_url: str | None) -> dict:
    """A Custom Token (its outline read from the image's transparency, so a round one stays
    round), or with a back a two-faced Custom Tile; sized in the table's units (about inches)."""
    image = {"ImageURL": image_url, "ImageSecondaryURL": back_url or "", "ImageScalar": 1.0, "WidthScale": 0.0}
    if back_url is None:
        image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}
    else:
        kind = {"round": 2, "hex-flat": 1, "hex-pointy": 1}.get(front.shape, 0)   # TTS: box, hex, circle
        image["CustomTile"] = {"Type": kind, "Thickness": 0.2, "Stackable": True,
                               "Stretch": True}
    scale = front.size[0] / INCH
    return {"Name": "Custom_Token" if back_url is None else "Custom_Tile",
            "Transform": {**transform(), "rotY": 0, "rotZ": 0, "scaleX": scale, "scaleY": 1, "scaleZ": scale},
            "Nickname": front.title, "Description": front.code, "CustomImage": image}


def bag(nickname: str, description: str, contents: list[dict]) -> dict:
    return {"Name": "Bag", "Transform": {**transform(), "rotY": 0, "rotZ": 0}, "Nickname": nickname,
            "Description": description, "ContainedObjects": contents}


def board(nickname: str, description: str, size_mm: tuple[float, float], image_url: str, across: int) -> dict:
    """A Custom Board showing one side, scaled so that it keeps its proportions; `across`
    places the second side beside the first."""
    w, h = size_mm
    return {"Name": "Custom_Board", "Transform": {**transform(), "rotY": 0, "rotZ": 0, "posX": across * w / INCH,
                                                  "scaleX": w / 500, "scaleY": 1, "scaleZ": w / 500},
            "Nickname": nickname, "Description": description,
            "CustomImage": {"ImageURL": image_url, "ImageSecondaryURL": "", "WidthScale": round(w / h, 4)}}


def transform() -> dict:
    """Where an object appears: above the table's centre, face down (TTS places a loaded
    saved object at the pointer anyway)."""
    return {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
            "scaleX": 1, "scaleY": 1, "scaleZ": 1}
