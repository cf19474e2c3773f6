"""Two builds of one game into one out/ at once (two real processes, as two terminals or two
CI jobs on one folder would run them): neither removes the other's temporary files, both
finish (exit 0), the PDFs are the ones one build alone writes, and the shared build cache
stays sound. And the temporary files of a process that is gone are still cleared."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from pnpgen import files

from .clirun import pnpgen
from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#3a5f2a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#2a2a6a', bleed: true}\n"


def deck(name: str, count: int) -> str:
    return (f"name: {name}\ntemplate: face\nback: {{template: back}}\nfields:\n  title: {{required: true}}\ncards:\n"
            + "".join(f"  - {{title: \"{name} {i}\"}}\n" for i in range(count)))


def two_deck_game(root: Path, long: int) -> Path:
    """A small deck built first (its PDF then waits, a finished temporary file, for the rest)
    and a long one that keeps the build busy meanwhile."""
    folder = make_game(root, "title: Two At Once\ncode: TA\n", deck("Small", 9), {"face": FACE, "back": BACK},
                       deck_id="a-small")
    (folder / "decks" / "b-long.yaml").write_text(deck("Long", long))
    return folder


def start_build(root: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "mini"], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(build: subprocess.Popen) -> tuple[int, str]:
    _out, err = build.communicate(timeout=300)
    return build.returncode, err


def copied(progress: str) -> list[bool]:
    """For each deck a verbose build drew: whether every one of its pages came from the cache
    ("P pages; P unchanged, copied from the cache")."""
    return [re.search(r"(\d+) pages; \1 unchanged, copied from the cache", line) is not None
            for line in progress.splitlines() if line.strip().startswith("drew ")]


def pdfs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


def test_a_second_build_started_mid_build_leaves_the_first_ones_files_alone(tmp_path):
    two_deck_game(tmp_path, 6000)       # (long enough for the second build to start well before the first ends)
    assert pnpgen("build", "mini", "--out", "alone", cwd=tmp_path).returncode == 0
    outdir = tmp_path / "out" / "mini"
    first = start_build(tmp_path)
    deadline, waiting = time.monotonic() + 120, []
    while not waiting and first.poll() is None and time.monotonic() < deadline:
        waiting = list(outdir.glob(".a-small.*.pdf.part")) if outdir.is_dir() else []
        time.sleep(0.01)
    assert waiting, "the first build ended before its small deck was drawn"
    second = start_build(tmp_path)          # its start clears leftovers: not the first build's files
    results = [finished(first), finished(second)]
    for code, err in results:
        assert code == 0 and "Traceback" not in err, err
    assert pdfs(outdir) == pdfs(tmp_path / "alone" / "mini")
    assert not list(outdir.glob(".*.part"))
    store = sqlite3.connect(tmp_path / "out" / ".cache" / "pages.sqlite")
    assert store.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store.close()
    for pdf in outdir.glob("*.pdf"):
        pdf.unlink()
    again = pnpgen("build", "mini", "-v", cwd=tmp_path)   # every page copied from the store the two shared
    assert again.returncode == 0 and "damaged" not in again.stderr
    assert copied(again.stderr) == [True] * 2
    assert pdfs(outdir) == pdfs(tmp_path / "alone" / "mini")


def test_builds_started_together_share_the_cache(tmp_path):
    two_deck_game(tmp_path, 900)
    assert pnpgen("build", "mini", "--out", "alone", "--no-cache", cwd=tmp_path).returncode == 0
    builds = [start_build(tmp_path) for _ in range(3)]
    for code, err in [finished(b) for b in builds]:
        assert code == 0 and "Traceback" not in err, err
    outdir = tmp_path / "out" / "mini"
    assert pdfs(outdir) == pdfs(tmp_path / "alone" / "mini") and not list(outdir.glob(".*.part"))
    for pdf in outdir.glob("*.pdf"):
        pdf.unlink()
    again = pnpgen("build", "mini", "-v", cwd=tmp_path)
    assert again.returncode == 0 and "damaged" not in again.stderr and copied(again.stderr) == [True] * 2
    assert pdfs(outdir) == pdfs(tmp_path / "alone" / "mini")


def test_leftovers_of_a_process_that_is_gone_are_removed_and_live_ones_kept(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        left = tmp_path / f".deck.{dead_pid}-abcd1234.pdf.part"
        old_style = tmp_path / ".deck.k2j4h5g6.pdf.part"         # named as earlier versions named them
        busy = tmp_path / f".deck.{alive.pid}-efgh5678.pdf.part"
        stale = tmp_path / f".rules.{alive.pid}-ijkl9012.pdf.part"
        for path in (left, old_style, busy, stale):
            path.write_bytes(b"%PDF-1.4 half")
        os.utime(stale, (time.time() - files.STALE_SECONDS - 60,) * 2)
        own = Path(files.temp_beside(tmp_path / "deck.pdf"))    # this process's, being written
        mine_left = tmp_path / f".deck.{os.getpid()}-mnop3456.pdf.part"   # this id's, from a process before
        mine_left.write_bytes(b"")
        removed = files.remove_leftovers(tmp_path)
        assert sorted(removed) == sorted([left, old_style, stale, mine_left])
        assert busy.exists() and own.exists()
        files.remove_quietly(own)
    finally:
        alive.kill()
        alive.wait()
