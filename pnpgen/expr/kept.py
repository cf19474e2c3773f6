"""What the expression language works out about a text, kept on this machine: the names an
expression uses (names.py) and the Python source Jinja generates for it (sandbox.py). Working
either out parses the text and runs Jinja's code generator over it, and every build does so
for every template, rule and rulebook expression it meets: a process that finds the answers
kept starts drawing sooner (the generated source still goes through Python's compiler).

Each kind is one file in the user's cache folder (files.user_cache, beside the font faces),
for one version of the language: its name holds a digest of Jinja2's first file and of this
package's files, by size and time. A file holds plain data (text keys, text or tuples of text
values), checked as it is read: a damaged, foreign or oversized one is read as nothing. What
a process adds is written when `keep_all` is called (after a plan, a rules check, a build),
merged with what other processes wrote meanwhile; a cache folder that cannot be written is
no error. A text that does not compile is never kept."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import time
from pathlib import Path

from .. import files
from ..errors import InputError

MAX_KEPT = 50_000
"""Texts a kind keeps (past that, no more are added)."""
MAX_TEXT = 4096
"""A longer text is not kept (a rulebook's whole source: it changes with every edit)."""
MAX_WRITE = 8 << 20
"""A file that would be larger keeps only what this process used (old texts drop out)."""
MAX_BYTES = 2 * MAX_WRITE
"""A larger file is not read (it is not one this module wrote)."""
STALE_DAYS = 30
"""Another version's file not written for this long is removed when this version's is written."""

_STORES: list["Kept"] = []
_version: str | None = None


class Kept:
    """One kind of answer, by text: read from its file when first asked, then added to."""

    def __init__(self, kind: str, valid):
        self.kind = kind
        self.valid = valid        # (value) -> bool: what a value of this kind must be
        self.values: dict | None = None
        self.added = 0
        self.used: set[str] = set()       # the keys this process asked for or added
        self.new: list[str] = []          # the keys this process added, in order
        _STORES.append(self)

    def get(self, key: str):
        if self.values is None:
            self.values = _load(self.path(), self.valid) or {}
        self.used.add(key)
        return self.values.get(key)

    def put(self, key: str, value) -> None:
        if self.values is None:
            self.get(key)
        if len(self.values) < MAX_KEPT and len(key) <= MAX_TEXT:
            self.values[key] = value
            self.used.add(key)
            self.new.append(key)
            self.added += 1

    def path(self) -> Path:
        return files.user_cache() / f"{self.kind}-{_language_version()}.marshal"

    def keep(self) -> None:
        """Write what was added since the file was read."""
        if not self.added or self.values is None:
            return
        self.added = 0
        path = self.path()
        data = marshal.dumps({**(_load(path, self.valid) or {}), **self.values})
        if len(data) > MAX_WRITE:
            data = marshal.dumps({key: value for key, value in self.values.items() if key in self.used})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            files.write_atomically(path, data)
            _remove_stale(path, self.kind)
        except (OSError, ValueError, InputError):
            pass

    def forget(self) -> None:
        """As a new process finds it: nothing read yet (for tests)."""
        self.values, self.added, self.used, self.new = None, 0, set(), []


def keep_all() -> None:
    """Write what every kind added since its file was read."""
    for store in _STORES:
        store.keep()


def marks() -> dict[str, int]:
    """Where each kind's additions stand now (for `added_since`)."""
    return {store.kind: len(store.new) for store in _STORES}


def added_since(marked: dict[str, int]) -> dict[str, dict]:
    """What each kind added since `marked` (`marks()`), by kind: what a worker process hands
    back to the build, which keeps it (`take`), since a worker's own additions die with it."""
    out = {}
    for store in _STORES:
        keys = store.new[marked.get(store.kind, 0):]
        if keys:
            out[store.kind] = {key: store.values[key] for key in keys}
    return out


def take(added: dict[str, dict]) -> None:
    """Add what a worker process found (`added_since`) to this process's kinds."""
    for store in _STORES:
        for key, value in added.get(store.kind, {}).items():
            if store.valid(value) and isinstance(key, str):
                store.put(key, value)


def _remove_stale(path: Path, kind: str) -> None:
    """Remove the files of other versions of the language not written for STALE_DAYS."""
    for other in path.parent.glob(f"{kind}-*.marshal"):
        try:
            if other != path and time.time() - other.stat().st_mtime > STALE_DAYS * 86400:
                other.unlink()
        except OSError:
            pass


def _load(path: Path, valid) -> dict | None:
    """What the file at `path` keeps, or None (not there, unreadable, or not that shape)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(kept, dict) or len(kept) > MAX_KEPT:
        return None
    if not all(isinstance(key, str) and valid(value) for key, value in kept.items()):
        return None
    return kept


def _language_version() -> str:
    """A digest of Jinja2's first file and of this package's files (path, size, time)."""
    global _version
    if _version is None:
        h = hashlib.sha256(b"kept 1\0")
        for path in [Path(importlib.util.find_spec("jinja2").origin), *sorted(Path(__file__).parent.glob("*.py"))]:
            h.update(files.stat_text(path).encode())
        _version = h.hexdigest()[:32]
    return _version
