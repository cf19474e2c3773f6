"""`pnpgen preview`: a live page of every card face, redrawn as the designer saves.

snapshot (a game -> faces, labels, findings; images cached by what a face prints) ->
live (each game's last good snapshot, its errors, a version) -> server (HTTP + server-sent
events) and watch (watchfiles -> live.refresh); static/ is the page itself."""

from __future__ import annotations

import errno
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ..build import Project
from ..errors import InputError, did_you_mean
from ..game import discover
from .live import Live
from .server import HOST, PreviewServer
from .snapshot import Images
from .watch import Watcher

DEFAULT_PORT = 8765


@dataclass
class Running:
    """A preview being served: its address, its state, and how to stop it."""

    live: Live
    server: PreviewServer
    watcher: Watcher | None
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        self.server.close()
        self.thread.join(timeout=5)


def start(project: Project, names=(), port: int = DEFAULT_PORT, watch: bool = True,
          log: Callable[[str], None] | None = None, workers: int | None = None,
          on_ready: Callable[[str], None] | None = None) -> Running:
    """Bind 127.0.0.1:port (0: any free port), draw every face once, then serve and watch.
    The first drawing may use a process per core (`workers`); once threads run, one process."""
    live = Live(project, tuple(names), Images(workers=workers), log)
    try:
        server = PreviewServer(live, port)
    except OSError as exc:
        hint = "; choose another with --port N (0 picks a free one)" if exc.errno == errno.EADDRINUSE else ""
        raise InputError.at(f"{HOST}:{port}", None, f"cannot serve the preview: {exc.strerror or exc}{hint}") \
            from None
    if on_ready:
        on_ready(server.url)
    try:
        live.refresh()
    except BaseException:
        server.server_close()
        raise
    live.images.workers = 1     # from here on threads run: no forking render processes
    if not watch:
        live.settle()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="pnpgen-preview-http", daemon=True)
    thread.start()
    watcher = None
    if watch:
        watcher = Watcher(live)
        watcher.start()
    return Running(live, server, watcher, thread)


def serve(project: Project, names=(), port: int = DEFAULT_PORT) -> None:
    """The `pnpgen preview` command: print the address, serve until Ctrl-C. Raises
    InputError for a game that is not there or a port that cannot be had."""
    known = discover(project.cards)
    if not names and not known:
        raise InputError.at(str(project.cards), None, "no games found: add cards/<game>/game.yaml")
    problems = [f"no game '{n}' (no {n}/game.yaml){did_you_mean(n, known)}" for n in names if n not in known]
    if problems:
        raise InputError.at(str(project.cards), None, "; ".join(problems))

    def log(message: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)

    def ready(url: str) -> None:
        print(f"pnpgen preview: {url}", flush=True)
        log("drawing every face once; the page fills in when that is done")

    running = start(project, names, port, log=log, on_ready=ready)
    log(f"watching {project.cards}/ and {project.templates}/: save a file and the page redraws; Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        try:
            running.close()
        except KeyboardInterrupt:   # a second Ctrl-C while closing: the threads are daemons anyway
            pass
