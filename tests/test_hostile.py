"""Hostile input: files that lead out of the game folder, FIFOs, loops of links, damaged and
enormous images and fonts, GAME arguments and --since values that point elsewhere, kept
manifests that name other files. Each case runs `pnpgen` in a subprocess limited to 1 GB of
address space and 10 seconds, and must end with a located error (the file, what is wrong)
and exit status 2: never a traceback, a hang or a file written outside out/."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from pnpgen import fonts
from pnpgen.build import Project
from pnpgen.preview import start

from .forkrun import ForkServer
from .hostile_files import MUTATORS, flip_bytes, hostile_game, huge_cmap, huge_dimensions, truncate

LIMIT_BYTES = 1 << 30
SECONDS = 10
"""CPU time a run may take; a run still going after WALL seconds has hung."""
WALL = 120
RUNNER = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({LIMIT_BYTES}, {LIMIT_BYTES}))
from pnpgen.cli import main
sys.argv = ["pnpgen", *sys.argv[1:]]
main()
"""
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


SERVER = ForkServer(ROOT)


@pytest.fixture(scope="module", autouse=True)
def _fork_server():
    yield
    SERVER.close()


def run(cwd: Path, *args) -> Ran:
    """`pnpgen ARGS` in a process of its own with at most 1 GB of memory; a run that takes over
    SECONDS of CPU time (it and its workers), or has not ended after WALL seconds, fails the test.
    (The process is forked from one that has imported pnpgen already, as `python -c RUNNER`
    would have by then: tests/forkrun.py; a killed build below runs RUNNER itself.)"""
    ran = SERVER.run(cwd, args, LIMIT_BYTES, WALL)
    if ran.hung:
        pytest.fail(f"pnpgen {' '.join(map(str, args))} still running after {WALL} s")
    assert ran.cpu < SECONDS, f"pnpgen {' '.join(map(str, args))} took {ran.cpu:.1f} s of CPU"
    return Ran(ran.returncode, ran.stdout, ran.stderr)


def state(root: Path) -> dict[str, tuple]:
    """Every file under `root` but out/, with its size and time, links not followed."""
    found = {}
    for here, dirs, names in os.walk(root):
        if Path(here) == root and "out" in dirs:
            dirs.remove("out")
        for name in names:
            path = Path(here) / name
            info = path.lstat()
            found[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return found


def hostile(root: Path, *args, cwd: Path | None = None) -> Ran:
    """Run a case; nothing outside out/ may be written or changed by it."""
    before = state(root)
    proc = run(cwd or root, *args)
    after = state(root)
    assert after == before, f"written outside out/: {sorted(set(after.items()) ^ set(before.items()))}"
    return proc


def assert_located(proc: Ran, where: str, *needles: str) -> str:
    """Exit status 2, no traceback, and a line of stderr that names `where` and holds every needle."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, f"exit status {proc.returncode}; stderr:\n{proc.stderr}"
    lines = [ln for ln in proc.stderr.splitlines() if where in ln and all(n in ln for n in needles)]
    assert lines, f"no line naming {where!r} and holding {needles!r} in:\n{proc.stderr}"
    return lines[0]


def outputs(root: Path) -> list[str]:
    """The files a build wrote into out/ (its page cache aside)."""
    out = root / "out"
    found = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) if out.exists() else []
    return [name for name in found if not name.startswith(".cache/")]


@pytest.fixture
def game(tmp_path) -> tuple[Path, Path]:
    """(project folder, game folder) of a small good game with images, an icon, a font and a rulebook."""
    return tmp_path, hostile_game(tmp_path)


def test_the_hostile_game_builds_as_it_is(game):
    root, _ = game
    proc = run(root, "build", "mini")
    assert proc.returncode == 0, proc.stderr
    assert outputs(root) == ["mini/deck.pdf", "mini/manifest.json", "mini/rulebook.pdf"]


@pytest.mark.parametrize("wrap", ["false", "true"])
def test_text_far_too_long_for_its_box_is_cut_short_quickly(game, wrap):
    """A 100,000-character word cut to fit its box is measured a few times, not once a
    character (fuzzing found 135 s for this before): the build warns and ends within the CPU limit."""
    root, _ = game
    template = root / "templates" / "mini" / "face.yaml"
    template.write_text(template.read_text().replace(
        'text: "{{ title }} :gem:", font: display, size: 12}',
        f'text: "{{{{ \'ab\' * 50000 }}}}", font: display, size: 12, min_size: 8, wrap: {wrap}}}'))
    proc = run(root, "build", "mini")
    assert proc.returncode == 0, proc.stderr
    assert "cut short with" in proc.stderr


# --- 2, 3: files that lead outside the game folder, or are not files -----------------------------

def test_a_rulebook_linked_to_a_file_outside_is_not_read(game):
    root, folder = game
    (root / "secret.md").write_text("# Secret\n\nTOP-SECRET-TEXT\n")
    (folder / "rulebook.md").unlink()
    (folder / "rulebook.md").symlink_to(root / "secret.md")
    proc = hostile(root, "build", "mini")
    assert_located(proc, "cards/mini/rulebook.md", "outside the game folder")
    assert outputs(root) == []


def link_outside(root: Path, folder: Path, rel: str, template: str = "") -> None:
    """Put a good copy of `rel` outside the game, and a link to it in its place."""
    target = root / "elsewhere" / Path(rel).name
    target.parent.mkdir(exist_ok=True)
    source = folder / rel if (folder / rel).exists() else root / template
    shutil.copy(source, target)
    (folder / rel).parent.mkdir(exist_ok=True)
    (folder / rel).unlink(missing_ok=True)
    (folder / rel).symlink_to(target)


@pytest.mark.parametrize("rel, shown, needle", [
    ("decks/extra.yaml", "cards/mini/decks/extra.yaml", "outside the game folder"),
    ("boards/extra.yaml", "cards/mini/boards/extra.yaml", "outside the game folder"),
    ("art/a.png", "face.yaml:3", "outside the game folder"),
    ("fonts/display.ttf", "game.yaml:4", "outside the game folder"),
    ("../../templates/mini/face.yaml", "templates/mini/face.yaml", "outside the templates folder"),
], ids=["deck", "board", "image", "font", "template"])
def test_a_file_found_or_named_that_links_outside_is_refused(game, rel, shown, needle):
    root, folder = game
    link_outside(root, folder, rel, template="cards/mini/decks/deck.yaml")
    proc = hostile(root, "build", "mini")
    assert_located(proc, shown, needle)
    assert outputs(root) == []


@pytest.mark.parametrize("rel, shown", [
    ("decks/pipe.yaml", "cards/mini/decks/pipe.yaml"),
    ("boards/pipe.yaml", "cards/mini/boards/pipe.yaml"),
    ("rulebook.md", "cards/mini/rulebook.md"),
    ("rules.yaml", "cards/mini/rules.yaml"),
    ("art/a.png", "face.yaml:3"),
], ids=["deck", "board", "rulebook", "rules", "image"])
def test_a_fifo_where_a_file_is_read_is_refused_without_waiting(game, rel, shown):
    root, folder = game
    path = folder / rel
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    assert_located(hostile(root, "build", "mini"), shown, "FIFO", "not a file")


@pytest.mark.parametrize("rel, shown", [
    ("decks/loop.yaml", "cards/mini/decks/loop.yaml"),
    ("art/a.png", "face.yaml:3"),
], ids=["deck", "image"])
def test_a_loop_of_links_is_refused(game, rel, shown):
    root, folder = game
    path = folder / rel
    path.unlink(missing_ok=True)
    path.symlink_to(path.name)
    assert_located(hostile(root, "build", "mini"), shown, "loop of symbolic links")


# --- 4: the GAME argument ------------------------------------------------------------------------

def test_a_game_named_by_its_path_builds_into_out(game):
    root, folder = game
    proc = hostile(root, "--root", "..", "build", "../cards/mini", cwd=root / "cards")
    assert proc.returncode == 0, proc.stderr
    assert "mini/deck.pdf" in outputs(root) and not list(folder.glob("*.pdf"))


@pytest.mark.parametrize("name", ["../../etc", "/tmp", "cards/mini/..", "..", "."])
def test_a_game_argument_that_is_a_path_elsewhere_is_refused(game, name):
    root, _ = game
    proc = hostile(root, "build", name)
    assert_located(proc, name, "not a game")
    assert outputs(root) == []


def test_a_deck_file_without_a_name_cannot_name_an_output_outside_its_folder(game):
    root, folder = game
    shutil.copy(folder / "decks" / "deck.yaml", folder / "decks" / "...yaml")    # its name: '..'
    assert_located(hostile(root, "build", "mini"), "cards/mini/decks/...yaml", "no name before .yaml")
    assert outputs(root) == []


# --- 5 and 10: damaged and enormous images and fonts -----------------------------------------------

@pytest.mark.parametrize("rel, mutate, shown, needles", [
    ("art/a.png", truncate, "face.yaml:3", ("art/a.png", "damaged or cut short")),
    ("art/b.jpg", truncate, "face.yaml:4", ("art/b.jpg", "damaged or cut short")),
    ("art/a.png", lambda d, r: flip_bytes(d[:100], r) + d[100:], "face.yaml:3", ("art/a.png",)),
    ("art/a.png", lambda d, r: huge_dimensions(d), "face.yaml:3",
     ("art/a.png", "10000 x 8000 px (80 megapixels)", "limit is 40 megapixels")),
    ("art/b.jpg", lambda d, r: huge_dimensions(d, 9000, 9000), "face.yaml:4", ("art/b.jpg", "9000 x 9000 px")),
    ("icons/gem.png", truncate, "game.yaml:6", ("icons.gem", "damaged or cut short")),
    ("fonts/display.ttf", truncate, "cards/mini/fonts/display.ttf", ("font 'display'", "damaged or cut short")),
    ("fonts/display.ttf", lambda d, r: huge_cmap(d), "cards/mini/fonts/display.ttf", ("cmap",)),
], ids=["png-truncated", "jpeg-truncated", "png-flipped", "png-80mp", "jpeg-81mp", "icon-truncated",
        "ttf-truncated", "ttf-huge-cmap"])
def test_a_damaged_or_enormous_image_or_font_is_a_located_error(game, rel, mutate, shown, needles):
    root, folder = game
    path = folder / rel
    path.write_bytes(mutate(path.read_bytes(), random.Random(rel)))
    assert_located(hostile(root, "build", "mini"), shown, *needles)
    assert outputs(root) == []


def test_an_image_over_40_megapixels_is_refused_before_it_is_decoded(game):
    root, folder = game
    Image.new("1", (6500, 6500), 1).save(folder / "art" / "a.png")     # 42 MP, a few kB on disk
    assert_located(hostile(root, "build", "mini"), "face.yaml:3", "6500 x 6500 px (42 megapixels)")


def test_random_damage_to_images_and_fonts_never_crashes(game):
    """The mutators tools/fuzz.py runs at length, a few rounds here."""
    root, folder = game
    rng = random.Random(19)
    for _ in range(6):
        rel = rng.choice(["art/a.png", "art/b.jpg", "fonts/display.ttf", "icons/gem.png"])
        name = rng.choice(sorted(MUTATORS))
        good = (folder / rel).read_bytes()
        (folder / rel).write_bytes(MUTATORS[name](good, rng))
        proc = hostile(root, "build", "mini", "--no-cache")
        assert proc.returncode in (0, 2) and "Traceback" not in proc.stderr, (rel, name, proc.stderr)
        (folder / rel).write_bytes(good)


def test_schema_into_a_folder_that_cannot_be_made_is_a_located_error(game):
    root, _ = game
    (root / "plain-file").write_text("not a folder")
    assert_located(hostile(root, "schema", "--json", "--out", "plain-file/schemas"), "plain-file/schemas",
                   "cannot write here")


# --- 5, 9: --since values and kept manifests --------------------------------------------------------

@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    """The small game, built once: its out/ copied to kept/ as a build one keeps."""
    root = tmp_path_factory.mktemp("kept")
    hostile_game(root)
    assert run(root, "build", "mini").returncode == 0
    shutil.copytree(root / "out", root / "kept")
    return root


@pytest.fixture
def kept(built_once, tmp_path) -> tuple[Path, Path]:
    """(project, its kept build's folder for `--since kept/mini`): a copy of its own to break."""
    root = tmp_path / "project"
    shutil.copytree(built_once, root, symlinks=True)
    return root, root / "kept" / "mini"


def edit_manifest(folder: Path, change) -> None:
    path = folder / "manifest.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_a_kept_manifest_cannot_point_at_pdfs_outside_its_folder(kept):
    root, folder = kept
    shutil.copy(folder / "deck.pdf", root / "other.pdf")

    def outside(data):
        data["decks"][0]["files"] = ["../../other.pdf"]

    edit_manifest(folder, outside)
    (root / "cards" / "mini" / "decks" / "deck.yaml").write_text(
        (root / "cards" / "mini" / "decks" / "deck.yaml").read_text().replace("Beta", "Gamma"))
    proc = hostile(root, "changes", "--since", "kept/mini", "--out", "out/changes")
    assert_located(proc, "kept/mini/manifest.json", "damaged manifest", "not a file name in the manifest's folder")


@pytest.mark.parametrize("change, needle", [
    (lambda data: data["decks"][0].update(size=["nan", 88.9]), "lengths within"),
    (lambda data: data["decks"][0].update(size=[1e300, 88.9]), "lengths within"),
    (lambda data: data["decks"][0].update(shapes=[1, 2]), "damaged manifest"),
], ids=["nan-size", "huge-size", "shapes-list"])
def test_a_kept_manifest_with_impossible_values_is_a_located_error(kept, change, needle):
    root, folder = kept
    edit_manifest(folder, change)
    assert_located(hostile(root, "changes", "--since", "kept/mini", "--out", "out/changes"),
                   "kept/mini/manifest.json", needle)


def test_a_deeply_nested_or_fifo_manifest_is_a_located_error(kept):
    root, folder = kept
    (folder / "manifest.json").write_text("[" * 200_000 + "]" * 200_000)
    assert_located(hostile(root, "changes", "--since", "kept/mini"), "kept/mini/manifest.json", "damaged manifest")
    (folder / "manifest.json").unlink()
    os.mkfifo(folder / "manifest.json")
    assert_located(hostile(root, "changes", "--since", "kept/mini"), "kept/mini/manifest.json", "FIFO")


@pytest.mark.parametrize("since, needle", [
    ("loop", "loop of symbolic links"),
    ("x" * 5000, "not a revision nor a folder"),
    ("~no-such-user-here/out", "is not in a git repository"),
], ids=["link-loop", "too-long", "unknown-home"])
def test_a_hostile_since_value_is_a_located_error(game, since, needle):
    root, _ = game
    (root / "loop").symlink_to("loop")
    assert_located(hostile(root, "changes", "--since", since), "--since", needle)


# --- 7: what a killed build leaves -----------------------------------------------------------------

def test_a_killed_builds_part_files_are_removed_by_the_next_build(game):
    root, folder = game
    deck = folder / "decks" / "deck.yaml"
    small = deck.read_text()
    deck.write_text(small + "".join(f"  - {{title: Card {i}}}\n" for i in range(4000)))    # (long enough to catch)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    build = subprocess.Popen([sys.executable, "-c", RUNNER, "build", "mini"], cwd=root, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    outdir, deadline, left = root / "out" / "mini", time.monotonic() + 30, []
    while not left and build.poll() is None and time.monotonic() < deadline:
        left = list(outdir.glob(".*.part")) if outdir.is_dir() else []
        time.sleep(0.005)
    build.send_signal(signal.SIGKILL)
    build.wait()
    assert left, "the build ended before it wrote a temporary file"
    left = list(outdir.glob(".*.part"))
    assert left                                     # what SIGKILL leaves behind
    mine = outdir / f".manifest.{build.pid}-a1b2c3d4.json.part"   # another, named as the killed build names them
    mine.write_text("")
    (outdir / ".notes.part").write_text("a file of the user's, not pnpgen's name")
    deck.write_text(small)                          # (the next build need not be as long)
    assert run(root, "build", "mini").returncode == 0
    assert not any(p.exists() for p in left) and not mine.exists()
    assert sorted(p.name for p in outdir.iterdir() if p.name.startswith(".")) == [".notes.part"]


# --- 8: the preview under load ---------------------------------------------------------------------

def test_the_preview_answers_200_requests_at_once_promptly(game):
    root, _ = game
    running = start(Project(root), ("mini",), port=0, watch=False, workers=1)
    answers, barrier = [], threading.Barrier(200)

    def fetch(path: str):
        barrier.wait()
        began = time.monotonic()
        with urllib.request.urlopen(running.url + path, timeout=30) as response:
            body = response.read()
        answers.append((response.status, len(body), time.monotonic() - began))

    try:
        threads = [threading.Thread(target=fetch, args=("state.json" if i % 2 else "",)) for i in range(200)]
        began = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        took = time.monotonic() - began
    finally:
        running.close()
    assert len(answers) == 200 and all(status == 200 and size > 100 for status, size, _ in answers)
    slowest = max(seconds for _, _, seconds in answers)
    assert slowest < 0.9 and took < 3, f"slowest answer {slowest:.2f} s, all {took:.2f} s"
