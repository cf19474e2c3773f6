"""Shared sheets (game.yaml `share_sheets`): decks of one card size pool what does not fill a
sheet of their own onto shared sheets, out/<game>/shared-<w>x<h>.pdf. Read back from the
PDFs: each card on its page with its code, each back slot its own deck's back registered
behind its front; a deck's full sheets stay in its own file; `none` keeps a file per deck;
the manifest, reprint, `pnpgen list` and the build's summary follow; the output is
deterministic."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game
from pnpgen.revisions import game_changes, open_revision
from pnpgen.revisions.built import PrintedFace
from pnpgen.revisions.pictures import render

from .clirun import pnpgen
from .test_changes_build import _close
from .minigame import make_game
from .pdfread import MM, page_geometry, page_texts

SHARED = "shared-63.5x88.9.pdf"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#f4efe0", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14}
"""
DECKS = {"alpha": ("Alpha", 4), "beta": ("Beta", 3), "gamma": ("Gamma", 9)}
"""Poker cards, 8 to a Letter sheet: Alpha and Beta are smaller than a sheet, Gamma one full
sheet and one card over. Alone they take 4 sheets; sharing, 2."""


def _back(colour: str) -> str:
    return f"size: poker\nelements:\n  - rect: {{x: 0, y: 0, w: 63.5, h: 88.9, fill: '{colour}', bleed: true}}\n"


def _deck(name: str, count: int, back: str) -> str:
    return (f"name: {name}\ntemplate: face\nback: {{template: {back}}}\nfields:\n  title: {{required: true}}\n"
            "cards:\n" + "".join(f"  - {{title: {name} {i + 1}}}\n" for i in range(count)))


def make_share(root: Path, share: str | None = None) -> Path:
    """The three-deck game; `share`: game.yaml's share_sheets (None: not written, the default)."""
    game = "title: Share\ncode: SHR\ndecks: [decks/alpha.yaml, decks/beta.yaml, decks/gamma.yaml]\n"
    if share is not None:
        game += f"share_sheets: {share}\n"
    backs = {f"back-{d}": _back(c) for d, c in (("alpha", "#c03030"), ("beta", "#3030c0"), ("gamma", "#30a030"))}
    folder = make_game(root, game, _deck("Alpha", 4, "back-alpha"), {"face": FACE, **backs}, game_id="share",
                       deck_id="alpha")
    for deck_id, (name, count) in DECKS.items():
        (folder / "decks" / f"{deck_id}.yaml").write_text(_deck(name, count, f"back-{deck_id}"))
    return folder


def codes(text: str) -> list[str]:
    return re.findall(r"SHR-\d{3}", text)


@pytest.fixture(scope="module")
def shared_build(tmp_path_factory):
    """The game built with sharing on (the default): (project root, the build's run)."""
    root = tmp_path_factory.mktemp("share")
    make_share(root)
    return root, pnpgen("--root", root, "build", "--out", root / "out", cwd=root)


def test_small_decks_and_part_filled_sheets_share_one_sheet(shared_build):
    root, run = shared_build
    assert run.returncode == 0, run.stderr
    out = root / "out" / "share"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["gamma.pdf", SHARED]
    assert "share: 2 PDFs, 2 sheets of cards and tokens (2 saved by sharing)" in run.stdout
    fronts, backs = page_texts(out / SHARED)           # one sheet: its front and its back
    # Alpha's 4 and Beta's 3 cards (SHR-001..007) and Gamma's ninth (SHR-016), in deck order
    assert codes(fronts) == [f"SHR-{n:03d}" for n in (1, 2, 3, 4, 5, 6, 7, 16)]
    assert "Alpha 4" in fronts and "Beta 3" in fronts and "Gamma 9" in fronts
    assert "Share \u00b7 shared: Alpha 4, Beta 3, Gamma 1 \u00b7 sheet 1 of 1 \u00b7 FRONT" in fronts
    assert "shared: Alpha 4, Beta 3, Gamma 1 \u00b7 sheet 1 of 1 \u00b7 BACK" in backs
    # Gamma keeps its full sheet in its own file: its first eight cards, "sheet 1 of 1"
    gamma_front, _ = page_texts(out / "gamma.pdf")
    assert codes(gamma_front) == [f"SHR-{n:03d}" for n in range(8, 16)]
    assert "Share \u00b7 Gamma \u00b7 sheet 1 of 1 \u00b7 FRONT" in gamma_front


def test_each_back_slot_carries_its_own_decks_back_registered_behind_its_front(shared_build):
    root, _ = shared_build
    reader = PdfReader(root / "out" / "share" / SHARED)
    width = float(reader.pages[0].mediabox.width)
    fronts, backs = page_geometry(reader, 0).placements, page_geometry(reader, 1).placements
    decks = ["alpha"] * 4 + ["beta"] * 3 + ["gamma"]
    assert len(fronts) == len(backs) == len(decks) == 8
    for front, deck in zip(fronts, decks):
        x, y, w, h = front.clip
        # long-edge flip: the slot behind a front is mirrored left to right, same height
        (behind,) = [b for b in backs if b.clip[0] == pytest.approx(width - x - w, abs=0.01)
                     and b.clip[1] == pytest.approx(y, abs=0.01)]
        assert behind.clip[2:] == pytest.approx((w, h), abs=0.01)
        assert behind.forms == [f"/FormXob.back:{deck}"]
    assert {tuple(round(v / MM, 1) for v in f.clip) for f in fronts} == \
        {tuple(round(v / MM, 1) for v in f.clip) for f in page_geometry(PdfReader(root / "out" / "share" / "gamma.pdf"),
                                                                         0).placements}


def test_the_manifest_records_each_card_in_its_own_deck_on_the_shared_sheet(shared_build):
    root, _ = shared_build
    data = json.loads((root / "out" / "share" / "manifest.json").read_text())
    decks = {d["id"]: d for d in data["decks"]}
    assert [d["id"] for d in data["decks"]] == ["alpha", "beta", "gamma"]
    assert decks["alpha"]["files"] == [SHARED] and decks["gamma"]["files"] == ["gamma.pdf", SHARED]
    columns = data["card_columns"]
    rows = {r[0]: dict(zip(columns, r)) for d in data["decks"] for r in d["cards"]}
    assert (rows["SHR-016"]["file"], rows["SHR-016"]["front_page"], rows["SHR-016"]["back_page"]) == (1, 0, 1)
    assert (rows["SHR-015"]["file"], rows["SHR-015"]["front_page"]) == (0, 0)
    assert decks["beta"]["back"]["file"] == 0 and decks["beta"]["back"]["page"] == 1


def test_share_sheets_none_keeps_a_file_for_every_deck_and_clears_the_shared_one(shared_build, tmp_path):
    root, _ = shared_build
    copy = tmp_path / "p"
    shutil.copytree(root, copy)
    game_yaml = copy / "cards" / "share" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "share_sheets: none\n")
    run = pnpgen("--root", copy, "build", "--out", copy / "out", cwd=copy)
    assert run.returncode == 0, run.stderr
    out = copy / "out" / "share"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["alpha.pdf", "beta.pdf", "gamma.pdf"]
    assert "4 sheets of cards and tokens, 0 warnings" in run.stdout and "saved by sharing" not in run.stdout
    assert codes(page_texts(out / "alpha.pdf")[0]) == ["SHR-001", "SHR-002", "SHR-003", "SHR-004"]
    assert len(page_texts(out / "gamma.pdf")) == 4
    listed = pnpgen("--root", copy, "list", "share", cwd=copy)
    assert "4 sheets of card stock, 0 of paper" in listed.stdout and "shared" not in listed.stdout


def test_decks_a_custom_sheet_layout_lays_out_keep_their_own_sheets(shared_build, tmp_path):
    root, _ = shared_build
    run = pnpgen("--root", root, "build", "--layout", "poker-9up-a4", "--out", tmp_path / "laid", cwd=root)
    assert run.returncode == 0, run.stderr
    out = tmp_path / "laid" / "share"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["alpha.pdf", "beta.pdf", "gamma.pdf"]
    assert "saved by sharing" not in run.stdout and "3 sheets of cards" in run.stdout   # 9 a sheet: a sheet each


def test_list_says_where_the_cards_are_and_the_sheets_saved(shared_build):
    root, _ = shared_build
    run = pnpgen("--root", root, "list", "share", cwd=root)
    assert run.returncode == 0, run.stderr
    assert "print on letter at 100 %: 2 sheets of card stock (2 saved by sharing)" in run.stdout
    assert re.search(r"alpha: Alpha, 4 cards .*; on shared-63\.5x88\.9\.pdf", run.stdout)
    assert re.search(r"gamma: Gamma, 9 cards .*; 1 sheet, double-sided", run.stdout)
    assert "shared-63.5x88.9: Shared sheets: Alpha 4, Beta 3, Gamma 1 cards" in run.stdout
    data = json.loads(pnpgen("--root", root, "list", "share", "--json", cwd=root).stdout)[0]
    assert data["sheets_saved"] == 2 and data["printing"]["card_sheets"] == 2


def test_a_shared_build_is_deterministic_and_left_in_place_when_unchanged(shared_build, tmp_path):
    root, _ = shared_build
    again = pnpgen("--root", root, "build", "--out", tmp_path / "a", "--no-cache", cwd=root)
    assert again.returncode == 0, again.stderr
    for name in (SHARED, "gamma.pdf", "manifest.json"):
        assert (tmp_path / "a" / "share" / name).read_bytes() == (root / "out" / "share" / name).read_bytes(), name
    # built again into the same folder: the shared file, the same, is left in place untouched
    before = (tmp_path / "a" / "share" / SHARED).stat().st_mtime_ns
    assert pnpgen("--root", root, "build", "--out", tmp_path / "a", cwd=root).returncode == 0
    assert (tmp_path / "a" / "share" / SHARED).stat().st_mtime_ns == before
    # and once more onto a warm build cache: its pages copied from the cache, not drawn
    (tmp_path / "a" / "share" / SHARED).unlink()
    results = {r.id: r for r in build_game(Project(root), "share", Options(out=tmp_path / "a"))}
    assert (results["shared-63.5x88.9"].kept, results["shared-63.5x88.9"].drawn) == (2, 0)
    assert (tmp_path / "a" / "share" / SHARED).read_bytes() == (root / "out" / "share" / SHARED).read_bytes()


def test_a_card_on_a_shared_sheet_is_reprinted_and_found_changed(shared_build, tmp_path):
    root, _ = shared_build
    copy = tmp_path / "p"
    shutil.copytree(root, copy)
    alpha = copy / "cards" / "share" / "decks" / "alpha.yaml"
    alpha.write_text(alpha.read_text().replace("{title: Alpha 2}", "{title: Alpha Two}"))
    changes = pnpgen("--root", copy, "changes", "--since", copy / "out", cwd=copy)
    assert changes.returncode == 0, changes.stderr
    assert "SHR-002" in changes.stdout and "SHR-001" not in changes.stdout
    run = pnpgen("--root", copy, "reprint", "--since", copy / "out", "--out", tmp_path / "re", cwd=copy)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "re" / "share").glob("*.pdf")) == ["reprint-alpha.pdf"]
    front, back = page_texts(tmp_path / "re" / "share" / "reprint-alpha.pdf")
    assert codes(front) == ["SHR-002"] and "Alpha Two" in front and "BACK" in back


def test_the_picture_of_a_card_as_it_was_is_cut_out_of_the_shared_sheet(shared_build, tmp_path):
    root, _ = shared_build
    old = tmp_path / "old"
    shutil.copytree(root / "cards", old / "cards")
    shutil.copytree(root / "templates", old / "templates")
    now = tmp_path / "now"
    shutil.copytree(old, now)
    beta = now / "cards" / "share" / "decks" / "beta.yaml"
    beta.write_text(beta.read_text().replace("{title: Beta 2}", "{title: Beta Two}"))
    from_yaml = game_changes(Project(now), "share", str(old))
    with open_revision(Project(now), str(root / "out")) as revision:
        built = game_changes(Project(now), "share", revision)
        (was,) = [c.before["front"] for c in built.changes if c.code == "SHR-006"]
        (drawn,) = [c.before["front"] for c in from_yaml.changes if c.code == "SHR-006"]
        assert isinstance(was.face, PrintedFace) and was.digest == drawn.digest
        assert (was.face.where.pdf.name, was.face.where.page) == (SHARED, 0)
        cut, again = render([was]), render([drawn])
        _close(cut[0], again[0], "SHR-006")


def test_a_share_sheets_value_pnpgen_does_not_know_is_a_located_error(tmp_path):
    make_share(tmp_path, "some")
    run = pnpgen("--root", tmp_path, "build", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert re.search(r"game\.yaml:\d+: .*share_sheets", run.stderr), run.stderr
    assert not (tmp_path / "out" / "share").exists() or not list((tmp_path / "out" / "share").glob("*.pdf"))


def test_a_deck_printed_per_player_keeps_its_own_sheets(shared_build, tmp_path):
    """Gamma, one player's set (`per_player: true`), is printed once a player: its 9th card stays
    on a sheet of Gamma's own; Alpha and Beta still share."""
    root, _ = shared_build
    copy = tmp_path / "p"
    shutil.copytree(root, copy)
    deck = copy / "cards" / "share" / "decks" / "gamma.yaml"
    deck.write_text("per_player: true\n" + deck.read_text())
    game_yaml = copy / "cards" / "share" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "players: 2-3\n")
    run = pnpgen("--root", copy, "build", "--out", copy / "out", cwd=copy)
    assert run.returncode == 0, run.stderr
    out = copy / "out" / "share"
    assert len(page_texts(out / "gamma.pdf")) == 4                     # 2 sheets, fronts and backs
    shared = page_texts(out / SHARED)
    assert len(shared) == 2 and not [c for c in codes(shared[0]) if c > "SHR-007"]   # Alpha 1-4, Beta 5-7
    assert "1 saved by sharing" in run.stdout
