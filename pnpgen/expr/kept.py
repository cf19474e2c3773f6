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
from pathlib import Path

from .. import files
from ..errors import InputError

MAX_KEPT = 50_000
"""Texts a kind keeps (past that, no more are added)."""
MAX_BYTES = 64 << 20
"""A larger file is not read (it is not one this module wrote)."""

_STORES: list["Kept"] = []
_version: str | None = None


class Kept:
    """One kind of answer, by text: read from its file when first asked, then added to."""

    def __init__(self, kind: str, valid):
        self.kind = kind
        self.valid = valid        # (value) -> bool: what a value of this kind must be
        self.values: dict | None = None
        self.added = 0
        _STORES.append(self)

    def get(self, key: str):
        if self.values is None:
            self.values = _load(self.path(), self.valid) or {}
        return self.values.get(key)

    def put(self, key: str, value) -> None:
        if self.values is None:
            self.get(key)
        if len(self.values) < MAX_KEPT:
            self.values[key] = value
            self.added += 1

    def path(self) -> Path:
        return files.user_cache() / f"{self.kind}-{_language_version()}.marshal"

    def keep(self) -> None:
        """Write what was added since the file was read."""
        if not self.added or self.values is None:
            return
        self.added = 0
        path = self.path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            files.write_atomically(path, marshal.dumps({**(_load(path, self.valid) or {}), **self.values}))
        except (OSError, ValueError, InputError):
            pass

    def forget(self) -> None:
        """As a new process finds it: nothing read yet (for tests)."""
        self.values, self.added = None, 0


def keep_all() -> None:
    """Write what every kind added since its file was read."""
    for store in _STORES:
        store.keep()


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
            st = path.stat()
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        _version = h.hexdigest()[:32]
    return _version
