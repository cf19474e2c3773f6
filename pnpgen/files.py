"""Output files, written safely: each is drawn into a temporary file beside its target and
renamed into place only when complete, so a failed command leaves no half-written file;
a folder that refuses is one located error that says what to do."""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

from .errors import InputError

PART = ".part"
"""The suffix of a file still being written (`.deck.x1y2.pdf.part`)."""


def shown(path: Path | str) -> str:
    """A path as a message shows it: relative to the working folder when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def as_written(path: Path) -> str:
    """`path` as written (links not followed), relative to the working folder when inside it."""
    here = Path.cwd()
    try:
        return str(Path(os.path.abspath(path)).relative_to(here))
    except ValueError:
        pass
    try:
        return str(path.resolve().relative_to(here.resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


TEMP = re.compile(r"^\..+\.(?P<pid>\d{1,10})-[a-z0-9_]{8}(\.[^.]+)?" + re.escape(PART) + "$")
"""The name temp_beside gives: `.` + the target's stem + `.` + the writing process's id + `-` +
mkstemp's eight random characters + the target's suffix + PART."""

OLD_TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}(\.[^.]+)?" + re.escape(PART) + "$")
"""The name earlier versions gave (no process id): always a leftover now."""

STALE_SECONDS = 6 * 3600
"""A temporary file untouched this long is a leftover even if a process of its id is running
(the id taken by another process since, or the file written on another machine)."""

_OURS: set[str] = set()
"""The names of the temporary files this process is writing (made, not yet renamed or removed)."""


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files an earlier command left in `folder` when it was killed
    before it could (pnpgen's own names only, in that folder only, links not followed), and
    only those: a file another command running now is writing (its process is alive) stays,
    so two builds of one game at once leave each other's files alone. Returns those removed."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed       # (no folder yet: nothing left over)
    for entry in sorted(entries, key=lambda e: e.name):
        if _left_over(entry) and entry.is_file(follow_symlinks=False):
            remove_quietly(entry.path)
            removed.append(Path(entry.path))
    return removed


def _left_over(entry: os.DirEntry) -> bool:
    """Whether a file in an output folder is a temporary file of pnpgen's that nobody is writing."""
    ours = TEMP.match(entry.name)
    if ours is None:
        return OLD_TEMP.match(entry.name) is not None
    pid = int(ours["pid"])
    if pid == os.getpid():
        return entry.name not in _OURS
    if not _running(pid):
        return True
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
    except OSError:
        return False


def _running(pid: int) -> bool:
    """Whether a process of this id exists (where that cannot be told, it is taken to)."""
    if pid <= 0:
        return False
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)          # signal 0: no signal, only the check
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True              # (another user's process, say)
    return True


def unwritable(path: Path | str, exc: OSError) -> InputError:
    """The error for an output that cannot be written, at the path that refused."""
    return InputError.at(shown(path), None, f"cannot write here: {exc.strerror or exc}; choose another "
                         "output folder with --out, or make this one writable")


def stat_text(path: Path) -> str:
    """A file known by its path, size and modification time (`missing`: not there), as keys take it."""
    try:
        st = path.stat()
    except OSError:
        return f"{path}:missing\0"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}\0"


def user_cache() -> Path:
    """The folder where pnpgen keeps what it learns on this machine (font faces, the names
    expressions use): $XDG_CACHE_HOME/pnpgen, or ~/.cache/pnpgen. Anything in it may be deleted."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pnpgen"


def temp_beside(target: Path) -> str:
    """A new empty temporary file in the target's folder (made if need be), named after it and
    this process: `.<stem>.<pid>-<random><suffix>.part`, so an interrupted write is recognisable
    and a write still going on is not taken for one (remove_leftovers)."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.stem}.{os.getpid()}-", suffix=target.suffix + PART,
                                   dir=target.parent)
        os.close(fd)
    except OSError as exc:
        raise unwritable(target if not target.parent.is_file() else target.parent, exc) from None
    _OURS.add(os.path.basename(tmp))
    return tmp


def finish(tmp: str, target: Path) -> None:
    """Give a finished temporary file the usual permissions (mkstemp makes it private)."""
    try:
        os.chmod(tmp, 0o644)
    except OSError as exc:
        raise unwritable(target, exc) from None


def put_in_place(written: list[tuple[str, Path]]) -> None:
    """Rename each finished temporary file onto its target."""
    for tmp, target in written:
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise unwritable(target, exc) from None
        _OURS.discard(os.path.basename(tmp))


def remove_quietly(path: Path | str) -> None:
    """Remove a file if it is there; a file already gone is no error."""
    _OURS.discard(os.path.basename(path))
    try:
        os.unlink(path)
    except OSError:
        pass


def write_atomically(target: Path, data: bytes | list) -> None:
    """Write `data` (bytes, or a list of bytes-like parts written one after another, never
    joined in memory) to `target` through a temporary file renamed into place."""
    tmp = temp_beside(target)
    try:
        with open(tmp, "wb") as f:
            if isinstance(data, list):
                f.writelines(data)
            else:
                f.write(data)
        finish(tmp, target)
        put_in_place([(tmp, target)])
    except OSError as exc:
        remove_quietly(tmp)
        raise unwritable(target, exc) from None
    except BaseException:
        remove_quietly(tmp)
        raise


class Staged:
    """Files written together and put in place together: `add` a target to get its temporary
    file; `commit` renames them all; leaving the `with` block without committing removes
    every temporary file."""

    def __init__(self) -> None:
        self.written: list[tuple[str, Path]] = []

    def add(self, target: Path) -> str:
        tmp = temp_beside(target)
        self.written.append((tmp, Path(target)))
        return tmp

    def adopt(self, pairs: list[tuple[str, Path]]) -> None:
        """Take over temporary files made elsewhere, to be renamed (or removed) with these."""
        self.written += pairs

    def commit(self) -> None:
        put_in_place(self.written)
        self.written = []

    def discard(self) -> None:
        for tmp, _ in self.written:
            remove_quietly(tmp)
        self.written = []

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, *exc) -> None:
        self.discard()


def temp_folder_beside(target: Path) -> Path:
    """A new empty folder beside `target` (a folder to be written whole), named after it."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as exc:
        raise unwritable(target, exc) from None


def replace_folder(work: Path, target: Path) -> None:
    """Put a finished folder in place of `target` whole (the old one moved aside, then removed),
    readable by everyone; on failure the finished folder is removed and the old one kept."""
    import shutil
    try:
        for path in work.rglob("*"):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        os.chmod(work, 0o755)
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
        os.replace(work, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise unwritable(target, exc) from None
