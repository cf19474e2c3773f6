"""Print images (printres.PrintImage) kept on disk, one file each, so that a rebuild with
unchanged art, and the build beside its worker processes, take the resampled image rather
than decode the original again. An entry is named after what it is made from: the file's
path, size and modification time (500 MB of art is not read to find it), the pixel size it
is resampled to, the settings, and the code and Pillow that made it. Worker processes that
meet the same image at once take turns (a lock file per entry): one makes it, the others
read it. Without a folder (a preview, an export) images are kept in memory, a few at a time.

Each entry's file is named after its game too (`<game>.<name>.img`), so that after a build
of a game its entries that no page of the game draws any more are removed (`prune`), and
those of other games kept."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from pathlib import Path
from typing import Callable

import PIL

from .. import files
from ..errors import InputError
from . import printres
from .printres import ImageSettings, PrintImage, StoredImage

FORMAT = 1
"""Bumped when what an entry holds changes meaning."""
_CODE = hashlib.sha256(Path(printres.__file__).read_bytes()).hexdigest()[:16]
_HELD: dict[str, PrintImage] = {}
"""Images made in this process with no folder to keep them in, by entry name (a preview
redraws on every save)."""
_HOLD = 64
_NAME = re.compile(r"(?:(?P<game>.+)\.)?(?P<name>[0-9a-f]{64})\.img")


class ImageStore:
    """Print images by name, in `folder` (None: kept in this process only), for the game `game`."""

    def __init__(self, folder: Path | None = None, game: str = ""):
        self.folder, self.game = folder, game
        self.served: set[str] = set()
        """The names of the entries this process asked for."""

    @staticmethod
    def name(path: Path, size: tuple[int, int], settings: ImageSettings) -> str | None:
        """The entry name of the image file at `path` resampled to `size`; None when the file
        cannot be read."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        made_of = f"{FORMAT}:{_CODE}:{PIL.__version__}:{path}:{st.st_size}:{st.st_mtime_ns}:{size}:{settings.text()}"
        return hashlib.sha256(made_of.encode()).hexdigest()

    def made(self, name: str, key: str, make: Callable[[], PrintImage]) -> PrintImage | StoredImage:
        """The image kept under `name` for the op key `key`; made (by `make`) and kept when
        there is none, by one process at a time. With a folder, the image as its entry file
        describes it (its streams are not read: a PDF copies them from the file)."""
        found = self.get(name, key)
        if found is not None:
            return found
        self.served.add(name)
        if self.folder is None:
            return self._hold(name, make())
        lock = self.folder / f"{self._file(name)}.lock"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = open(lock, "a")
        except OSError:
            return self._hold(name, make())
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)      # (released when the handle closes)
            try:
                found = self.get(name, key)
                if found is None:
                    made = make()
                    self.put(name, made)
                    found = self.get(name, key) or made
            finally:
                files.remove_quietly(lock)
        return found

    def get(self, name: str, key: str) -> PrintImage | StoredImage | None:
        """The image kept under `name` for the op key `key`, or None."""
        self.served.add(name)
        found = _HELD.get(name)
        if found is None and self.folder is not None:
            found = StoredImage.read(self.path(name))
        return found if found is not None and found.key == key else None

    def put(self, name: str, image: PrintImage) -> None:
        """Keep `image` (on disk when there is a folder: a disk that refuses only costs speed)."""
        if self.folder is None:
            self._hold(name, image)
            return
        try:
            files.write_atomically(self.path(name), image.dump())
        except InputError:
            self._hold(name, image)

    def path(self, name: str) -> Path:
        """The file of the entry `name` (there is one only with a folder)."""
        return self.folder / f"{self._file(name)}.img"

    def _file(self, name: str) -> str:
        return f"{self.game}.{name}" if self.game else name

    def stale(self) -> list[str]:
        """The files of this game's entries that this process did not ask for, and of entries
        named after no game (made before entries were): those `prune` may remove."""
        if self.folder is None or not self.game:
            return []
        try:
            listing = [entry.name for entry in os.scandir(self.folder)]
        except OSError:
            return []
        out = []
        for file in listing:
            match = _NAME.fullmatch(file)
            if match is not None and (match["game"] is None or match["game"] == self.game
                                      and match["name"] not in self.served):
                out.append(file)
        return out

    def prune(self, live: set[str]) -> int:
        """Remove the `stale` entries whose names are not in `live` (those some page of the
        game still draws); returns how many went. Other games' entries stay."""
        gone = 0
        for file in self.stale():
            match = _NAME.fullmatch(file)
            if match["game"] and match["name"] in live:
                continue
            try:
                os.unlink(self.folder / file)
                gone += 1
            except OSError:
                pass
        return gone

    @staticmethod
    def _hold(name: str, image: PrintImage) -> PrintImage:
        if len(_HELD) >= _HOLD:
            _HELD.clear()
        _HELD[name] = image
        return image
