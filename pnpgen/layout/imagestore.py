"""Print images (printres.PrintImage) kept on disk, one file each, so that a rebuild with
unchanged art, and the build beside its worker processes, take the resampled image rather
than decode the original again. An entry is named after what it is made from: the file's
path, size and modification time (500 MB of art is not read to find it), the pixel size it
is resampled to, the settings and the Pillow that made it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import PIL

from .. import files
from ..errors import InputError
from .printres import ImageSettings, PrintImage

FORMAT = 1
"""Bumped when what an entry holds changes meaning."""


class ImageStore:
    """Print images by name, in `folder` (None: kept in this process only)."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder
        self._held: dict[str, PrintImage] = {}

    @staticmethod
    def name(path: Path, size: tuple[int, int], settings: ImageSettings) -> str | None:
        """The entry name of the image file at `path` resampled to `size`; None when the file
        cannot be read."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        made_of = f"{FORMAT}:{PIL.__version__}:{path}:{st.st_size}:{st.st_mtime_ns}:{size}:{settings.text()}"
        return hashlib.sha256(made_of.encode()).hexdigest()

    def get(self, name: str, key: str) -> PrintImage | None:
        """The image kept under `name` for the op key `key`, or None."""
        found = self._held.get(name)
        if found is None and self.folder is not None:
            try:
                found = PrintImage.load((self.folder / f"{name}.img").read_bytes())
            except OSError:
                found = None
        return found if found is not None and found.key == key else None

    def put(self, name: str, image: PrintImage) -> None:
        """Keep `image` (on disk when there is a folder: a disk that refuses only costs speed)."""
        if self.folder is None:
            self._held[name] = image
            return
        try:
            files.write_atomically(self.folder / f"{name}.img", image.dump())
        except InputError:
            self._held[name] = image
