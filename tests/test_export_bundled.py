"""`pnpgen export png|mpc|dtc` of every bundled game, one command per format: each file
cards.csv names exists at the pixel size its card calls for, each DriveThruCards PDF has a
page per face and passes the PDF/X preflight (tests/preflight.py). Tabletop Simulator is in
test_export_bundled_tts.py (a file of its own, so that another worker runs it alongside);
every deck shape in every format, and the checks used here, in test_export_files.py.

Not tgc: The Game Crafter's upload is MakePlayingCards' (shop.write_shop: the same writer and
the same fits()) with other numbers from presets/shops.yaml, and MPC makes every product TGC
makes and one more, so the bundled decks either shop takes are the same decks, drawn the same
way; test_export_files.py checks TGC's own sizes on every deck shape, test_export.py its files.

MPC at draft resolution: its preset's 300 DPI and 36 px of bleed are scaled to 60 DPI and
7.2 px (the same bleed in mm) for this export, as png is exported at 60 DPI here: the sizes
follow from the preset all the same (the check reads it too), and every face is drawn by the
same code at a 25th of the pixels. MPC's own numbers are checked on every deck shape in
test_export_files.py, and to the pixel in test_export.py."""

from __future__ import annotations

import contextlib
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
            with draft(fmt):
                runs[fmt] = pnpgen("--root", project.root, "export", fmt, *bundled_games, "--out", out, *options,
                                   cwd=project.root)
        return out, runs[fmt]
    return export


DRAFT = {"mpc": PNG_DPI / 300}
"""Shops exported here at a fraction of their preset's resolution (see above)."""


@contextlib.contextmanager
def draft(fmt: str):
    """The shop's preset at DRAFT[fmt] of its DPI and bleed in pixels, while in the block."""
    if fmt not in DRAFT:
        yield
        return
    shop = presets.shops()[fmt]
    assert (shop["dpi"], shop["bleed_px"]) == (300, 36), shop       # (what the docstring says)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(shop, "dpi", shop["dpi"] * DRAFT[fmt])
        patch.setitem(shop, "bleed_px", shop["bleed_px"] * DRAFT[fmt])
        yield


@pytest.mark.parametrize("fmt", FORMATS_HERE)
def test_every_format_exports_every_bundled_game_with_the_files_it_names(bundled_export, project, bundled_games,
                                                                        fmt):
    out, ran = bundled_export(fmt)
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr[-3000:]
    checked = 0
    for name in bundled_games:
        game = load(project, name)
        folder = out / name / fmt
        with draft(fmt):
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
