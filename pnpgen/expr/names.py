"""The names an expression uses, as Jinja finds them (`meta.find_undeclared_variables`), kept
on this machine. Finding them parses the expression and runs Jinja's code generator over it,
and every build checks every expression of every template and rule before drawing a card: in
a rebuild whose pages are all kept, that was a fifth of the time.

They are kept in the user's cache folder (files.user_cache, beside the font faces), in one
file for each version of the expression language (Jinja2's first file and the files of this
package, by size and time), as plain data checked as it is read: each expression's text,
with the names its environment defines, and the names it uses. An expression that does not
parse is not kept (it is parsed again, to say what is wrong)."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
from pathlib import Path
from weakref import WeakKeyDictionary

from .. import files
from ..errors import InputError
from . import jinja

MAX_KEPT = 50_000
"""Expressions a machine keeps (past that, no more are added)."""
MAX_BYTES = 32 << 20
"""A larger file is not read (it is not one this module wrote: 50,000 expressions are far less)."""

_kept: dict[str, tuple[str, ...]] | None = None
"""Each expression's names: read from the file when first needed, then added to."""
_added = 0
"""Expressions found since the file was read (`keep` writes them)."""
_defines: WeakKeyDictionary = WeakKeyDictionary()
"""Each environment's globals, as one text: part of the key (Jinja leaves them out of the names)."""
_path: Path | None = None


def used(env, source: str) -> frozenset:
    """The names `source` (a template text) uses that `env` does not define; raises Jinja's
    TemplateError when it does not parse."""
    global _added
    kept = _read() if _kept is None else _kept
    defined = _defines.get(env)
    if defined is None:
        defined = _defines[env] = " ".join(sorted(env.globals))
    key = f"{defined}\0{source}"
    names = kept.get(key)
    if names is None:
        names = tuple(sorted(jinja.meta.find_undeclared_variables(env.parse(source))))
        if len(kept) < MAX_KEPT:
            kept[key] = names
            _added += 1
    return frozenset(names)


def keep() -> None:
    """Write what was found since the file was read, with what another process wrote to it
    meanwhile (a cache folder that cannot be written is no error)."""
    global _added
    if not _added or _kept is None:
        return
    _added = 0
    path = _file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(path, marshal.dumps({**(_load(path) or {}), **_kept}))
    except (OSError, ValueError, InputError):
        pass


def _read() -> dict:
    global _kept
    _kept = _load(_file()) or {}
    return _kept


def _load(path: Path) -> dict | None:
    """What the file at `path` keeps, or None (not there, unreadable, or not that shape)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(kept, dict) or len(kept) > MAX_KEPT:
        return None
    for key, names in kept.items():
        if not (isinstance(key, str) and isinstance(names, tuple) and all(isinstance(n, str) for n in names)):
            return None
    return kept


def _file() -> Path:
    """This version's file: names-<digest of Jinja2's first file and this package's files>."""
    global _path
    if _path is None:
        h = hashlib.sha256(b"names 1\0")
        for path in [Path(importlib.util.find_spec("jinja2").origin), *sorted(Path(__file__).parent.glob("*.py"))]:
            st = path.stat()
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        _path = files.user_cache() / f"names-{h.hexdigest()[:32]}.marshal"
    return _path
