"""Fetch a card sheet from the web, for `pnpgen pull` only (builds never go online): the
address a deck's `source:` gives, a Google Sheet's sharing or publishing address turned into
the address of its export in the card sheet's format, the download held to the card sheet's
size limit and refused when it is a web page rather than a sheet."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

from .spreadsheet import MAX_FILE_BYTES

TIMEOUT = 30
"""Seconds to wait for the server at each step."""

_GOOGLE = re.compile(r"https://docs\.google\.com/spreadsheets/d/(e/)?([A-Za-z0-9_-]+)")
_FORMATS = {".csv": "csv", ".xlsx": "xlsx", ".ods": "ods"}


def export_url(url: str, suffix: str) -> str:
    """The address to download: a Google Sheet's (`.../d/ID/edit#gid=N`, or published:
    `.../d/e/ID/pubhtml?gid=N`) export of that tab as `suffix` (.csv, .xlsx, .ods); any other
    address as it is."""
    found = _GOOGLE.match(url)
    if not found:
        return url
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qs(parts.query)
    gid = (query.get("gid") or re.findall(r"gid=(\d+)", parts.fragment) or [None])[0]
    fmt = _FORMATS.get(suffix.lower(), "csv")
    base = f"https://docs.google.com/spreadsheets/d/{found[1] or ''}{found[2]}"
    if found[1]:       # published to the web
        return f"{base}/pub?output={fmt}" + (f"&gid={gid}&single=true" if gid else "")
    return f"{base}/export?format={fmt}" + (f"&gid={gid}" if gid else "")


class PullFailed(Exception):
    """A download that did not give a card sheet: the message says why, and what to do."""


def download(url: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The body at `url`, at most `limit` bytes; PullFailed when the server refuses, the body is
    larger, or it is a web page (a sign-in page, a sheet that is not shared)."""
    request = urllib.request.Request(url, headers={"User-Agent": "pnpgen-pull"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            kind = response.headers.get("Content-Type", "")
            body = response.read(limit + 1)
    except urllib.error.HTTPError as exc:
        raise PullFailed(f"the server answered {exc.code} {exc.reason}; check the address, and that the sheet "
                         "is shared ('anyone with the link') or published to the web") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise PullFailed(f"cannot fetch it ({reason}); check the address and the network") from None
    if len(body) > limit:
        raise PullFailed(f"it is larger than {limit:,} bytes, the limit for a card sheet")
    if "text/html" in kind or body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html")):
        raise PullFailed("it gave a web page, not a card sheet; share the sheet ('anyone with the link') or "
                         "publish it to the web, and give its address")
    return body
