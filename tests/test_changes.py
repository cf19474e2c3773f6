"""`pnpgen changes` and `pnpgen reprint` against a git revision in a temporary repository: cards
compared by what they print (a reworded YAML that prints the same is no change, a touched-up
image is one), codes shifted by an insertion reported as renumbering rather than changes,
pictures whose difference marks only what changed, and reprint sheets of just those cards."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game, load
from pnpgen.cli import main
from pnpgen.export.faces import deck_faces
from pnpgen.layout.fingerprint import Fingerprints
from pnpgen.revisions import game_changes, open_revision
from pnpgen.revisions.pictures import HEADER, LABEL, MAGENTA, MARGIN

from .minigame import make_game
from .pdfread import code_centres, page_geometry

ROOT = Path(__file__).resolve().parent.parent
DPI = 150
PX = DPI / 25.4

GIT_ENV = {"GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "tester@example.org",
           "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.org",
           "GIT_AUTHOR_DATE": "2026-01-02T03:04:05+00:00", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05+00:00",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

PICS_GAME = "title: Pictures\ncode: PIC\n"
PICS_DECK = """name: Sky deck
template: face
back: {template: back}
fields:
  title: {required: true}
  art: {required: true}
cards:
  - {title: Sun, art: sun}
  - {title: Moon, art: moon}
  - {title: Star, art: star}
  - {title: Comet, art: comet}
"""
PICS_FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#20304a", bleed: true}
  - image: {src: "art/{{ art }}.png", x: 10, y: 20, w: 43.5, h: 30, fit: stretch}
  - text: {x: 5, y: 60, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff", align: center}
"""
PICS_BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""
IMAGE_BOX = (10, 20, 53.5, 50)           # mm: where the picture goes on a Pictures card
TITLE_BOX = (6, 4.6, 57.5, 14.6)         # mm: the title on a Swarm Evolution card


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout.strip()


def art(path: Path, colour, spot=None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (40, 30), colour)
    if spot:
        image.paste(spot, (4, 4, 14, 12))
    image.save(path)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A git repository of Swarm (tag v0), then Pictures too (tag v1), then edits left in the
    working tree: Hive retitled Beehive, Cluster removed, Queen added at the end of the common
    deck (so 63 cards move down a code), Swarm's YAML keys reordered with a comment and its
    default bonus written out (prints the same); Sun's image touched up, Moon's image renamed
    (same bytes, prints the same), Star's copies 1 -> 3, Comet's keys reordered."""
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(ROOT / "cards" / "swarm", root / "cards" / "swarm")
    shutil.copytree(ROOT / "templates" / "swarm", root / "templates" / "swarm")
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Swarm")
    git(root, "tag", "v0")
    folder = make_game(root, PICS_GAME, PICS_DECK, {"face": PICS_FACE, "back": PICS_BACK}, game_id="pics",
                       deck_id="sky")
    for name, colour in (("sun", "#ffd400"), ("moon", "#c8c8c8"), ("star", "#ffffff"), ("comet", "#3aa0ff")):
        art(folder / "art" / f"{name}.png", colour)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Pictures")
    git(root, "tag", "v1")
    shutil.copytree(root / "cards", root.parent / f"{root.name}-v1" / "cards")      # the same state, as a folder
    shutil.copytree(root / "templates", root.parent / f"{root.name}-v1" / "templates")

    common = root / "cards" / "swarm" / "decks" / "common.yaml"
    text = common.read_text()
    text = text.replace('{title: "Hive", type', '{title: "Beehive", type')
    text = text.replace('  - {title: "Cluster", type: Evolution, attribute: Stack, scope: stack}\n', "")
    text = text.replace('  - {title: "Swarm", type: Evolution, attribute: Stack, scope: stack}',
                        '  - {scope: stack, attribute: Stack, bonus: 1, type: Evolution, title: Swarm}  # reordered')
    text += '  - {title: "Queen", type: Evolution, attribute: Reproduction, scope: swarm}\n'
    common.write_text(text)
    art(folder / "art" / "sun.png", "#ffd400", spot="#d01010")
    os.replace(folder / "art" / "moon.png", folder / "art" / "luna.png")
    deck = folder / "decks" / "sky.yaml"
    deck.write_text(deck.read_text().replace("{title: Moon, art: moon}", "{title: Moon, art: luna}")
                    .replace("{title: Star, art: star}", "{title: Star, art: star, count: 3}")
                    .replace("{title: Comet, art: comet}", "{art: comet,   title: Comet}   # keys swapped"))
    return root


def run(repo: Path, *args: str, env=None):
    result = CliRunner().invoke(main, ["--root", str(repo), *args], env=env)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.output
    return result


def codes(data: dict, game: str, kind: str) -> list[str]:
    entry = next(g for g in data["games"] if g["game"] == game)
    return [c["code"] for d in entry["decks"] for c in d["changes"] if c["kind"] == kind]


def test_changes_lists_exactly_what_prints_differently(repo):
    result = run(repo, "changes", "--since", "v1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["commit"] == git(repo, "rev-parse", "v1")
    assert codes(data, "swarm", "changed") == ["SWM-003"]
    assert codes(data, "swarm", "added") == ["SWM-073"]
    assert codes(data, "swarm", "removed") == ["SWM-010"]
    assert codes(data, "swarm", "copies") == []
    # Cluster's removal moved every later card of the deck down one code: same print, new code
    moved = [c for g in data["games"] for d in g["decks"] for c in d["changes"] if c["kind"] == "renumbered"]
    assert [c["code"] for c in moved] == [f"SWM-{n:03d}" for n in range(10, 73)]
    assert all(c["old_code"] == f"SWM-{int(c['code'][4:]) + 1:03d}" for c in moved)
    swarm = next(g for g in data["games"] if g["game"] == "swarm")
    hive = next(c for d in swarm["decks"] for c in d["changes"] if c["code"] == "SWM-003")
    assert (hive["title"], hive["old_title"], hive["sides"]) == ("Beehive", "Hive", ["front"])
    assert all(d["changes"] == [] and d["back"] is None for d in swarm["decks"] if d["id"] != "common")
    # Sun's image bytes changed; Moon's image was renamed (same bytes); Comet's keys swapped
    assert codes(data, "pics", "changed") == ["PIC-001"]
    assert codes(data, "pics", "copies") == ["PIC-003"]
    assert codes(data, "pics", "added") == codes(data, "pics", "removed") == codes(data, "pics", "renumbered") == []


def test_changes_text_names_codes_and_titles(repo):
    result = run(repo, "changes", "--since", "v1", "swarm")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith(f"swarm (Swarm) since v1 ({git(repo, 'rev-parse', '--short', 'v1')}): 1 changed, 1 added, "
                          "1 removed, 63 renumbered")
    assert re.search(r'changed\s+SWM-003\s+Beehive \(was "Hive"\): front', out)
    assert re.search(r"added\s+SWM-073\s+Queen", out)
    assert re.search(r"removed\s+SWM-010\s+Cluster", out)
    assert "63 cards print the same under new codes (SWM-010 was SWM-011 ... SWM-072 was SWM-073)" in out
    assert "pics" not in out


def test_a_game_absent_at_the_revision_is_every_card_added(repo):
    result = run(repo, "changes", "--since", "v0", "pics", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"][0]["status"] == "added"
    assert codes(data, "pics", "added") == ["PIC-001", "PIC-002", "PIC-003", "PIC-004"]
    text = run(repo, "changes", "--since", "v0", "pics").output
    assert text.startswith("pics (Pictures) since v0") and "a new game, every card added (4 different)" in text


def test_a_folder_is_compared_like_a_revision(repo):
    folder = repo.parent / f"{repo.name}-v1"
    by_folder = json.loads(run(repo, "changes", "--since", str(folder), "--format", "json").output)
    by_git = json.loads(run(repo, "changes", "--since", "v1", "--format", "json").output)
    for game in ("swarm", "pics"):
        for kind in ("changed", "added", "removed", "copies", "renumbered"):
            assert codes(by_folder, game, kind) == codes(by_git, game, kind)
    assert by_folder["commit"] is None


def _panel(picture: Image.Image, index: int, size: tuple[int, int]) -> Image.Image:
    x = MARGIN + index * (size[0] + MARGIN)
    y = MARGIN + HEADER + LABEL
    return picture.crop((x, y, x + size[0], y + size[1]))


def _magenta_box(panel: Image.Image):
    """The bounding box (px) of the pure magenta pixels, and how many there are."""
    bands = panel.convert("RGB").split()
    hit = [band.point(lambda v, want=want: 255 if v == want else 0) for band, want in zip(bands, MAGENTA)]
    hit = ImageChops.multiply(ImageChops.multiply(hit[0], hit[1]), hit[2])
    return hit.getbbox(), hit.histogram()[255]


def _inside(box, mm, slack=2):
    x0, y0, x1, y1 = (round(v * PX) for v in mm)
    return box[0] >= x0 - slack and box[1] >= y0 - slack and box[2] <= x1 + slack and box[3] <= y1 + slack


def test_pictures_show_before_now_and_a_difference_only_where_the_card_changed(repo, tmp_path):
    out = tmp_path / "changes"
    result = run(repo, "changes", "--since", "v1", "--out", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.png"))
    assert files == ["pics/sky/PIC-001-front-changed.png", "swarm/common/SWM-003-front-changed.png",
                     "swarm/common/SWM-010-front-removed.png", "swarm/common/SWM-073-front-added.png"]
    card = (round(63.5 * PX), round(88.9 * PX))           # 375 x 525 px at 150 DPI
    three = (MARGIN + 3 * (card[0] + MARGIN), MARGIN + HEADER + LABEL + card[1] + MARGIN)
    one = (MARGIN + card[0] + MARGIN, three[1])
    for name, (box, size) in {"swarm/common/SWM-003-front-changed.png": (TITLE_BOX, three),
                              "pics/sky/PIC-001-front-changed.png": (IMAGE_BOX, three)}.items():
        with Image.open(out / name) as picture:
            assert picture.size == size
            before, now, diff = (_panel(picture, i, card) for i in range(3))
            marked, count = _magenta_box(diff)
            assert count > 50 and _inside(marked, box), (name, marked)
            assert _magenta_box(before)[1] == _magenta_box(now)[1] == 0
    for name in ("swarm/common/SWM-010-front-removed.png", "swarm/common/SWM-073-front-added.png"):
        with Image.open(out / name) as picture:
            assert picture.size == one
    index = json.loads((out / "swarm" / "changes.json").read_text())
    assert [p["file"] for p in index["pictures"]] == ["common/SWM-003-front-changed.png",
                                                      "common/SWM-010-front-removed.png",
                                                      "common/SWM-073-front-added.png"]
    # a second run replaces the folder whole; a folder of other files is refused
    assert run(repo, "changes", "--since", "v1", "pics", "--out", str(out)).exit_code == 0
    other = tmp_path / "mine"
    (other / "pics").mkdir(parents=True)
    (other / "pics" / "notes.txt").write_text("mine")
    refused = run(repo, "changes", "--since", "v1", "pics", "--out", str(other))
    assert refused.exit_code == 2 and "did not write" in refused.output
    assert (other / "pics" / "notes.txt").read_text() == "mine"


def _pdf_text(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def test_reprint_holds_only_the_changed_and_added_cards_with_their_backs(repo, tmp_path):
    out = tmp_path / "out"
    result = run(repo, "reprint", "--since", "v1", "--out", str(out))
    assert result.exit_code == 0, result.output
    short = git(repo, "rev-parse", "--short", "v1")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf")) == ["pics/reprint-sky.pdf",
                                                                               "swarm/reprint-common.pdf"]
    front, back = _pdf_text(out / "swarm" / "reprint-common.pdf")
    assert sorted(set(re.findall(r"SWM-\d{3}", front))) == ["SWM-003", "SWM-073"]
    assert "Beehive" in front and "Queen" in front and "Hive\n" not in front
    slug = f"reprint: changed since v1 ({short})"
    assert slug in front and slug in back and "BACK" in back and "FRONT" in front
    # Sun whole, and the two copies of Star that were added (3 now, 1 before)
    pics = _pdf_text(out / "pics" / "reprint-sky.pdf")
    assert len(pics) == 2
    assert re.findall(r"PIC-\d{3}", pics[0]) .count("PIC-003") == 2 and pics[0].count("PIC-001") == 1
    assert "PIC-002" not in pics[0] and "PIC-004" not in pics[0]
    assert "take out SWM-010 Cluster (Common deck): removed" in result.output
    assert "63 cards of Common deck print the same but under a new code" in result.output
    # registered like a full build: the three cards sit where the first three of a full build's
    # sheet sit, fronts and backs alike (only the bleed differs, grown where no card is beside)
    full, = build_game(Project(repo), "pics", Options(out=tmp_path / "full"))
    whole, part = PdfReader(str(full.path)), PdfReader(str(out / "pics" / "reprint-sky.pdf"))
    for page in (0, 1):
        mine = page_geometry(part, page).placements
        theirs = page_geometry(whole, page).placements
        assert len(mine) == 3 and len(theirs) == 6
        for a, b in zip(mine, theirs):
            assert a.matrix == pytest.approx(b.matrix)
    doc = pdfium.PdfDocument(str(out / "pics" / "reprint-sky.pdf"))
    fronts, backs = code_centres(doc[0], "PIC-"), code_centres(doc[1], "PIC-")
    assert set(fronts) == {"PIC-001", "PIC-003"} and not backs    # (the common back prints no code)
    doc.close()


def test_reprint_renumbered_cards_when_asked_and_nothing_when_nothing_changed(repo, tmp_path):
    out = tmp_path / "out"
    result = run(repo, "reprint", "--since", "v1", "swarm", "--renumbered", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = "".join(_pdf_text(out / "swarm" / "reprint-common.pdf"))
    assert len(set(re.findall(r"SWM-\d{3}", text))) == 2 + 63
    # the working tree against a copy of itself: nothing to print, nothing written, old reprints removed
    same = tmp_path / "same"
    shutil.copytree(repo / "cards", same / "cards")
    shutil.copytree(repo / "templates", same / "templates")
    result = run(repo, "reprint", "--since", str(same), "swarm", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "swarm: no card prints differently since folder same: no reprint written" in result.output
    assert not list((out / "swarm").glob("*.pdf"))
    empty = tmp_path / "empty"
    result = run(repo, "reprint", "--since", str(same), "pics", "--out", str(empty))
    assert result.exit_code == 0 and "pics: no card prints differently" in result.output
    assert not empty.exists()


def test_bad_revisions_are_clear_errors(repo, tmp_path):
    result = run(repo, "changes", "--since", "no-such-tag")
    assert result.exit_code == 2
    assert result.output.startswith("pnpgen: --since no-such-tag: no such revision in the git repository")
    assert "Traceback" not in result.output
    result = run(repo, "reprint", "--since", "no-such-tag")
    assert result.exit_code == 2 and "no such revision" in result.output
    result = run(repo, "changes", "--since", "v1", "nosuch")
    assert result.exit_code == 2 and "no game 'nosuch'" in result.output
    plain = tmp_path / "plain"
    shutil.copytree(repo / "cards", plain / "cards")
    result = run(plain, "changes", "--since", "HEAD", env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert result.exit_code == 2
    assert "is not in a git repository" in result.output and result.output.startswith("pnpgen: --since HEAD:")
    result = run(repo, "changes", "--since", str(tmp_path))
    assert result.exit_code == 2 and "holds no cards/ folder" in result.output
    assert run(repo, "changes").exit_code == 2          # --since is required


def test_bad_input_at_the_revision_is_named_at_its_own_path(repo, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(repo, broken, ignore=shutil.ignore_patterns(".git"))
    git(broken, "-c", "init.defaultBranch=main", "init", "-q")
    deck = broken / "cards" / "pics" / "decks" / "sky.yaml"
    good = deck.read_text()
    deck.write_text(good.replace("{title: Sun, art: sun}", "{title: Sun, art: sun, colour: red}"))
    git(broken, "add", "-A")
    git(broken, "commit", "-q", "-m", "broken")
    deck.write_text(good)
    result = run(broken, "changes", "--since", "HEAD", "pics")
    assert result.exit_code == 2
    assert result.output.startswith("HEAD:cards/pics/decks/sky.yaml:")
    assert "compare with another revision" in result.output


def test_the_library_gives_each_change_its_faces_before_and_after(repo):
    project = Project(repo)
    with open_revision(project, "v1") as revision:
        changes = game_changes(project, "pics", revision)
        sun = next(c for c in changes.changes if c.code == "PIC-001")
        assert sun.kind == "changed" and sun.sides == ("front",)
        assert sun.before["front"].face.title == sun.after["front"].face.title == "Sun"
        assert sun.before["front"].digest != sun.after["front"].digest
        assert sun.before["back"].digest == sun.after["back"].digest
        from pnpgen.revisions.pictures import render
        old, new = render([sun.before["front"], sun.after["front"]])
        assert old.size == new.size == (375, 525)
        assert old.tobytes() != new.tobytes()


def test_fingerprints_follow_the_print_not_the_path(tmp_path):
    def pics(where: Path, colour="#20304a", sun="#ffd400"):
        folder = make_game(where, PICS_GAME, PICS_DECK, {"face": PICS_FACE.replace("#20304a", colour),
                                                         "back": PICS_BACK}, game_id="pics", deck_id="sky")
        for name, c in (("sun", sun), ("moon", "#c8c8c8"), ("star", "#ffffff"), ("comet", "#3aa0ff")):
            art(folder / "art" / f"{name}.png", c)
        game = load(Project(where), "pics")
        deck = deck_faces(game)[0]
        prints = Fingerprints(deck.forms, game.root)
        return [prints.face(f.body, f.size, f.shape) for f in deck.fronts]

    a, b = pics(tmp_path / "a"), pics(tmp_path / "elsewhere" / "b")
    assert a == b and len(set(a)) == 4                     # same print at another path: same digests
    recoloured = pics(tmp_path / "c", colour="#20304b")
    assert all(x != y for x, y in zip(a, recoloured))      # a colour one step off is another print
    touched = pics(tmp_path / "d", sun="#ffd401")
    assert touched[0] != a[0] and touched[1:] == a[1:]     # another image file: only its card differs


def test_a_common_back_and_a_board_are_changes_of_their_own(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    for where in (old, new):
        shutil.copytree(ROOT / "cards" / "swarm", where / "cards" / "swarm")
        shutil.copytree(ROOT / "templates" / "swarm", where / "templates" / "swarm")
    back = new / "templates" / "swarm" / "back.yaml"
    back.write_text(back.read_text().replace('fill: "#3f7048"', 'fill: "#3f7049"'))
    board = new / "cards" / "swarm" / "boards" / "board.yaml"
    board.write_text(board.read_text().replace("seed: 21", "seed: 22"))
    result = run(new, "changes", "--since", str(old), "--format", "json")
    assert result.exit_code == 0, result.output
    swarm, = json.loads(result.output)["games"]
    decks = {d["id"]: d for d in swarm["decks"]}
    assert decks["common"]["back"]["kind"] == decks["optional"]["back"]["kind"] == "changed"
    assert decks["common"]["changes"] == decks["optional"]["changes"] == []      # no card changed by itself
    assert [(c["kind"], c["sides"]) for c in decks["board"]["changes"]] == [("changed", ["front"])]
    assert all(d["back"] is None and d["changes"] == [] for k, d in decks.items()
               if k not in ("common", "optional", "board"))
    out = tmp_path / "out"
    result = run(new, "reprint", "--since", str(old), "--out", str(out))
    assert result.exit_code == 0, result.output
    # every card that wears the changed back is reprinted: 73 common, 16 optional
    assert sorted(p.name for p in (out / "swarm").glob("*.pdf")) == ["reprint-common.pdf", "reprint-optional.pdf"]
    assert "73 cards of Common deck" in result.output and "16 cards of Optional cards" in result.output
    assert "board board (Swarm board) prints differently: boards are not reprinted here" in result.output


def test_a_changed_font_file_is_a_change_of_the_cards_that_use_it(tmp_path):
    fonts = ROOT / "pnpgen" / "fonts"
    for where, ttf in (("old", "DejaVuSansCondensed.ttf"), ("new", "DejaVuSerifCondensed-Bold.ttf")):
        folder = make_game(tmp_path / where, PICS_GAME + "fonts: {display: fonts/display.ttf}\n", PICS_DECK,
                           {"face": PICS_FACE.replace("size: 14,", "size: 14, font: display,"), "back": PICS_BACK},
                           game_id="pics", deck_id="sky")
        for name in ("sun", "moon", "star", "comet"):
            art(folder / "art" / f"{name}.png", "#ffd400")
        (folder / "fonts").mkdir()
        shutil.copy(fonts / ttf, folder / "fonts" / "display.ttf")
    changes = game_changes(Project(tmp_path / "new"), "pics", str(tmp_path / "old"))
    sun = changes.changes[0]      # the same text in the same named font, but the font's file changed
    assert Fingerprints(sun.before["front"].deck.forms).face(sun.before["front"].face.body) != \
        Fingerprints(sun.after["front"].deck.forms).face(sun.after["front"].face.body)
    assert [(c.code, c.kind, c.sides) for c in changes.changes] == [
        (f"PIC-00{i}", "changed", ("front",)) for i in range(1, 5)]


def test_a_small_tokens_picture_keeps_its_labels_and_heading_apart():
    from pnpgen.revisions.compare import Change
    from pnpgen.revisions.pictures import picture

    token = Image.new("RGB", (30, 30), (40, 120, 60))
    moved = token.copy()
    moved.paste((200, 40, 40), (10, 10, 20, 20))
    change = Change("changed", "tokens", "TOK-004", "Wound marker, large", sides=("front",))
    out, changed = picture(change, "front", token, moved, "v1 (a1b2c3d)")
    assert changed > 0
    gray = out.convert("L")
    band = [y for y in range(MARGIN + HEADER, MARGIN + HEADER + LABEL)]
    inked = [x for x in range(out.width) if any(gray.getpixel((x, y)) < 200 for y in band)]
    runs = [[inked[0]]]        # the columns the three labels take, as runs of inked columns
    for x in inked[1:]:
        if x - runs[-1][-1] > MARGIN // 2:
            runs.append([])
        runs[-1].append(x)
    assert len(runs) == 3, [(r[0], r[-1]) for r in runs]       # three labels, apart
    heading = [x for x in range(out.width) if any(gray.getpixel((x, y)) < 128 for y in range(MARGIN, MARGIN + HEADER))]
    assert heading[-1] < out.width - MARGIN // 2                 # the heading fits the picture
