"""A rulebook left in place when nothing it is made from has changed: typesetting one is most
of a game's build (one to two seconds, where a rebuild of its unchanged decks takes a few
tenths), so an unchanged rebuild reads its key, finds the PDFs the last build wrote still in
out/, and says what they hold without typesetting them again.

Its key takes everything the rulebook could print differently for: pnpgen's code, game.yaml
and the templates (inputs.environment), every file in the game folder by path, size and
modification time (the decks, boards, rules and the rulebook's own source included), the
game's folder and the options that change what it says or how it is set (paper, booklet,
seed, poster, sheet layout...). The build cache keeps the key, the digest of each file as
written and what the rulebook's build said (its pages, sheets and warnings), committed with
the pages only when the whole build succeeds."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields
from pathlib import Path

from ..errors import Notice
from .cache import PageCache
from .inputs import environment
from .options import Options
from .plan import GamePlan
from .volumes import file_digest

NOT_IN_KEY = ("out", "cache", "manifest", "workers", "progress", "step", "strict", "layout")
"""Options that change nothing a rulebook says (the sheet layout is taken by its content;
--strict refuses its warnings, which are kept with it)."""


@dataclass
class Told:
    """What a rulebook's build said: its pages, its warnings and its booklet's sheets (0: no booklet)."""

    pages: int
    warnings: list[Notice]
    sheets: int = 0

    def files(self, outdir: Path) -> list[Path]:
        return [outdir / "rulebook.pdf"] + ([outdir / "rulebook-booklet.pdf"] if self.sheets else [])

    def text(self) -> str:
        notes = [[str(n.path), isinstance(n.path, Path), n.line, n.message, n.strict] for n in self.warnings]
        return json.dumps([self.pages, self.sheets, notes], ensure_ascii=False)


def read(text: str) -> Told | None:
    """What `Told.text` wrote, or None when `text` is not that shape."""
    try:
        pages, sheets, notes = json.loads(text)
        warnings = [Notice(Path(path) if is_path else path, line, message, strict)
                    for path, is_path, line, message, strict in notes]
    except (ValueError, TypeError):
        return None
    return Told(pages, warnings, sheets) if isinstance(pages, int) and isinstance(sheets, int) else None


class KeptRulebook:
    """The rulebook of one game's build as the build cache knows it (`cache` has no store
    under --no-cache: then nothing is ever kept)."""

    def __init__(self, plan: GamePlan, outdir: Path, options: Options, cache: PageCache):
        self.cache, self.outdir, self.game = cache, outdir, plan.game.id
        self.key = rulebook_key(plan, outdir.parent, options) if cache.path is not None else None

    def unchanged(self) -> Told | None:
        """What the last build's rulebook said, if its key is this build's and its files are
        in out/ as that build wrote them; None otherwise (then it is typeset)."""
        if self.key is None:
            return None
        text = self.cache.facts([self.key]).get(self.key)
        told = read(text) if text else None
        if told is None:
            return None
        for path in told.files(self.outdir):
            known = self.cache.volume(self._name(path))
            if known is None or known[0] != self.key or file_digest(path) != known[1]:
                return None
        self._keep(told.files(self.outdir))
        return told

    def written(self, told: Told, temps: list[tuple[str, Path]]) -> None:
        """Keep what this build typeset: the key, each file's digest (from its temporary file,
        `temps`: (temporary file, target) pairs) and what the build said; nothing when it
        typeset nothing (`unchanged` kept the last build's)."""
        if self.key is None or not temps:
            return
        self.cache.put_facts(self.key, told.text())
        for tmp, target in temps:
            self.cache.put_volume(self._name(target), self.key, file_digest(tmp) or "")
        self._keep([target for _, target in temps])

    def _keep(self, paths: list[Path]) -> None:
        for path in paths:
            self.cache.keep(self._name(path), [self.key])

    def _name(self, path: Path) -> str:
        return f"{self.game}/{path.name}"


def rulebook_key(plan: GamePlan, out: Path, options: Options) -> str:
    """The rulebook's key (see the module docstring)."""
    h = hashlib.sha256(b"rulebook\0" + environment(plan.game, out, every_file=True).encode())
    chosen = {f.name: getattr(options, f.name) for f in fields(options) if f.name not in NOT_IN_KEY}
    layout = options.layout
    h.update(repr((sorted(chosen.items()), layout and (layout.name, layout.spec.model_dump_json()))).encode())
    return h.hexdigest()
