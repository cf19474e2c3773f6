"""`pnpgen preview --since REF`: what changed since REF, for the page. The comparison is
pnpgen.revisions' own (cards paired by code and title, compared by what they print); this
module turns it into the page's JSON (each change pointing at its card's tile) and draws the
before / now / difference pictures with pnpgen.revisions.pictures, only when the page asks
for one, cached by the pair of face digests so an unchanged change is not drawn again."""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from dataclasses import dataclass, field

from ..revisions import Change, GameChanges
from ..revisions.pictures import DPI, picture, render, sides_to_picture
from .snapshot import Snapshot


@dataclass
class Pictures:
    """PNG pictures of changes by key, and the rendered faces they are made of by digest (the
    faces at REF do not change: a card edited again and again has its old face drawn once).
    Not thread-safe: the caller holds the drawing lock."""

    keep_faces: int = 32
    pngs: dict[str, bytes] = field(default_factory=dict)
    faces: OrderedDict = field(default_factory=OrderedDict)     # digest -> PIL image
    log: list[str] = field(default_factory=list)                # keys of every picture drawn, in order

    def draw(self, change: Change, side: str, since: str) -> bytes:
        """before | now | difference (one panel for an added or removed face), as write_pictures draws them."""
        before, after = change.before.get(side), change.after.get(side)
        if change.kind == "added":
            before = None
        if change.kind == "removed":
            after = None
        todo = [d for d in (before, after) if d is not None and d.digest not in self.faces]
        for d, image in zip(todo, render(todo, DPI) if todo else []):
            self.faces[d.digest] = image
        for d in (before, after):
            if d is not None:
                self.faces.move_to_end(d.digest)
        while len(self.faces) > self.keep_faces:
            self.faces.popitem(last=False)
        image, _ = picture(change, side, self.faces[before.digest] if before else None,
                           self.faces[after.digest] if after else None, since, DPI)
        out = io.BytesIO()
        image.save(out, format="PNG", dpi=(DPI, DPI))
        return out.getvalue()

    def prune(self, keep: set[str]) -> None:
        for key in [k for k in self.pngs if k not in keep]:
            del self.pngs[key]


def picture_key(change: Change, side: str, since: str) -> str:
    """A picture's name: the digests of the face before and now, and what its labels say."""
    before, after = change.before.get(side), change.after.get(side)
    parts = (since, side, change.kind, before.digest if before and change.kind != "added" else "",
             after.digest if after and change.kind != "removed" else "", change.code, change.title,
             change.old_code or "", change.old_title or "", str(change.board))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def sources(changes: GameChanges | None) -> dict[str, tuple[Change, str]]:
    """Every picture the changes call for, by key."""
    out = {}
    for change in changes.changes if changes else []:
        for side in sides_to_picture(change):
            out[picture_key(change, side, changes.since)] = (change, side)
    return out


def changes_json(game_id: str, changes: GameChanges, snap: Snapshot | None) -> dict:
    """The changes for the page: counts and one item per change, each naming the tile of its
    card on the page (none for a removed card) and its pictures."""
    tiles, titles = {}, {}
    for deck in snap.decks if snap else []:
        key = f"{deck.kind}:{deck.id}"
        tiles[(deck.kind == "board", deck.id, "~back")] = f"{key}/~back" if deck.common_back else None
        for card in deck.cards:
            found = card.key if deck.kind == "board" else card.code
            tiles[(deck.kind == "board", deck.id, found)] = f"{key}/{card.key}"
            titles[f"{key}/{card.key}"] = card.title      # a card with no title: the page's label for it
    items = []
    for d in changes.decks:
        for change in ([d.back] if d.back else []) + d.changes:
            common = change is d.back
            tile = None
            if change.kind != "removed":
                tile = tiles.get((d.board, d.id, "~back" if common else "board" if d.board else change.code))
            items.append({
                "kind": change.kind, "deck": d.id, "deck_name": d.name, "board": d.board, "common_back": common,
                "code": change.code,
                "title": titles.get(tile, change.title) if change.title == change.code else change.title,
                "old_code": change.old_code,
                "old_title": change.old_title, "sides": list(change.sides), "copies": list(change.copies),
                "tile": tile,
                "pictures": [{"side": side, "url": f"/changes/{game_id}/{picture_key(change, side, changes.since)}.png"}
                             for side in sides_to_picture(change)]})
    return {"since": changes.since, "status": changes.status, "counts": changes.counts(),
            "back_changed": any(d.back for d in changes.decks), "items": items}
