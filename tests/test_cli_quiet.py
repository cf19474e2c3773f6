"""-q/--quiet and -v/--verbose mean the same on every command: quiet says nothing on success
(errors still show, and the exit status tells), verbose says more than the default. And the
progress line of long work: drawn on a terminal, never into a log."""

from __future__ import annotations

import os
import pty
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import click
import pytest

from pnpgen.cli.main import COMMANDS, main

from .clirun import pnpgen
from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent
GAME = "title: Quiet Game\ncode: QG\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#5a3a7a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#2a2a2a', bleed: true}\n"
RULES = "rules:\n  - {id: enough, deck: deck, count: {min: 1}}\n"


def deck(count: int, word: str = "Card") -> str:
    return ("name: Quiet\ntemplate: face\nback: {template: back}\nfields:\n  title: {required: true}\ncards:\n"
            + "".join(f"  - {{title: \"{word} {i}\"}}\n" for i in range(count)))


@pytest.fixture
def game(tmp_path):
    folder = make_game(tmp_path, GAME, deck(12), {"face": FACE, "back": BACK}, rules=RULES)
    assert pnpgen("build", "mini", cwd=tmp_path).returncode == 0
    shutil.copytree(tmp_path / "out", tmp_path / "kept")        # a build to compare with
    (folder / "decks" / "deck.yaml").write_text(deck(12).replace("Card 3", "Card three"))
    return tmp_path


QUIET_RUNS = {
    "build": ["build", "mini"],
    "calibrate": ["calibrate"],
    "changes": ["changes", "mini", "--since", "kept", "--out", "pictures"],
    "check": ["check", "mini"],
    "examples": ["examples"],
    "export": ["export", "png", "mini", "--dpi", "60"],
    "list": ["list", "mini"],
    "new": ["new", "another-game"],
    "reprint": ["reprint", "mini", "--since", "kept", "--out", "reprints"],
    "schema": ["schema", "--json", "--out", "schemas"],
}


def test_every_command_takes_quiet_and_verbose():
    ctx = click.Context(main)
    for name in COMMANDS:
        options = {opt for p in main.get_command(ctx, name).params for opt in p.opts}
        assert {"-q", "--quiet", "-v", "--verbose"} <= options, name
    # each one is run below, but the preview (a server: its own test) and pull (it needs a
    # server to pull from: test_spreadsheets runs it with -q)
    assert set(COMMANDS) == set(QUIET_RUNS) | {"preview", "pull"}


@pytest.mark.parametrize("name", sorted(QUIET_RUNS))
def test_quiet_says_nothing_on_success_and_the_default_says_something(game, name):
    args = QUIET_RUNS[name]
    quiet = pnpgen(*args, "-q", cwd=game)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert written(game, name)                  # (and the work was done)
    if name == "new":
        args = ["new", "a-third-game"]
    said = pnpgen(*args, cwd=game)
    assert said.returncode == 0 and said.stdout.strip()


def written(root: Path, name: str) -> bool:
    """Whether a command run quietly did its work."""
    found = {"build": root / "out" / "mini" / "deck.pdf", "calibrate": root / "out" / "calibrate.pdf",
             "changes": root / "pictures" / "mini" / "changes.json", "export": root / "out" / "mini" / "png",
             "new": root / "cards" / "another-game" / "game.yaml", "reprint": root / "reprints" / "mini",
             "schema": root / "schemas"}
    return name not in found or found[name].exists()


def test_quiet_still_shows_errors(game):
    (game / "cards" / "mini" / "decks" / "deck.yaml").write_text(deck(12).replace("template: face", "template: nosuch"))
    for args in (["build", "mini"], ["check", "mini"], ["list", "mini"], ["export", "png", "mini"]):
        ran = pnpgen(*args, "-q", cwd=game)
        assert ran.returncode == 2 and "nosuch" in ran.stderr and ran.stdout == "", args


def test_quiet_check_prints_the_errors_only(game):
    (game / "cards" / "mini" / "rules.yaml").write_text(
        "rules:\n  - {id: too-many, deck: deck, count: {max: 3}}\n"
        "  - {id: a-warning, severity: warning, deck: deck, count: {max: 4}}\n")
    ran = pnpgen("check", "mini", "-q", cwd=game)
    assert ran.returncode == 1
    assert "too-many" in ran.stdout and "a-warning" not in ran.stdout and "checked" not in ran.stdout
    strict = pnpgen("check", "mini", "-q", "--strict", cwd=game)
    assert "a-warning" in strict.stdout          # with --strict a warning fails the check: it shows


@pytest.mark.parametrize("args, more", [
    (["build", "mini"], "wrote out/mini/deck.pdf"),
    (["check", "mini"], "mini: 1 rule, 0 findings on them"),
    (["list", "mini"], "from cards/mini/decks/deck.yaml"),
    (["export", "png", "mini", "--dpi", "60"], "mini/png/deck/QG-001-front.png"),
    (["changes", "mini", "--since", "kept", "--out", "pictures"], "QG-004-front-changed.png"),
    (["calibrate"], "letter paper (215.9 x 279.4 mm)"),
    (["new", "verbose-game"], "wrote cards/verbose-game/game.yaml"),
    (["schema"], "pnpgen schema --markdown"),
])
def test_verbose_says_more_than_the_default(game, args, more):
    plain = pnpgen(*args, cwd=game)
    if args[0] == "new":
        args = ["new", "verbose-game-2"]
        more = more.replace("verbose-game", "verbose-game-2")
    verbose = pnpgen(*args, "-v", cwd=game)
    assert verbose.returncode == plain.returncode == 0
    assert more in verbose.stdout + verbose.stderr
    assert more not in plain.stdout + plain.stderr or args[0] == "new"
    assert len(verbose.stdout + verbose.stderr) > len(plain.stdout + plain.stderr)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(root: Path, *args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "pnpgen", *args], cwd=root, env=env, **kwargs)


@pytest.mark.parametrize("flag", ["-q", "-v"])
def test_the_preview_quiet_says_nothing_and_verbose_logs_requests(game, flag):
    # (-q prints no address, so the port is chosen here: one free a moment ago. Tests run in
    # parallel: if another process takes it first, pnpgen says so and exits, and another is tried)
    for _ in range(5):
        port = free_port()
        served = spawn(game, "preview", "mini", "--port", str(port), flag, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
        try:
            deadline, page = time.monotonic() + 60, None
            while page is None and time.monotonic() < deadline and served.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                        page = answer.read()
                except OSError:
                    time.sleep(0.2)
            time.sleep(0.5)
        finally:
            served.terminate()
            out, err = served.communicate(timeout=30)
        if f"127.0.0.1:{port}: cannot serve the preview" not in err:
            break
    assert page and b"<html" in page.lower()
    if flag == "-q":
        assert (out, err) == ("", "")
    else:
        assert f"pnpgen preview: http://127.0.0.1:{port}/" in out and '"GET / HTTP/1.1" 200' in err


def on_a_terminal(root: Path, *args: str) -> str:
    """What `pnpgen ARGS` writes to stderr when stderr is a terminal (a pseudo-terminal here)."""
    leader, follower = pty.openpty()
    run = spawn(root, *args, stdout=subprocess.DEVNULL, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:          # (the terminal closed: the run is over)
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert run.wait(timeout=120) == 0, seen
    return seen.decode()


def test_a_long_build_and_export_show_a_progress_line_on_a_terminal_only(tmp_path):
    make_game(tmp_path, GAME, deck(300), {"face": FACE, "back": BACK})    # (38 sheets: the line shows at the first)
    terminal = on_a_terminal(tmp_path, "build", "mini", "--no-cache")
    assert "\rmini/deck: " in terminal and "pages [" in terminal          # drawn in place, with its bar
    assert "drew out/mini/deck.pdf" in terminal                             # and the usual lines after it
    logged = pnpgen("build", "mini", "-v", "--no-cache", cwd=tmp_path)  # not a terminal: lines, no live one
    assert logged.returncode == 0 and "\r" not in logged.stderr and "drew out/mini/deck.pdf" in logged.stderr
    quiet = on_a_terminal(tmp_path, "build", "mini", "-q", "--no-cache")
    assert quiet == ""
    (tmp_path / "cards" / "mini" / "decks" / "deck.yaml").write_text(deck(300))
    exported = on_a_terminal(tmp_path, "export", "png", "mini", "--dpi", "60")
    assert "\rmini: png: " in exported and "faces drawn" in exported
    assert pnpgen("export", "png", "mini", "--dpi", "60", "-v", cwd=tmp_path).stderr.count("\r") == 0
