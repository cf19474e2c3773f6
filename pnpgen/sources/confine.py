"""The one rule for every file a game reads (decks, boards, templates, rulebook, layouts,
images, fonts, icons) and for what `--since` names: the path is resolved with its links
followed, must land inside the folder it belongs to, and must be a regular file (not a
FIFO, which would hang the read, a device or a folder) no larger than its kind allows. A
loop of links, a name the system refuses or an escape is a refusal whose message says
what to do."""

from __future__ import annotations

import errno
import itertools
import os
import stat
from pathlib import Path

KINDS = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
         stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}
"""What a path that is not a regular file is, in words."""


class Refused(ValueError):
    """A path that may not be read: the message says why, and what to do instead."""


def resolved(path: Path, shown: str) -> Path | None:
    """`path` with every link followed, or None when it (or a folder on the way) does not
    exist. A loop of links or a name the system cannot take is Refused."""
    try:
        return Path(os.path.realpath(path, strict=True))
    except ValueError:       # (a NUL byte in the name)
        raise Refused(f"'{shown}' is not a usable file name (it holds a NUL character)") from None
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        if exc.errno == errno.ELOOP:
            raise Refused(f"'{shown}' is a loop of symbolic links; point the link at a real file") from None
        raise Refused(f"cannot read '{shown}': {exc.strerror or exc}") from None


def inside(root: Path, rel: str | Path, max_bytes: int | None = None, folder: str = "game folder") -> Path:
    """`rel` (relative to `root`, or a path found under it) resolved: inside `root`, and when it
    exists a regular file of at most `max_bytes`. A missing file comes back unresolved (its
    caller says 'not found' in its own words); anything else wrong is Refused."""
    if not isinstance(rel, (str, Path)) or not str(rel):
        raise Refused(f"expected a file path relative to the {folder}")
    shown = str(rel)
    base = resolved(Path(root), str(root)) or Path(root).absolute()
    path = Path(root) / rel
    real = resolved(path, shown)
    if real is None:       # missing, or a link to nowhere: inside only if it would be
        real = Path(os.path.realpath(path))
    try:
        real.relative_to(base)
    except ValueError:
        raise Refused(f"'{shown}' points outside the {folder}; keep files inside {Path(root).name}/") from None
    if real.exists():
        regular_file(real, shown, max_bytes)
    return real


LOOKED_AT = 5_000
"""Entries of one folder a did-you-mean compares a missing name with (a folder of a million
files costs no more than one of five thousand)."""


def near_miss(root: Path, rel: str) -> str:
    """' (did you mean 'art/back.jpg'?)' when `rel`, which is not in `root`, is the name of
    something there but for case or a slip of the keys ('art/Back.jpg', 'Art/back.jpg',
    'art/bakc.jpg'): each part of the path that is missing is matched with the entries of
    the folder it should be in, case first, then by likeness. '' when nothing is close."""
    import difflib      # (only now: a build that finds every file never needs it)
    folder, found = Path(root), []
    parts = [p for p in Path(str(rel).replace("\\", "/")).parts if p not in ("", ".")]
    for part in parts:
        if (folder / part).exists():
            folder, found = folder / part, found + [part]
            continue
        try:
            with os.scandir(folder) as entries:
                names = sorted(e.name for e in itertools.islice(entries, LOOKED_AT))
        except OSError:
            return ""
        same = [n for n in names if n.lower() == part.lower()]
        close = same or difflib.get_close_matches(part, names, n=1, cutoff=0.6)
        if not close:
            return ""
        folder, found = folder / close[0], found + [close[0]]
    guess = "/".join(found)
    return f" (did you mean '{guess}'?)" if found and guess != str(rel) and (Path(root) / guess).exists() else ""


def regular_file(path: Path, shown: str, max_bytes: int | None = None) -> int:
    """The size of `path`, which must be a regular file of at most `max_bytes` (else Refused)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        raise Refused(f"cannot read '{shown}': {getattr(exc, 'strerror', None) or exc}") from None
    kind = stat.S_IFMT(info.st_mode)
    if kind != stat.S_IFREG:
        raise Refused(f"'{shown}' is {KINDS.get(kind, 'not a regular file')}, not a file; give a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise Refused(f"'{shown}' is {_mb(info.st_size)}; the limit is {_mb(max_bytes)}: make it smaller")
    return info.st_size


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 100_000 else f"{size} bytes"
