"""The preview's HTTP side, on the standard library's ThreadingHTTPServer: the page and its
static files, the state as JSON, face images, pictures of changes (--since), and /events,
a server-sent event stream that tells the page when the state changed (one thread per open
page; SSE needs nothing on the page but EventSource, and reconnects by itself). Bound to
127.0.0.1 only; requests naming another host are refused, so a web page elsewhere cannot
read the cards (DNS rebinding)."""

from __future__ import annotations

import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from .live import Live

HOST = "127.0.0.1"
BACKLOG = 1024
"""Connections the kernel holds while the server is busy (the system may cap it lower)."""
MAX_THREADS = 32
"""Requests answered at once; more wait their turn in the backlog."""
MAX_STREAMS = 64
"""Open pages' event streams; a page beyond them is told to retry later."""
PING_SECONDS = 15.0
"""A comment line on the event stream this often, so a page that went away is noticed."""
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
IMAGE = re.compile(r"^/img/([A-Za-z0-9_.-]+)/([0-9a-f]{8,64})\.png$")
PICTURE = re.compile(r"^/changes/([A-Za-z0-9_.-]+)/([0-9a-f]{8,64})\.png$")


def static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files shipped in pnpgen/preview/static/, by URL path."""
    out = {}
    for entry in resources.files(__package__).joinpath("static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in STATIC_TYPES:
            out[f"/static/{entry.name}"] = (entry.read_bytes(), STATIC_TYPES[suffix])
    out["/"] = out["/static/index.html"]
    return out


class PreviewServer(ThreadingHTTPServer):
    """One preview: its live state and its page. A burst of requests waits in the listen
    backlog, not refused (a refused connection is retried by the browser only a second or more
    later); at most MAX_THREADS requests are answered at once, and at most MAX_STREAMS pages
    hold an event stream (each a thread of its own, outside that count), so memory stays flat."""

    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, live: Live, port: int = 8765):
        self.live = live
        self.static = static_files()
        self.answering = threading.BoundedSemaphore(MAX_THREADS)
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self.streaming = threading.local()      # this thread gave its place back to stream events
        self.requests_log = None                # told each request answered (pnpgen preview -v), or None
        super().__init__((HOST, port), Handler)

    def process_request(self, request, client_address):
        self.answering.acquire()       # (the accept loop waits here; new connections wait in the backlog)
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.answering.release()
            raise

    def process_request_thread(self, request, client_address):
        self.streaming.now = False
        try:
            super().process_request_thread(request, client_address)
        finally:
            if self.streaming.now:
                self.streams.release()
            else:
                self.answering.release()

    def stream(self) -> bool:
        """Turn this request's thread into an event stream's: False when MAX_STREAMS are open."""
        if not self.streams.acquire(blocking=False):
            return False
        self.streaming.now = True
        self.answering.release()
        return True

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def close(self) -> None:
        """Stop serving and end every open event stream."""
        self.live.close()
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "pnpgen-preview"

    def log_message(self, format, *args):   # the terminal is for the designer's messages (verbose: these too)
        if self.server.requests_log is not None:
            self.server.requests_log(format % args)

    def do_GET(self):
        if not self._local():
            return self._send(HTTPStatus.FORBIDDEN, b"the preview answers only to 127.0.0.1\n", "text/plain")
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        live = self.server.live
        if path in self.server.static:
            body, kind = self.server.static[path]
            return self._send(HTTPStatus.OK, body, kind, "no-cache")
        if path == "/state.json":
            return self._send(HTTPStatus.OK, live.state_json(), "application/json", "no-store")
        if path == "/events":
            return self._events()
        match = IMAGE.match(path)
        if match:
            png = live.image(match[1], match[2], full="full" in query)
            if png is None:
                return self._send(HTTPStatus.NOT_FOUND, b"no such face (the card changed since)\n", "text/plain")
            # named by what the face prints: the same address always shows the same picture
            return self._send(HTTPStatus.OK, png, "image/png", "max-age=86400, immutable")
        match = PICTURE.match(path)
        if match:
            png = live.change_picture(match[1], match[2])
            if png is None:
                return self._send(HTTPStatus.NOT_FOUND, b"no such change (the card changed since)\n", "text/plain")
            # named by the faces before and now: the same address always shows the same picture
            return self._send(HTTPStatus.OK, png, "image/png", "max-age=86400, immutable")
        if path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")
        return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _local(self) -> bool:
        host = self.headers.get("Host")
        return host is None or host.rsplit(":", 1)[0] in ("127.0.0.1", "localhost")

    def _send(self, status, body: bytes, kind: str, cache: str = "no-store"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _events(self):
        """`state` events ({"version", "busy"}) whenever there is news, until the page goes."""
        live = self.server.live
        if not self.server.stream():
            return self._send(HTTPStatus.SERVICE_UNAVAILABLE, b"too many open pages; close some\n", "text/plain")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        tick = None
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while not live.closed:
                now = live.tick if tick is None else live.wait(tick, PING_SECONDS)
                if live.closed:
                    break
                if now != tick:
                    tick = now
                    data = json.dumps({"version": live.version, "busy": live.busy})
                    self.wfile.write(f"event: state\ndata: {data}\n\n".encode())
                else:
                    self.wfile.write(b": ping\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        self.close_connection = True
