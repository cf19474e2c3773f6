"""`pnpgen preview`: a live page of every card face, redrawn as the designer saves.

snapshot (a game -> faces, labels, findings; images cached by what a face prints) ->
live (each game's last good snapshot, its errors, with --since its changes since a revision
(changes: their JSON and pictures), a version) -> server (HTTP + server-sent events) and
watch (watchfiles -> live.refresh); static/ is the page itself."""

from __future__ import annotations

import errno
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ..build import Project
from ..errors import InputError, did_you_mean
from ..game.loader import discover
from ..revisions import Revision, open_revision
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
    revision: Revision | None = None     # --since, opened by start: closed with the preview

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        self.server.close()
        self.thread.join(timeout=5)
        if self.revision is not None:
            with self.live.lock:      # (a picture being drawn from its files finishes first)
                self.revision.close()


def start(project: Project, names=(), port: int = DEFAULT_PORT, watch: bool = True,
          log: Callable[[str], None] | None = None, workers: int | None = None,
          on_ready: Callable[[str], None] | None = None, since: str | Revision | None = None,
          requests_log: Callable[[str], None] | None = None) -> Running:
    """Bind 127.0.0.1:port (0: any free port), draw every face once, then serve and watch;
    `requests_log` is told of every request from the first one on (pnpgen preview -v).
    The first drawing may use a process per core (`workers`); once threads run, one process.
    `since`: a git revision or an earlier project folder (as `pnpgen changes` takes it), opened
    here once and kept for the life of the preview, or a Revision the caller keeps; a bad one
    raises InputError before anything is served."""
    revision = open_revision(project, since) if isinstance(since, str) else since
    owned = revision if isinstance(since, str) else None
    live = Live(project, tuple(names), Images(workers=workers), log, revision)
    try:
        server = PreviewServer(live, port)
        server.requests_log = requests_log
    except OSError as exc:
        if owned is not None:
            owned.close()
        hint = "; choose another with --port N (0 picks a free one)" if exc.errno == errno.EADDRINUSE else ""
        raise InputError.at(f"{HOST}:{port}", None, f"cannot serve the preview: {exc.strerror or exc}{hint}") \
            from None
    if on_ready:
        on_ready(server.url)
    try:
        live.refresh()
    except BaseException:
        server.server_close()
        if owned is not None:
            owned.close()
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
    return Running(live, server, watcher, thread, owned)


def serve(project: Project, names=(), port: int = DEFAULT_PORT, since: str | None = None, quiet: bool = False,
          verbose: bool = False) -> None:
    """The `pnpgen preview` command: print the address, serve until Ctrl-C (`quiet`: say
    nothing; `verbose`: also each request served). Raises InputError for a game that is not
    there, a port that cannot be had, or a `since` that is neither a git revision nor a
    project folder."""
    known = discover(project.cards)
    if not names and not known:
        raise InputError.at(str(project.cards), None, "no games found: add cards/<game>/game.yaml")
    problems = [f"no game '{n}' (no {n}/game.yaml){did_you_mean(n, known)}" for n in names if n not in known]
    if problems:
        raise InputError.at(str(project.cards), None, "; ".join(problems))

    def log(message: str) -> None:
        if not quiet:
            print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)

    revision = open_revision(project, since) if since is not None else None   # a bad one: before serving

    def ready(url: str) -> None:
        if not quiet:
            print(f"pnpgen preview: {url}", flush=True)
        if revision is not None:
            log(f"comparing with {revision.label} after every reload: the page lists what prints differently")
        log("drawing every face once; the page fills in when that is done")

    running = None
    try:     # (a Ctrl-C as soon as the page fills in, before the watch is up, stops quietly too)
        running = start(project, names, port, log=log, on_ready=ready, since=revision,
                        requests_log=log if verbose and not quiet else None)
        log(f"watching {project.cards}/ and {project.templates}/: save a file and the page redraws; Ctrl-C stops")
        while True:     # (short sleeps, not one endless wait: a Ctrl-C caught just as that wait began, or
            time.sleep(0.25)    # by another thread, never ended it; it ends the next sleep)
    except KeyboardInterrupt:
        pass
    finally:
        try:
            if running is not None:
                running.close()
                if revision is not None:
                    with running.live.lock:     # (a picture being drawn from its files finishes first)
                        revision.close()
        except KeyboardInterrupt:   # a second Ctrl-C while closing: the threads are daemons anyway
            pass
        finally:
            if revision is not None:
                revision.close()
