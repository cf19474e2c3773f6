"""Start-up: `pnpgen build` of a plain deck imports only what every build needs. The heavy
readers (numpy and colorspacious for the print checks, svglib and lxml for SVG files,
shapely for polygon packing, pypdf for PDF/X and booklets, pdfium for flattening) come in
with the first file or check that uses them."""

import json
import os
import subprocess
import sys

import pytest

from tests.minigame import make_game

LAZY = ["pypdf", "pypdfium2", "numpy", "colorspacious", "svglib", "lxml", "shapely", "reportlab.graphics.renderPDF",
        "python_calamine", "openpyxl", "markdown_it",
        # what a game of cards alone never uses: boards (tiling, seams, their print checks), map
        # parsers, the rulebook, custom sheet layouts, packing shapes, art readers, PDF/X colour
        "pnpgen.build.boards", "pnpgen.printcheck", "pnpgen.sheets.tile", "pnpgen.sheets.seams",
        "pnpgen.maps", "pnpgen.rulebook.source", "pnpgen.sheets.custom_layout", "pnpgen.sheets.polypack",
        "PIL.PngImagePlugin", "PIL.JpegImagePlugin", "PIL.ImageCms",
        "pnpgen.sources.spreadsheet", "pnpgen.game.sheet_cards",     # (card sheets: .xlsx, .ods, .csv)
        "multiprocessing",      # (a deck of a few sheets is drawn without worker processes)
        "ots", "subprocess",    # (the font checker runs only for a game's own font files)
        "jinja2", "pnpgen.expr.sandbox", "pnpgen.expr.budget",   # (templates that say only '{{ name }}')
        # the elements a game of rectangles and text never draws (an element comes in when drawn)
        *(f"pnpgen.elements.{name}" for name in ("circle", "grid", "group", "hexgrid", "image", "line", "polygon",
                                                 "slots", "trails"))]
NOT_AT_START = ["difflib"]
"""Imported only when a name is misspelt (click imports it too, to parse a short option such as -q)."""


GAME = "title: Plain\ncode: PLN\ncard_size: poker\n"
DECK = ("name: Plain\ntemplate: card\nback: {template: back}\nfields: {title: {required: true}}\n"
        "cards:\n" + "".join(f"  - {{title: Card {i}}}\n" for i in range(12)))
CARD = ("size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#e8e0c8', bleed: true}\n"
        "  - text: {x: 6, y: 6, w: 51.5, h: 9, text: '{{ title }}', size: 12}\n")
BACK = "size: poker\ncode: false\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#1f3a5f', bleed: true}\n"


def _imported_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_cli_start_up_leaves_heavy_readers_out():
    loaded = _imported_after("import pnpgen.cli.main")
    assert "pnpgen.build" in loaded          # (the probe imported the command line for real)
    assert not [name for name in LAZY + NOT_AT_START if name in loaded]


def test_the_process_has_pydantic_look_for_no_plugins():
    """The pnpgen process turns pydantic's plugin search off (it reads every installed
    distribution's metadata), unless the user set PYDANTIC_DISABLE_PLUGINS."""
    probe = ("import os, sys, pnpgen.__main__ as m\nsys.argv = ['pnpgen', '--version']\n"
             "m._exit = lambda code: print(os.environ['PYDANTIC_DISABLE_PLUGINS'])\nm.run()")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYDANTIC_DISABLE_PLUGINS": ""}).stdout.splitlines()[-1] == ""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env=env).stdout.splitlines()[-1] == "__all__"


def test_with_plugins_off_the_stand_in_answers_as_pydantic_does_and_metadata_stays_out(tmp_path):
    """With the plugin search off, the process puts a stand-in for pydantic's plugin loader in
    place: pydantic asks that module only for get_plugins, the real one answers no plugins then,
    the stand-in answers the same, a model still validates, and importlib.metadata (which the
    real module imports) is not loaded by a build."""
    import inspect

    import pnpgen.__main__ as entry
    import pydantic.plugin._schema_validator as asker
    asked = inspect.getsource(asker)
    assert asked.count("_loader") == 1 and "from ._loader import get_plugins\n" in asked
    probe = ("import os, json, sys\nfrom pydantic.plugin import _loader\n"
             "print(json.dumps(list(_loader.get_plugins())))")
    for value in entry.PLUGINS_OFF:
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYDANTIC_DISABLE_PLUGINS": value}).stdout
        assert json.loads(out.splitlines()[-1]) == [] == list(entry._no_plugins().get_plugins())
    make_game(tmp_path, GAME, DECK, {"card": CARD, "back": BACK})
    probe = ("import sys, json, pnpgen.__main__ as m\n"
             f"sys.argv = ['pnpgen', '--root', {str(tmp_path)!r}, 'build', '-q']\n"
             "m._exit = lambda code: print(json.dumps([code, sorted(sys.modules)]))\nm.run()")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    code, loaded = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                             check=True, env=env).stdout.splitlines()[-1])
    assert code in (0, None) and (tmp_path / "out" / "mini" / "deck.pdf").is_file()
    assert "pydantic.plugin._schema_validator" in loaded and "importlib.metadata" not in loaded


def test_a_rulebook_without_a_booklet_leaves_pypdf_out(tmp_path):
    """The booklet's imposition reads and writes PDFs with pypdf; a rulebook alone never needs it."""
    folder = make_game(tmp_path, GAME, DECK, {"card": CARD, "back": BACK})
    (folder / "rulebook.md").write_text("# Play\n\nThe deck holds {{ decks.deck.count }} cards.\n")
    code = ("import sys\nfrom pnpgen.cli.main import main\n"
            f"try:\n    main(['--root', {str(tmp_path)!r}, 'build', '-q'])\nexcept SystemExit as exc:\n"
            "    assert not exc.code, exc.code\n")
    loaded = _imported_after(code)
    assert "pnpgen.rulebook.document" in loaded and (tmp_path / "out" / "mini" / "rulebook.pdf").is_file()
    assert "pypdf" not in loaded and "pnpgen.rulebook.booklet" not in loaded


def test_a_plain_build_leaves_heavy_readers_out(tmp_path):
    make_game(tmp_path, GAME, DECK, {"card": CARD, "back": BACK})
    root = tmp_path
    code = ("import sys\nfrom pnpgen.cli.main import main\n"
            f"try:\n    main(['--root', {str(root)!r}, 'build', '-q'])\nexcept SystemExit as exc:\n"
            "    assert not exc.code, exc.code\n")
    loaded = _imported_after(code)
    assert "pnpgen.build.decks" in loaded
    assert not [name for name in LAZY if name in loaded]


@pytest.mark.parametrize("module", ["pnpgen.printcheck", "pnpgen.layout.svg"])
def test_the_readers_come_in_when_used(module):
    """The lazily imported names still resolve: the check runner and the SVG readers."""
    loaded = _imported_after(f"import {module} as m\n"
                             "getattr(m, 'check_faces', None) or m._import_readers()")
    assert {"numpy", "colorspacious"} <= loaded if module == "pnpgen.printcheck" else "svglib" in loaded


def _process(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnpgen", *map(str, args)], capture_output=True, text=True, **kw)


def test_the_process_ends_with_the_commands_status_and_all_its_output(tmp_path):
    """`python -m pnpgen` ends the process as soon as the command is done (pnpgen/__main__.py):
    its output is all there when read through a pipe, the PDF and manifest are in place, and
    the exit status is the command's: 0 built, 2 bad input."""
    make_game(tmp_path, GAME, DECK, {"card": CARD, "back": BACK})
    built = _process("--root", tmp_path, "build")
    assert built.returncode == 0, built.stderr
    assert built.stdout.rstrip().endswith(str(tmp_path / "out" / "mini"))      # (the summary's last words)
    pdf = (tmp_path / "out" / "mini" / "deck.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    assert json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())["decks"]
    listed = _process("--root", tmp_path, "list")
    assert listed.returncode == 0 and listed.stdout.startswith("mini: Plain (PLN), 12 cards")
    (tmp_path / "templates" / "mini" / "card.yaml").write_text(CARD.replace("size: 12", "size: twelve"))
    bad = _process("--root", tmp_path, "build")
    assert bad.returncode == 2 and "card.yaml:" in bad.stderr and "Traceback" not in bad.stderr
    assert _process("--root", tmp_path / "nowhere", "build").returncode == 2


def test_a_reader_that_stops_early_ends_it_quietly(tmp_path):
    """`pnpgen list | head -1`: the reader goes away; the command ends with no traceback."""
    make_game(tmp_path, GAME, DECK, {"card": CARD, "back": BACK})
    shell = f"{sys.executable} -m pnpgen --root {tmp_path} list | head -c 5"
    ran = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert ran.stdout == "mini:" and "Traceback" not in ran.stderr
