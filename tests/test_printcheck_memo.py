"""The print checks remember what they found on each face for the process (printcheck/memo.py):
a check run again, or a preview's save, inspects only the faces that changed, and reports just
what a first run reports: the same findings in the same order, never a stale one when a card, a
template line or the pixels of an image under its text changed. (A second check of the
bundled games that inspects and renders no face: test_printcheck.py.)"""

from __future__ import annotations

import pytest
from PIL import Image

from pnpgen.build import plan_game
from pnpgen.printcheck import check_faces, memo
from pnpgen.printcheck.checks import ACROSS, CHECKS

from .test_printcheck import DECK_FILE, TEMPLATE, check_json, face, game, held_strictly, line_of, only

ONE_FACE_AT_A_TIME = [name for name in CHECKS if name not in ACROSS]


@pytest.fixture
def cold():
    """The memo empty before and after the test, as in a new process."""
    memo.FOUND.clear()
    yield memo.FOUND
    memo.FOUND.clear()


def _counted(monkeypatch) -> list:
    """The faces the one-face checks inspect from now on, each once per check (as code, side)."""
    inspected = []
    for name in ONE_FACE_AT_A_TIME:
        def counting(face, limits, under, _real=CHECKS[name].inspect, _name=name):
            inspected.append((_name, face.code, face.side))
            return _real(face, limits, under)
        monkeypatch.setattr(CHECKS[name], "inspect", counting)
    return inspected


def test_an_edited_card_is_the_only_face_inspected_again(tmp_path, cold, monkeypatch):
    ink = "{{ '#000000' if title == 'Gamma' else '#aaaaaa' }}"
    root = game(tmp_path, face(f'  - text: {{x: 8, y: 30, w: 47, h: 8, text: "{{{{ title }}}} in grey", size: 9, '
                               f'color: "{ink}"}}\n'))
    assert only(check_json(root)[1], "print-contrast")["cards"] == ["MIN-001", "MIN-002"]

    inspected = _counted(monkeypatch)
    deck = root / DECK_FILE
    deck.write_text(deck.read_text().replace("{title: Beta}", "{title: Gamma}"))     # Gamma's text is black
    now = check_json(root)[1]["print"]
    assert sorted(inspected) == sorted((name, "MIN-002", "front") for name in ONE_FACE_AT_A_TIME)
    assert only({"print": now}, "print-contrast")["cards"] == ["MIN-001"]
    cold.clear()
    assert check_json(root)[1]["print"] == now       # just what a first run finds


def test_a_moved_template_line_moves_the_finding(tmp_path, cold):
    tiny = '  - text: {x: 8, y: 40, w: 47, h: 5, text: "fine print", size: 4, color: "#000000"}\n'
    root = game(tmp_path, face(tiny))
    assert only(check_json(root)[1], "print-size")["line"] == line_of(root / TEMPLATE, "fine print")
    game(tmp_path, face("  # a line that draws nothing moves the element down\n", tiny))
    assert only(check_json(root)[1], "print-size")["line"] == line_of(root / TEMPLATE, "fine print")


def test_an_image_redrawn_under_the_same_name_is_read_again(tmp_path, cold):
    root = game(tmp_path, face(
        '  - image: {src: under.png, x: 5, y: 50, w: 53, h: 20}\n'
        '  - text: {x: 8, y: 55, w: 47, h: 8, text: "on the image", size: 9, color: "#ffffff"}\n'))
    art = root / "cards" / "mini" / "under.png"
    Image.new("RGB", (64, 32), (250, 250, 250)).save(art)
    assert "'on the image' in #ffffff on #fafafa" in only(check_json(root)[1], "print-contrast")["message"]
    Image.new("RGB", (64, 32), (20, 20, 20)).save(art)          # the same file, dark now: white reads on it
    assert check_json(root)[1]["print"] == []


def test_the_memo_forgets_everything_at_its_cap(project, cold, monkeypatch):
    monkeypatch.setattr(memo, "MAX_FACES", 10)
    findings = [f.as_dict() for f in check_faces(plan_game(held_strictly(project, "swamp-fox")))]
    assert 0 < len(cold) <= 10
    assert findings and [f.as_dict() for f in check_faces(plan_game(held_strictly(project, "swamp-fox")))] == findings
