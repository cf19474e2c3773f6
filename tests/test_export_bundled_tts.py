"""`pnpgen export tts` of every bundled game: each image a saved object names exists at the
size its cards call for (test_export_files.py's check), every saved object has the shape
Tabletop Simulator writes, and each deck's sheets have ids of their own. (The other formats:
test_export_bundled.py; this one alone takes as long, so it is a file another worker can run.)

At draft resolution, as test_export_bundled.py exports MPC: faces are drawn at DRAFT_DPI where
the export draws them at 300 DPI (tts_sheets.DPI), and boards at a fifth of tts.BOARD_DPI. The
grid, the sheets' ids and the objects follow from the cards all the same, and every face is
drawn by the same code at a 25th of the pixels (a sheet of 69 cards is some 800 px a side, not
4,000, to compress). The sheets at full resolution, for every deck shape: test_export_files.py
and test_export_tts.py."""

from __future__ import annotations

import json

import pytest

from pnpgen.build import load
from pnpgen.export import tts, tts_sheets

from .clirun import pnpgen
from .test_export_files import BASE, check_tts
from .test_export_tts import check_saved_object


DRAFT_DPI = 60


@pytest.fixture(scope="module")
def draft():
    """The export's resolutions at a fifth (see above) while this file's tests run."""
    assert (tts_sheets.DPI, tts.DPI, tts.BOARD_DPI) == (300, 300, 150)
    with pytest.MonkeyPatch.context() as patch:
        for module in (tts_sheets, tts):
            patch.setattr(module, "DPI", DRAFT_DPI)
        patch.setattr(tts, "BOARD_DPI", tts.BOARD_DPI * DRAFT_DPI / 300)
        yield


@pytest.fixture(scope="module")
def bundled_tts(draft, tmp_path_factory, project, bundled_games):
    """The out folder of `pnpgen export tts <every bundled game> --url-base BASE`, and the run."""
    out = tmp_path_factory.mktemp("exports")
    ran = pnpgen("--root", project.root, "export", "tts", *bundled_games, "--out", out, "--url-base", BASE,
                 cwd=project.root)
    return out, ran


def test_tts_exports_every_bundled_game_with_the_files_it_names(bundled_tts, project, bundled_games):
    out, ran = bundled_tts
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr[-3000:]
    assert sum(check_tts(load(project, name), out / name / "tts") for name in bundled_games) > 100


def test_bundled_tts_objects_have_tts_shape_and_sheet_ids_of_their_own(bundled_tts, bundled_games):
    out, _ = bundled_tts
    for name in bundled_games:
        owner = {}
        for path in sorted((out / name / "tts").glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert check_saved_object(data) == [], path
            for state in data["ObjectStates"]:
                for sheet_id in state.get("CustomDeck", {}):
                    assert owner.setdefault(sheet_id, path.stem) == path.stem, (name, sheet_id)
        assert owner, name
    swamped = json.loads((out / "swamped" / "tts" / "components.json").read_text())["ObjectStates"][0]
    (sheet,) = swamped["CustomDeck"].values()
    assert sheet["UniqueBack"] and len(swamped["ContainedObjects"]) == 13      # a mix of own and common backs
