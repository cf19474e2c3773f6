"""Watch cards/ and templates/ (game folders hold their fonts and images too) with
watchfiles, which uses the OS's own change notices (inotify, FSEvents, ReadDirectoryChanges)
and gathers an editor's burst of writes into one batch; after each batch, reload just the
games the changed files belong to."""

from __future__ import annotations

import sys
import threading
import traceback
from pathlib import Path

import watchfiles

from .live import Live

STEP_MS = 30
"""A batch ends after this long without a new change: an editor's save is one reload."""
QUIET_MS = 250
"""After this long without a change, the layout warnings of what was reloaded are gathered."""


def affected(live: Live, paths) -> set[str] | None:
    """The games that changed files belong to; None for every game (templates/shared/,
    or anything outside a game's own folders)."""
    cards, templates = live.project.cards.resolve(), live.project.templates.resolve()
    games = set()
    for path in paths:
        path = Path(path).resolve()
        for top in (cards, templates):
            try:
                rel = path.relative_to(top)
            except ValueError:
                continue
            if len(rel.parts) < 2 or (top == templates and rel.parts[0] == "shared"):
                return None
            games.add(rel.parts[0])
            break
        else:
            return None
    return games


class Watcher(threading.Thread):
    """Reloads the changed games after every save, until stopped."""

    def __init__(self, live: Live):
        super().__init__(name="pnpgen-preview-watch", daemon=True)
        self.live = live
        self.stop = threading.Event()
        self.ready = threading.Event()   # set once the watch is in place (tests edit only after it)
        self.batches = 0

    def run(self) -> None:
        paths = [p for p in (self.live.project.cards, self.live.project.templates) if p.is_dir()]
        if not paths:
            self.ready.set()
            return
        changes = watchfiles.watch(*paths, stop_event=self.stop, step=STEP_MS, rust_timeout=QUIET_MS,
                                   yield_on_timeout=True, raise_interrupt=False)
        for batch in changes:
            self.ready.set()
            try:
                if batch:
                    self.batches += 1
                    self.live.refresh(affected(self.live, [p for _, p in batch]))
                else:           # quiet for a moment: now the slower layout warnings
                    self.live.settle()
            except Exception:   # keep watching: a bug shows once in the terminal, not as a dead preview
                traceback.print_exc(file=sys.stderr)
        self.ready.set()

    def close(self) -> None:
        self.stop.set()
        self.join(timeout=5)
