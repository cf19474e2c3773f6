"""`pnpgen export png|mpc|dtc` of every bundled game, one command per format: each file
cards.csv names exists at the pixel size its card calls for, each DriveThruCards PDF has a
page per face and passes the PDF/X preflight (tests/preflight.py). Tabletop Simulator is in
test_export_bundled_tts.py (a file of its own, so that another worker runs it alongside);
every deck shape in every format, and the checks used here, in test_export_files.py.

Not tgc: The Game Crafter's upload is MakePlayingCards' (shop.write_shop: the same writer and
the same fits()) with other numbers from presets/shops.yaml, and MPC makes every product TGC
makes and one more, so the bundled decks either shop takes are the same decks, drawn the same
way; test_export_files.py checks TGC's own sizes on every deck shape, test_export.py its files."""

from __future__ import annotations

import csv

import pytest
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.build import load
from pnpgen.export.formats import FORMATS

from .clirun import pnpgen
from .preflight import preflight
from .test_export_files import PNG_DPI, check_png, check_shop

FORMATS_HERE = ["png", "mpc", "dtc"]


@pytest.fixture(scope="module")
def bundled_export(tmp_path_factory, project, bundled_games):
    """export(FORMAT) -> (out folder, the run): `pnpgen export FORMAT <every bundled game>`,
    run once, the first time a test asks for that format. Tests only read out/."""
    out, runs = tmp_path_factory.mktemp("exports"), {}

    def export(fmt: str):
        if fmt not in runs:
            options = ["--dpi", str(PNG_DPI)] if fmt == "png" else []
            runs[fmt] = pnpgen("--root", project.root, "export", fmt, *bundled_games, "--out", out, *options,
                               cwd=project.root)
        return out, runs[fmt]
    return export


@pytest.mark.parametrize("fmt", FORMATS_HERE)
def test_every_format_exports_every_bundled_game_with_the_files_it_names(bundled_export, project, bundled_games,
                                                                        fmt):
    out, ran = bundled_export(fmt)
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr[-3000:]
    checked = 0
    for name in bundled_games:
        game = load(project, name)
        folder = out / name / fmt
        checked += check_png(game, folder, PNG_DPI) if fmt == "png" else check_shop(game, folder, fmt)
    assert checked > 100


def test_every_format_but_tgc_is_exported_here_or_in_the_tts_file():
    assert set(FORMATS) == {*FORMATS_HERE, "tgc", "tts"}
    tgc, mpc = presets.shops()["tgc"], presets.shops()["mpc"]      # what lets the bundled games skip tgc
    assert FORMATS["tgc"].write is FORMATS["mpc"].write and tgc["format"] == mpc["format"] == "png"
    assert tgc["products"].items() <= mpc["products"].items()


def test_dtc_export_of_every_bundled_game_passes_preflight(bundled_export, bundled_games):
    out, ran = bundled_export("dtc")
    assert ran.returncode == 0, ran.stderr
    checked = 0
    for game in bundled_games:
        for pdf in sorted((out / game / "dtc").glob("*/*.pdf")):
            assert preflight(pdf) == [], pdf
            rows = list(csv.DictReader(open(pdf.parent / "cards.csv", encoding="utf-8")))
            assert len(PdfReader(pdf).pages) == 2 * sum(int(r["copies"]) for r in rows), pdf
            checked += 1
    assert checked >= len(bundled_games)
