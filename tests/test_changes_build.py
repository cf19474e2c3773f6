"""`pnpgen changes` and `pnpgen reprint` against a folder an earlier `pnpgen build` wrote (no
YAML in it: each game's manifest.json and its PDFs). A small game is built into out1, then
edited (a title, a new card, a removed card, reordered YAML keys that print the same, a
touched-up image, another image, a card's own back); the build folder must give exactly the
changes an earlier copy of the project gives, and the pictures of the cards as they were,
cut out of the old PDFs, must match those drawn from the old YAML."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from pnpgen.build import Options, Project, build_game, load
from pnpgen.cli import main
from pnpgen.build.manifest import CARD_COLUMNS, FORMAT, KIND, NAME
from pnpgen.revisions import KINDS, game_changes, open_revision
from pnpgen.revisions.built import BuildRevision, PrintedFace
from pnpgen.revisions.pictures import HEADER, LABEL, MAGENTA, MARGIN, render

from .test_changes import PICS_FACE, art

ROOT = Path(__file__).resolve().parent.parent
PX = 150 / 25.4

GAME = "title: Kit\ncode: KIT\npaper: letter\nshare_sheets: none\n"   # (each deck its own sheets: test_share_sheets.py cuts cards out of shared ones)
SKY = """name: Sky deck
template: face
back: {template: back}
fields:
  title: {required: true}
  art: {required: true}
cards:
  - {title: Sun, art: sun}
  - {title: Moon, art: moon}
  - {title: Star, art: star, count: 5}
  - {title: Comet, art: comet}
  - {title: Nova, art: nova, count: 2}
"""
RELICS = """name: Relics
template: relic
back: {template: relic-back, per_card: true}
fields:
  title: {required: true}
  lore: {}
cards:
  - {title: Crown, lore: Old gold}
  - {title: Chalice, lore: Deep cup}
"""
TEMPLATES = {
    "face": PICS_FACE,     # the same card face as test_changes.py's Pictures game
    "back": """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
  - rect: {x: 6, y: 6, w: 20, h: 12, fill: "#f0c040"}
  - text: {x: 5, y: 70, w: 53.5, h: 10, text: "KIT", size: 16, color: "#ffffff", align: right}
""",
    "relic": """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#e8e0c8", bleed: true}
  - text: {x: 5, y: 8, w: 53.5, h: 12, text: "{{ title }}", size: 14, align: center}
""",
    "relic-back": """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#304a20", bleed: true}
  - rect: {x: 40, y: 70, w: 18, h: 12, fill: "#f0c040"}
  - text: {x: 5, y: 10, w: 53.5, h: 30, text: "{{ lore }}", size: 11, color: "#ffffff"}
""",
}
ART = {"sun": "#ffd400", "moon": "#c8c8c8", "star": "#ffffff", "comet": "#3aa0ff", "nova": "#ff60a0"}
IMAGE_BOX = (10, 20, 53.5, 50)         # mm: where the picture goes on a Sky card

# relics come first (decks in file-name order), so the Sky deck starts at KIT-003
EXPECTED = {
    "relics": {"changed": ["KIT-002"]},                                 # Chalice's own back
    "sky": {"changed": ["KIT-003", "KIT-004", "KIT-006"],               # Sun's image, Moon's title, Nova's art
            "removed": ["KIT-005"], "added": ["KIT-007"], "renumbered": ["KIT-005"]},   # Star; Meteor; Comet
}


def make_kit(root: Path) -> Path:
    folder = root / "cards" / "kit"
    (folder / "decks").mkdir(parents=True)
    (root / "templates" / "kit").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "decks" / "sky.yaml").write_text(SKY)
    (folder / "decks" / "relics.yaml").write_text(RELICS)
    for name, text in TEMPLATES.items():
        (root / "templates" / "kit" / f"{name}.yaml").write_text(text)
    for name, colour in ART.items():
        art(folder / "art" / f"{name}.png", colour)
    return folder


def run(root: Path, *args: str):
    result = CliRunner().invoke(main, ["--root", str(root), *args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The project ("now"), built into now/out1 before its edits; "old", a copy of the project
    as it was then (for the YAML side of the comparisons)."""
    base = tmp_path_factory.mktemp("kit")
    now, old = base / "now", base / "old"
    folder = make_kit(now)
    result = run(now, "build", "--out", str(now / "out1"))
    assert result.exit_code == 0, result.output
    shutil.copytree(now / "cards", old / "cards")
    shutil.copytree(now / "templates", old / "templates")
    sky = folder / "decks" / "sky.yaml"
    sky.write_text(sky.read_text()
                   .replace("{title: Moon, art: moon}", "{title: Full Moon, art: moon}")
                   .replace("  - {title: Star, art: star, count: 5}\n", "")
                   .replace("{title: Comet, art: comet}", "{art: comet,   title: Comet}   # keys swapped")
                   .replace("{title: Nova, art: nova, count: 2}", "{title: Nova, art: nova2, count: 2}")
                   + "  - {title: Meteor, art: comet}\n")
    art(folder / "art" / "sun.png", ART["sun"], spot="#d01010")        # touched up
    art(folder / "art" / "nova2.png", "#60a0ff")                         # another picture
    relics = folder / "decks" / "relics.yaml"
    relics.write_text(relics.read_text().replace("Deep cup", "Deeper cup"))
    return base


def codes(data: dict, game: str, kind: str, deck: str | None = None) -> list[str]:
    entry = next(g for g in data["games"] if g["game"] == game)
    return [c["code"] for d in entry["decks"] if deck in (None, d["id"]) for c in d["changes"] if c["kind"] == kind]


def test_a_build_folder_gives_exactly_the_changes_the_old_project_gives(kit):
    now = kit / "now"
    result = run(now, "changes", "--since", str(now / "out1"), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["commit"] is None and [g["game"] for g in data["games"]] == ["kit"]
    for deck, kinds in EXPECTED.items():
        for kind in KINDS:
            assert codes(data, "kit", kind, deck) == kinds.get(kind, []), (deck, kind)
    game = data["games"][0]
    moon = next(c for d in game["decks"] for c in d["changes"] if c["code"] == "KIT-004")
    assert (moon["title"], moon["old_title"], moon["sides"]) == ("Full Moon", "Moon", ["front"])
    nova = next(c for d in game["decks"] for c in d["changes"] if c["title"] == "Nova")
    assert (nova["code"], nova["old_code"], nova["sides"]) == ("KIT-006", "KIT-007", ["front"])
    chalice = next(c for d in game["decks"] for c in d["changes"] if c["code"] == "KIT-002")
    assert chalice["sides"] == ["back"]
    assert all(d["back"] is None for d in game["decks"])
    # exactly what an earlier copy of the project (the same state as YAML) gives
    folder = json.loads(run(now, "changes", "--since", str(kit / "old"), "--format", "json").output)
    assert folder["games"][0]["decks"] == game["decks"] and folder["games"][0]["counts"] == game["counts"]
    # the text report, and one game's folder (or its manifest) as the revision
    text = run(now, "changes", "--since", str(now / "out1")).output
    assert text.startswith("kit (Kit) since build out1: 4 changed, 1 added, 1 removed, 1 renumbered")
    assert re.search(r'changed\s+KIT-004\s+Full Moon \(was "Moon"\): front', text)
    assert re.search(r"removed\s+KIT-005\s+Star \(x5\)", text)
    for since in (now / "out1" / "kit", now / "out1" / "kit" / NAME):
        one = run(now, "changes", "--since", str(since))
        assert one.exit_code == 0 and one.output.startswith("kit (Kit) since build out1/kit: 4 changed"), one.output
    # an unedited project against its own build: nothing
    same = run(kit / "old", "changes", "--since", str(now / "out1"))
    assert same.exit_code == 0 and same.output == "kit (Kit) since build out1: nothing prints differently\n"


def _close(a: Image.Image, b: Image.Image, what) -> None:
    """Two renderings of one face agree: the same size, and at most a few edge pixels differ."""
    assert a.size == b.size, what
    delta = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    hist = delta.histogram()
    moved = sum(hist[33:])
    mean = sum(i * n for i, n in enumerate(hist)) / (a.width * a.height)
    assert moved <= 0.002 * a.width * a.height and mean < 0.5, (what, moved, mean)


def test_pictures_of_cards_as_they_were_are_cut_out_of_the_old_pdfs(kit, tmp_path):
    now = Project(kit / "now")
    # the same old state split into one-sheet volumes: Nova (sheet 2) is cut out of kit/sky-2.pdf
    vols = tmp_path / "vols"
    build_game(Project(kit / "old"), "kit", Options(out=vols, volume_sheets=1))
    assert sorted(p.name for p in (vols / "kit").glob("*.pdf")) == ["relics.pdf", "sky-1.pdf", "sky-2.pdf"]
    from_yaml = game_changes(now, "kit", str(kit / "old"))
    wanted = [(c.code, s) for c in from_yaml.changes for s in c.before if c.kind in ("changed", "removed")]
    assert ("KIT-002", "back") in wanted and ("KIT-005", "front") in wanted and ("KIT-006", "front") in wanted
    for since in (kit / "now" / "out1", vols):
        with open_revision(now, str(since)) as revision:
            assert isinstance(revision, BuildRevision)
            built = game_changes(now, "kit", revision)
            pairs = []
            for code, side in wanted:
                a = next(c for c in built.changes if c.code == code).before[side]
                b = next(c for c in from_yaml.changes if c.code == code).before[side]
                assert isinstance(a.face, PrintedFace) and a.digest == b.digest
                pairs.append((a, b))
            nova = next(c for c in built.changes if c.title == "Nova").before["front"].face
            assert nova.where.pdf.name == ("sky-2.pdf" if since == vols else "sky.pdf")
            assert nova.where.page == (0 if since == vols else 2) and nova.where.turn == 90
            cut = render([a for a, _ in pairs])
            drawn = render([b for _, b in pairs])
            for (code, side), x, y in zip(wanted, cut, drawn):
                assert x.size == (375, 525)
                _close(x, y, (since.name, code, side))
    # a card's own back is turned the other way on its page than its front
    chalice = next(c for c in game_changes(now, "kit", str(kit / "now" / "out1")).changes if c.code == "KIT-002")
    assert chalice.before["front"].face.where.turn == 90 and chalice.before["back"].face.where.turn == 270


def _panel(picture: Image.Image, index: int, size: tuple[int, int]) -> Image.Image:
    x = MARGIN + index * (size[0] + MARGIN)
    y = MARGIN + HEADER + LABEL
    return picture.crop((x, y, x + size[0], y + size[1]))


def test_changes_out_writes_before_now_and_difference_from_the_build_folder(kit, tmp_path):
    out = tmp_path / "pictures"
    result = run(kit / "now", "changes", "--since", str(kit / "now" / "out1"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(out / "kit").as_posix() for p in out.rglob("*.png")) == [
        "relics/KIT-002-back-changed.png", "sky/KIT-003-front-changed.png", "sky/KIT-004-front-changed.png",
        "sky/KIT-005-front-removed.png", "sky/KIT-006-front-changed.png", "sky/KIT-007-front-added.png"]
    card = (375, 525)
    with Image.open(out / "kit" / "sky" / "KIT-003-front-changed.png") as picture:
        assert picture.size == (MARGIN + 3 * (card[0] + MARGIN), MARGIN + HEADER + LABEL + card[1] + MARGIN)
        before, now, diff = (_panel(picture, i, card).convert("RGB") for i in range(3))
        bands = diff.split()
        hit = [band.point(lambda v, want=want: 255 if v == want else 0) for band, want in zip(bands, MAGENTA)]
        hit = ImageChops.multiply(ImageChops.multiply(hit[0], hit[1]), hit[2])
        box = hit.getbbox()
        x0, y0, x1, y1 = (round(v * PX) for v in IMAGE_BOX)
        # only the touched-up spot of the image differs: the cut-out lines up with the new face
        assert hit.histogram()[255] > 50 and box[0] >= x0 - 2 and box[1] >= y0 - 2 and box[2] <= x1 + 2 \
            and box[3] <= y1 + 2, box
    index = json.loads((out / "kit" / "changes.json").read_text())
    assert index["since"] == "build out1"


def _pdf_text(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def test_reprint_against_a_build_folder(kit, tmp_path):
    out = tmp_path / "out"
    result = run(kit / "now", "reprint", "--since", str(kit / "now" / "out1"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "kit").glob("*.pdf")) == ["reprint-relics.pdf", "reprint-sky.pdf"]
    front, back = _pdf_text(out / "kit" / "reprint-sky.pdf")
    assert sorted(set(re.findall(r"KIT-\d{3}", front))) == ["KIT-003", "KIT-004", "KIT-006", "KIT-007"]
    assert front.count("KIT-006") == 2            # every copy of a changed card
    slug = "reprint: changed since build out1"
    assert slug in front and slug in back and "FRONT" in front and "BACK" in back
    assert "take out KIT-005 Star (Sky deck): removed, all 5 copies" in result.output
    relics = "".join(_pdf_text(out / "kit" / "reprint-relics.pdf"))
    assert set(re.findall(r"KIT-\d{3}", relics)) == {"KIT-002"} and "Deeper cup" in relics


def test_the_manifest_is_deterministic_compact_and_renamed_in_with_the_pdfs(kit, tmp_path):
    first = (kit / "now" / "out1" / "kit" / NAME).read_bytes()
    old = Project(kit / "old")
    build_game(old, "kit", Options(out=tmp_path / "a"))
    build_game(old, "kit", Options(out=tmp_path / "a"))          # again, from the build cache
    build_game(old, "kit", Options(out=tmp_path / "b", cache=False))
    assert (tmp_path / "a" / "kit" / NAME).read_bytes() == first == (tmp_path / "b" / "kit" / NAME).read_bytes()
    data = json.loads(first)
    assert (data["kind"], data["format"], data["game"], data["title"]) == (KIND, FORMAT, "kit", "Kit")
    assert data["card_columns"] == list(CARD_COLUMNS)
    decks = {d["id"]: d for d in data["decks"]}
    sky = decks["sky"]
    assert [r[0] for r in sky["cards"]] == ["KIT-003", "KIT-004", "KIT-005", "KIT-006", "KIT-007"]   # a row an entry
    star = dict(zip(CARD_COLUMNS, sky["cards"][2]))
    assert (star["title"], star["count"], star["back"], star["file"], star["front_page"], star["back_page"]) == \
        ("Star", 5, None, 0, 0, 1)
    x, y, w, h, turn = sky["slots"][star["front_slot"]]
    assert (w, h, turn) == (88.9, 63.5, 90) and sky["files"] == ["sky.pdf"] and sky["back"]["page"] == 1
    assert all(r[5] is not None and r[5] != r[6] for r in decks["relics"]["cards"])   # own backs, codes printed
    assert all(len(r[3]) == 32 and r[3] != r[4] for d in decks.values() for r in d["cards"])
    # written with the PDFs, under its own temporary name: nothing else left in the folder
    assert sorted(p.name for p in (tmp_path / "a" / "kit").iterdir()) == [NAME, "relics.pdf", "sky.pdf"]


def test_a_failed_build_writes_no_manifest(kit, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(kit / "old", broken)
    sky = broken / "cards" / "kit" / "decks" / "sky.yaml"
    sky.write_text(sky.read_text().replace("{title: Comet,", "{title: " + "Comet " * 40 + ","))
    result = run(broken, "build", "--strict", "--out", str(tmp_path / "fresh"))
    assert result.exit_code == 2
    assert not [p for p in (tmp_path / "fresh").rglob("*") if p.is_file() and p.parent.name != ".cache"]
    # over an earlier build: its manifest and PDFs stay as they were
    shutil.copytree(kit / "now" / "out1", tmp_path / "kept")
    before = {p.name: p.read_bytes() for p in (tmp_path / "kept" / "kit").iterdir()}
    result = run(broken, "build", "--strict", "--out", str(tmp_path / "kept"))
    assert result.exit_code == 2
    assert {p.name: p.read_bytes() for p in (tmp_path / "kept" / "kit").iterdir()} == before


def test_bad_build_folders_are_clear_errors(kit, tmp_path):
    now = kit / "now"
    empty = tmp_path / "empty"
    (empty / "kit").mkdir(parents=True)
    (empty / "kit" / "sky.pdf").write_bytes(b"%PDF-1.4\n")
    for command in ("changes", "reprint"):
        result = run(now, command, "--since", str(empty))
        assert result.exit_code == 2 and "holds no cards/ folder and no manifest.json" in result.output
        assert "a folder an earlier `pnpgen build` wrote" in result.output
    future = tmp_path / "future"
    shutil.copytree(now / "out1", future)
    data = json.loads((future / "kit" / NAME).read_text())
    data["format"] = FORMAT + 1
    (future / "kit" / NAME).write_text(json.dumps(data))
    result = run(now, "changes", "--since", str(future))
    assert result.exit_code == 2 and "rebuild it with this pnpgen" in result.output
    assert result.output.startswith(f"{future / 'kit' / NAME}: written by another version of pnpgen")
    (future / "kit" / NAME).write_text("{not json")
    result = run(now, "reprint", "--since", str(future))
    assert result.exit_code == 2 and "not a manifest pnpgen can read" in result.output
    # the listing needs only the manifest; the pictures need the PDFs beside it
    nopdf = tmp_path / "nopdf"
    shutil.copytree(now / "out1", nopdf)
    os.remove(nopdf / "kit" / "sky.pdf")
    assert run(now, "changes", "--since", str(nopdf)).exit_code == 0
    result = run(now, "changes", "--since", str(nopdf), "--out", str(tmp_path / "pics"))
    assert result.exit_code == 2 and "sky.pdf: cannot read it" in result.output


def test_every_bundled_game_writes_a_manifest_its_own_build_compares_equal_with(tmp_path, built_out):
    """On a copy of the session's build of every game (as `pnpgen build --out out` writes it)."""
    project = Project(ROOT)
    out = tmp_path / "out"
    shutil.copytree(built_out, out, ignore=shutil.ignore_patterns(".cache"))
    with open_revision(project, str(out)) as revision:
        assert revision.label == "build out"
        for game_id in ("bad-maps", "swamp-fox", "swamp-monsters", "swamped", "swarm"):
            data = json.loads((out / game_id / NAME).read_text(encoding="utf-8"))
            assert data["format"] == FORMAT and data["game"] == game_id
            game = load(project, game_id)
            decks = {d["id"]: d for d in data["decks"]}
            assert set(decks) == {d.id for d in game.decks} | {b.id for b in game.boards}
            for deck in game.decks:
                assert len(decks[deck.id]["cards"]) == sum(1 for c in deck.cards if c.count > 0), (game_id, deck.id)
            for board in game.boards:
                assert decks[board.id]["kind"] == "board" and len(decks[board.id]["cards"]) == 1
                assert decks[board.id]["pieces"]["front"]
            if game_id in ("swarm", "bad-maps"):    # the digests are those compare computes from the YAML
                changes = game_changes(project, game_id, revision)
                assert changes.status == "compared" and changes.changes == [], game_id


def test_the_code_blind_digest_takes_the_code_out_of_texts_alone(monkeypatch):
    """Fingerprints.faces blanks a card code in a text's encoded bytes (one walk for both
    digests); it must give what encoding the text again with the code taken out gives, for
    texts with quotes, escapes, other scripts and the code more than once."""
    import re as regex

    from pnpgen.layout import fingerprint
    from pnpgen import ops

    def text(*runs):
        return ops.Text(lines=((1.0, 2.0, tuple(ops.Run(x=0.5, text=t, font="sans") for t in runs)),),
                        size=9, color=None, rotate=0, cx=0.0, cy=0.0)

    body = [text("KIT-007"), text("it's \"KIT-007\"\n\tKIT-007KIT-007 \u00e9\u4e2d\\KIT-007"),
            text("KIT-0070 KIT-00"), text("no code here", "KIT-007")]
    prints = fingerprint.Fingerprints({})
    quick = prints.faces(body, (63.5, 88.9), "rect", "KIT-007")
    other = prints.faces([text("KIT-009"), *body[1:]], (63.5, 88.9), "rect", "KIT-009")
    assert other[1] != quick[1]     # KIT-007 is still in its texts: not blanked for KIT-009
    same = prints.faces([text("KIT-009")] + [text(*(t.replace("KIT-007", "KIT-009") for t in (
        "it's \"KIT-007\"\n\tKIT-007KIT-007 \u00e9\u4e2d\\KIT-007",))), text("KIT-0090 KIT-00"),
        text("no code here", "KIT-009")], (63.5, 88.9), "rect", "KIT-009")
    assert same[1] == quick[1] and same[0] != quick[0]     # only the code differs: the same blind digest
    monkeypatch.setattr(fingerprint, "CARD_CODE", regex.compile(r"(?!)"))      # the slow way only
    slow = fingerprint.Fingerprints({}).faces(body, (63.5, 88.9), "rect", "KIT-007")
    assert quick == slow and quick[0] != quick[1]
    assert quick[0] == prints.face(body, (63.5, 88.9), "rect")
