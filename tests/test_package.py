"""What a pip user gets: the bundled games listed and copied (`pnpgen examples`, `pnpgen new
NAME --example ID`), `python -m pnpgen`, docs that never send a reader into the source tree,
and the package itself: an sdist that carries the tests and games, and a wheel built from it
that, installed into a fresh virtualenv, runs every command in an empty folder."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tarfile
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest
import yaml

from pnpgen import __version__
from pnpgen.maps import gridmap, hexmap, trailmap
from pnpgen.schema import examples
from pnpgen.schema.from_example import renamed

from .clirun import pnpgen
from .pdfread import page_texts

ROOT = Path(__file__).resolve().parent.parent


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- pnpgen examples ------------------------------------------------------------------------------

def test_examples_lists_every_bundled_game_with_its_title_and_what_it_is(bundled_games):
    assert len(bundled_games) == 5
    shown = pnpgen("examples")
    assert shown.returncode == 0, shown.stderr
    listed = json.loads(pnpgen("examples", "--json").stdout)
    assert [e["id"] for e in listed] == bundled_games
    for entry in listed:
        game_yaml = (ROOT / "cards" / entry["id"] / "game.yaml").read_text(encoding="utf-8")
        assert entry["title"] == yaml.safe_load(game_yaml)["title"]
        # one sentence of the comment that opens game.yaml
        assert entry["summary"] and "\n" not in entry["summary"] and entry["summary"].endswith(".")
        assert entry["summary"].split()[-1] in game_yaml
        assert re.search(rf"^{re.escape(entry['id'])} +{re.escape(entry['title'])}$", shown.stdout, re.M)
        assert f"  {entry['summary']}\n" in shown.stdout
    swarm = next(e for e in listed if e["id"] == "swarm")
    assert swarm["summary"] == "A hex-board wargame for 2-4+ players, each leading an insect swarm."


def test_the_summary_is_the_first_sentence_of_the_opening_comment():
    text = ("# yaml-language-server: $schema=../../schemas/game.schema.json\n"
            "# Dice Pirates: a push-your-luck game\n# for 2-5 players. Every turn, roll.\n#\n# More.\ntitle: x\n")
    assert examples.summary(text, "Dice Pirates") == "A push-your-luck game for 2-5 players."
    assert examples.summary("title: x\n# late\n", "x") == ""


def test_without_its_examples_pnpgen_examples_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(examples, "INSTALLED", tmp_path / "examples")
    monkeypatch.setattr(examples, "CHECKOUT", tmp_path)
    ran = pnpgen("examples")
    assert ran.returncode == 2
    assert "installed without its example games" in ran.stderr and "Traceback" not in ran.stderr


# --- pnpgen new NAME --example ID -----------------------------------------------------------------

def _same_as_bundled_swarm(out: Path, built_out: Path, game: str) -> None:
    """The copy's PDFs are the bundled Swarm's, byte for byte, except where Swarm prints its
    own build command (in the rulebook; the board names no command): there it names the copy."""
    ours = sorted(p.name for p in out.glob("*.pdf"))
    assert ours == sorted(p.name for p in (built_out / "swarm").glob("*.pdf")) and len(ours) >= 6
    differ = {name for name in ours if (out / name).read_bytes() != (built_out / "swarm" / name).read_bytes()}
    assert differ == {"rulebook.pdf"}
    for name in differ:
        text = " ".join(" ".join(page_texts(out / name)).split())
        assert f"pnpgen build {game} --seed" in text and "pnpgen build swarm" not in text, name


def test_a_copied_example_builds_the_bundled_games_pdfs(tmp_path, built_out):
    made = pnpgen("new", "my-swarm", "--example", "swarm", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "next: pnpgen build my-swarm" in made.stdout
    assert _files(tmp_path / "cards" / "my-swarm").keys() == _files(ROOT / "cards" / "swarm").keys()
    assert _files(tmp_path / "templates" / "my-swarm").keys() == _files(ROOT / "templates" / "swarm").keys()
    built = pnpgen("build", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    _same_as_bundled_swarm(tmp_path / "out" / "my-swarm", built_out, "my-swarm")


def test_a_copy_renames_the_paths_and_commands_that_name_its_game_and_nothing_else(tmp_path):
    assert pnpgen("new", "fox", "--example", "swamp-fox", cwd=tmp_path).returncode == 0
    assert pnpgen("new", "croc", "--example", "swamped", cwd=tmp_path).returncode == 0
    for game, example in (("fox", "swamp-fox"), ("croc", "swamped")):
        for part in ("cards", "templates"):
            original, copy = _files(ROOT / part / example), _files(tmp_path / part / game)
            assert copy.keys() == original.keys()
            for name, data in original.items():
                assert copy[name].decode() == renamed(data.decode(), example, game), name
    fox = "".join(b.decode() for b in _files(tmp_path / "cards" / "fox").values())
    assert "swamp-fox" not in fox      # every mention was a path or a command
    assert "templates/fox/dial.yaml" in fox and "`pnpgen check fox`" in fox
    assert "`pnpgen build\n# fox --poster a1`" in fox   # a command broken over two comment lines
    croc = "".join(b.decode() for b in _files(tmp_path / "cards" / "croc").values())
    assert "`pnpgen check croc`" in croc and "the crew is swamped" in croc   # prose keeps the word


def test_renamed_changes_folder_paths_and_commands_only():
    text = "see cards/swarm/decks, templates/swarm/x.yaml; `pnpgen export png swarm`; swarm-like; a swarm"
    assert renamed(text, "swarm", "hive") == ("see cards/hive/decks, templates/hive/x.yaml; `pnpgen export png hive`; "
                                              "swarm-like; a swarm")
    assert renamed("templates/swarm-2/a.yaml", "swarm", "hive") == "templates/swarm-2/a.yaml"


@pytest.mark.parametrize("args, expected", [
    (("new", "mine", "--example", "swram"), "no example game 'swram' (did you mean 'swarm'?)"),
    (("new", "My Game", "--example", "swarm"), "'My Game' is not a game name"),
    (("new", "mine", "--example", "swarm", "--title", "Mine"), "--title and --code name a blank game"),
])
def test_a_bad_example_request_is_refused_and_writes_nothing(tmp_path, args, expected):
    ran = pnpgen(*args, cwd=tmp_path)
    assert ran.returncode == 2 and expected in ran.stderr and "Traceback" not in ran.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_taken_name_is_refused_and_left_as_it_was(tmp_path):
    assert pnpgen("new", "mine", cwd=tmp_path).returncode == 0      # a blank game of that name
    before = _files(tmp_path)
    ran = pnpgen("new", "mine", "--example", "swarm", cwd=tmp_path)
    assert ran.returncode == 2
    assert ran.stderr.startswith(f"cards{os.sep}mine: already exists; pnpgen new never overwrites a game")
    assert _files(tmp_path) == before


def test_a_copy_that_fails_half_way_leaves_nothing_behind(tmp_path):
    (tmp_path / "templates").write_text("a file where the templates folder should be")
    ran = pnpgen("new", "mine", "--example", "swarm", cwd=tmp_path)
    assert ran.returncode == 2 and "cannot write here" in ran.stderr and "Traceback" not in ran.stderr
    assert ran.stderr.startswith("templates")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["cards", "templates"]   # no copy, no temp folder


def test_python_dash_m_pnpgen_is_the_pnpgen_command(tmp_path):
    ran = subprocess.run([sys.executable, "-m", "pnpgen", "--version"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0 and ran.stdout.strip() == f"pnpgen, version {__version__}"


# --- the docs a pip user reads ---------------------------------------------------------------------

SOURCE_PATH = re.compile(r"\bpnpgen/[\w/.-]+\.(?:py|yaml)\b")


def test_the_reference_and_the_maps_page_never_point_into_the_source_tree():
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    maps = (ROOT / "docs" / "maps.md").read_text(encoding="utf-8")
    assert SOURCE_PATH.findall(reference) == [] and SOURCE_PATH.findall(maps) == []
    for element in ("grid", "hexgrid", "trails"):
        section = reference.split(f"\n## {element}\n", 1)[1].split("\n## ", 1)[0]
        assert "docs/maps.md" in section, element
    assert "https://github.com/pnpgen/pnpgen/blob/main/docs/maps.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_map_in_docs_maps_reads_as_its_notation_says():
    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "maps.md").read_text(encoding="utf-8"), re.S)
    data = [yaml.safe_load(b) for b in blocks if "..." not in b]
    grid_doc = next(d for d in data if isinstance(d, dict) and "map" in d)
    grid = gridmap.parse(grid_doc["map"], grid_doc["walls"], ["N", "S"], {"^": "N", "v": "S"}, (4, 3))
    assert grid.symbol(0, 1) == "C" and grid.symbol(2, 2) == "T"          # A2 and C3, as the text says
    assert grid.blocked(1, 0, "S") and grid.blocked(1, 1, "N") and grid.blocked(3, 1, "W")
    assert not grid.blocked(3, 0, "N") and grid.blocked(0, 0, "N")        # the ^ opens its top edge
    hexes = next(d for d in data if isinstance(d, dict) and "hexes" in d)["hexes"]
    board = hexmap.parse(hexes, "flat", {"0", "1", "2", "3", "4", "5", "6"})
    assert len(board.hexes()) == 10 and board.label(2, 1) == "0302" and board.terrain(2, 1) == "4"
    fields = next(d for d in data if isinstance(d, dict) and "places" in d.get("fields", {}))["fields"]
    trails = trailmap.parse(fields["places"], fields["trails"])
    assert len(trails.plain_spaces()) == 2 + 3 + 2 + 3 + 1          # the trails' spaces and the fork


# --- the package -----------------------------------------------------------------------------------

def _setuptools_builds_offline() -> bool:
    """Whether this environment can build the sdist and the wheel without the network: a
    setuptools that knows `license = "MIT"` (77 or later), as `pip install -e '.[test]'` gives."""
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


def _run(args, cwd, env=None, timeout=240) -> subprocess.CompletedProcess:
    ran = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert ran.returncode == 0, f"{args}: {ran.returncode}\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"
    return ran


def _sdist(tmp: Path) -> Path:
    """The sdist, built from a copy of the checkout (so the tree stays clean), and unpacked."""
    source = tmp / "checkout"
    local = {".git", ".venv", "out", "build", "dist", "schemas", ".pytest_cache", ".import_linter_cache"}

    def not_shipped(folder, names):       # (pnpgen/build/ is a package: only the top-level build/ is output)
        top = Path(folder) == ROOT
        return [n for n in names if n == "__pycache__" or n.endswith(".egg-info") or (top and n in local)]
    shutil.copytree(ROOT, source, ignore=not_shipped)
    name = _run([sys.executable, "-c", "from setuptools import build_meta as b; print(b.build_sdist('dist'))"],
                source).stdout.split()[-1]
    with tarfile.open(source / "dist" / name) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
        sdist.extractall(tmp / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    for needed in ("LICENSE", "setup.py", ".importlinter", "tests/test_package.py", "tests/conftest.py",
                   "docs/reference.md", "docs/maps.md", "tools/swamped_maps.py", "benchmarks/bench.py"):
        assert needed in names, needed
    for part in ("cards", "templates"):
        assert {f"{part}/{k}" for k in _files(ROOT / part)} <= names, part
    assert not any(n.startswith("pnpgen/examples") for n in names)
    return tmp / "unpacked" / name.removesuffix(".tar.gz")


def _wheel(unpacked: Path, tmp: Path) -> Path:
    """The wheel, built from the unpacked sdist offline, as pip would from PyPI's sdist."""
    _run([sys.executable, "-m", "pip", "wheel", unpacked, "-w", tmp / "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "-q"], tmp)
    (wheel,) = (tmp / "wheel").glob("pnpgen-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = z.read(f"pnpgen-{__version__}.dist-info/METADATA").decode()
    for part in ("cards", "templates"):
        assert {f"pnpgen/examples/{part}/{k}" for k in _files(ROOT / part)} <= names, part
    assert f"pnpgen-{__version__}.dist-info/licenses/LICENSE" in names
    assert "License-Expression: MIT\n" in metadata and "\nLicense: " not in metadata
    assert "Project-URL: Source, https://github.com/pnpgen/pnpgen\n" in metadata
    assert "Classifier: Topic :: Games/Entertainment :: Board Games\n" in metadata
    assert "](docs/preview.png)" not in metadata          # the long description's image works on PyPI
    return wheel


def _fresh_venv(wheel: Path, tmp: Path) -> tuple[Path, dict]:
    """A new virtualenv with the wheel installed and, to stay offline, this environment's
    packages (reportlab...) on its path; the commands' environment."""
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel], tmp)
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp).stdout.strip())
    ours = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    (site / "zz-test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")   # after the wheel's own
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = str(python.parent) + os.pathsep + env.get("PATH", "")
    return python, env


def _preview_answers(pnpgen_exe: Path, play: Path, env: dict) -> dict:
    """`pnpgen preview --port 0` started, its page's state fetched once, then stopped with Ctrl-C."""
    proc = subprocess.Popen([str(pnpgen_exe), "preview", "--port", "0"], cwd=play, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    try:
        first = lines.get(timeout=60)
        url = re.search(r"http://127\.0\.0\.1:\d+/", first)[0]
        with urllib.request.urlopen(url + "state.json", timeout=60) as answer:
            state = json.loads(answer.read())
        page = urllib.request.urlopen(url, timeout=60).read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:     # (stopped here, not left running after the test)
            proc.kill()
            proc.wait()
            raise AssertionError("pnpgen preview still ran 60 s after Ctrl-C") from None
    assert code == 0, proc.stderr.read()
    return {"state": state, "page": page}


@pytest.mark.skipif(not _setuptools_builds_offline(),
                    reason="building the wheel offline needs setuptools>=77 here: pip install -e '.[test]'")
def test_the_wheel_from_the_sdist_runs_every_command_in_an_empty_folder(tmp_path, built_out, bundled_games):
    wheel = _wheel(_sdist(tmp_path), tmp_path)
    python, env = _fresh_venv(wheel, tmp_path)
    exe = python.parent / "pnpgen"
    play = tmp_path / "play"
    play.mkdir()
    where = _run([python, "-c", "import pnpgen; print(pnpgen.__file__)"], play, env).stdout
    assert Path(where.strip()).is_relative_to(tmp_path / "venv")      # the installed wheel, not this checkout

    listed = json.loads(_run([exe, "examples", "--json"], play, env).stdout)
    assert [e["id"] for e in listed] == bundled_games
    # (Swamp Fox: the quickest bundled game to build, check and export, with a deck, tokens, a board
    # and a rulebook; the copy of Swarm, the slowest, is built from this checkout above)
    _run([exe, "new", "mygame", "--example", "swamp-fox"], play, env)
    _run([exe, "build"], play, env)
    ours = {p.name: p.read_bytes() for p in (play / "out" / "mygame").glob("*.pdf")}   # the wheel's fonts, presets...
    assert ours == {p.name: p.read_bytes() for p in (built_out / "swamp-fox").glob("*.pdf")} and len(ours) >= 5
    assert "0 errors" in _run([exe, "check"], play, env).stdout
    _run([exe, "export", "png", "--dpi", "50"], play, env)
    soldiers = play / "out" / "mygame" / "png" / "soldiers"
    rows = (soldiers / "cards.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) > 10 and len(list(soldiers.glob("SFX-*-front.png"))) == len(rows) - 1
    assert _run([exe, "list"], play, env).stdout.startswith("mygame: Walt Disney's Swamp Fox Game (SFX)")
    shown = _preview_answers(exe, play, env)
    assert "mygame" in json.dumps(shown["state"]) and "<html" in shown["page"].lower()
    assert _run([python, "-m", "pnpgen", "--version"], play, env).stdout.strip() == f"pnpgen, version {__version__}"
    assert sorted(p.name for p in play.iterdir()) == ["cards", "out", "templates"]
