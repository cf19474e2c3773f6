"""Bad input: every class of mistake gives `file:line: message` on stderr, exit status 2,
no traceback, and nothing (half-)written in out/. Run through the CLI as a designer would
(in this process, with click's CliRunner)."""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import pytest

from .clirun import pnpgen

GAME = "cards/swarm/game.yaml"
DECK = "cards/swarm/decks/common.yaml"
EVOLUTION = "templates/swarm/evolution.yaml"
EVENT = "templates/swarm/event.yaml"


def build(root: Path, *extra):
    proc = pnpgen("--root", root, "build", "swarm", "--out", root / "out", *extra, cwd=root)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def mutate(root: Path, rel: str, old: str, new: str) -> int:
    """Replace `old` by `new` in a file; return the line where the new text starts."""
    path = root / rel
    text = path.read_text()
    assert old in text, f"{old!r} not in {rel}"
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):])
    return text[:at].count("\n") + 1


def append(root: Path, rel: str, new: str) -> int:
    path = root / rel
    text = path.read_text()
    path.write_text(text + new)
    return text.count("\n") + 1


def assert_failed(proc, rel: str, line: int | None, *needles):
    assert proc.returncode == 2, proc.stderr
    prefix = f"{rel}:{line}:" if line else f"{rel}:"
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith(prefix)]
    assert lines, f"no line starting {prefix!r} in:\n{proc.stderr}"
    for needle in needles:
        assert any(needle in ln for ln in lines), f"{needle!r} not in {lines}"


def no_output(root: Path):
    out = root / "out"
    return not out.exists() or not any(p.is_file() for p in out.rglob("*"))


CASES = [
    # (file, old, new, expected message parts)
    pytest.param(DECK, "cards:\n", "cards:\n  - {title: [unclosed\n", ["invalid YAML"], id="malformed-yaml"),
    pytest.param(GAME, "card_size: poker\n", "bleed: wide\ncard_size: poker\n", ["bleed", "expected a number", "'wide'"],
                 id="wrong-type-game"),
    pytest.param(DECK, '{title: "Hive", type: Evolution, attribute: Stack, scope: stack}',
                 '{title: "Hive", type: Evolution, attribute: Stack, scope: stack, count: three}',
                 ["count", "whole number", "'three'"], id="wrong-type-count"),
    pytest.param(GAME, "title: Swarm\n", "titel: Swarm\n", ["unknown key 'titel'", "did you mean 'title'"],
                 id="unknown-key-game"),
    pytest.param(DECK, '{title: "Hive",', '{titel: "Hive",', ["unknown field 'titel'", "did you mean 'title'"],
                 id="unknown-field-card"),
    pytest.param(EVOLUTION, "fill: parchment}", "fil: parchment}", ["unknown key 'fil'", "did you mean 'fill'"],
                 id="unknown-key-element"),
    pytest.param(EVOLUTION, "  - circle: {x: 31.75, y: 36, r: 12.5,", "  - cirle: {x: 31.75, y: 36, r: 12.5,",
                 ["unknown key 'cirle'", "did you mean 'circle'"], id="unknown-element"),
    pytest.param(DECK, '{title: "Hive", type: Evolution,', '{title: "Hive", template: evolutoin, type: Evolution,',
                 ["unknown template 'evolutoin'", "did you mean 'evolution'"], id="unknown-template"),
    pytest.param(DECK, '{title: "Hive", type: Evolution,', '{title: "Hive", type: Evolutoin,',
                 ["'Evolutoin' is not one of the allowed values", "did you mean 'Evolution'"], id="not-a-choice"),
    pytest.param(DECK, '{title: "Hive", type: Evolution, attribute: Stack, scope: stack}',
                 '{title: "Hive", type: Evolution, attribute: Stack, scope: stack, count: 100000}',
                 ["count", "0 to 1000"], id="absurd-count"),
    pytest.param(GAME, "card_size: poker\n", "card_size: [5000, 10]\n", ["card_size", "outside 10..1200 mm"],
                 id="absurd-size"),
    pytest.param(GAME, '  ink: "#1f1a14"', '  ink: "#zz1a14"', ["colors.ink", "is not a colour"], id="bad-palette-colour"),
    pytest.param(EVOLUTION, "  - rect: {x: 3.6, y: 3.6, w: 56.3, h: 81.7, r: 2.5, fill: parchment}",
                 "  - rect: {x: 3.6, y: 1e93, w: 56.3, h: 81.7, r: 2.5, fill: parchment}",
                 ["y", "less than or equal to 1000"], id="absurd-position"),
    pytest.param(GAME, "decks: [decks/common.yaml, decks/optional.yaml, decks/counters.yaml, decks/aids.yaml, decks/markers.yaml]",
                 "decks: [decks/common.yaml, ../../etc/passwd]", ["outside the game folder"], id="deck-outside-folder"),
    pytest.param(GAME, "decks: [decks/common.yaml, decks/optional.yaml, decks/counters.yaml, decks/aids.yaml, decks/markers.yaml]",
                 "decks: [decks/common.yaml, decks/common.yaml]", ["already listed"], id="deck-twice"),
]


@pytest.mark.parametrize("rel,old,new,needles", CASES)
def test_bad_input_is_reported_with_file_and_line(scratch, rel, old, new, needles):
    line = mutate(scratch, rel, old, new)
    proc = build(scratch)
    assert_failed(proc, rel, None if "invalid YAML" in needles else line, *needles)
    assert no_output(scratch)


@pytest.mark.parametrize("element,needles", [
    ('  - image: {src: "art/missing.png", w: 5, h: 5}\n', ["image 'art/missing.png' not found"]),
    ('  - image: {src: "../../../../etc/passwd", w: 5, h: 5}\n', ["outside the game folder"]),
    ('  - text: {w: 5, h: 5, text: "x", size: 5000}\n', ["size", "less than or equal to 300"]),
    ('  - text: {w: 5, h: 5, text: "{{ titel }}"}\n', ["undefined name 'titel'", "did you mean 'title'"]),
    ('  - text: {w: 5, h: 5, text: "{{ title.__class__ }}"}\n', ["cannot evaluate"]),
    ('  - text: {w: 5, h: 5, text: "{{ title * 100000000 }}"}\n', ["cannot evaluate", "this expression does more than 1,000,000 characters"]),
    ('  - text: {w: 5, h: 5, text: "{{ 9 ** 999999999 }}"}\n', ["cannot evaluate", "more than 4,096-bit numbers"]),
    ('  - text: {w: 5, h: 5, text: "{{ title|center(1000000000) }}"}\n', ["cannot evaluate", "would hold 1,000,000,000"]),
    ('  - rect: {w: 5, h: 5, fill: "not-a-colour"}\n', ["unknown colour 'not-a-colour'"]),
    ('  - rect: {w: 5, h: 5, fill: "#ffffff8"}\n', ["'#ffffff8' is not a colour", "'#rrggbbaa' with two more"]),
    ('  - rect: {w: 5, h: 5, fill: "#12345"}\n', ["'#12345' is not a colour", "six hex digits"]),
    ('  - text: {w: 5, h: 5, text: "x", font: sanz}\n', ["unknown font 'sanz'", "did you mean 'sans'"]),
])
def test_bad_template_elements(scratch, element, needles):
    line = append(scratch, EVOLUTION, element)
    proc = build(scratch)
    assert_failed(proc, EVOLUTION, line, *needles)
    assert no_output(scratch)


def test_yaml_cannot_run_code(scratch, tmp_path):
    marker = tmp_path / "hacked"
    line = mutate(scratch, DECK, "cards:\n", f'evil: !!python/object/apply:os.system ["touch {marker}"]\ncards:\n')
    proc = build(scratch)
    assert_failed(proc, DECK, line, "is not allowed")
    assert not marker.exists()


def test_alias_bombs_are_refused_quickly(scratch):
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        bomb.append(f"{name}: &{name} [" + ", ".join(f"*{prev}" for _ in range(10)) + "]")
    (scratch / DECK).write_text("\n".join(bomb) + "\n" + (scratch / DECK).read_text())
    start = time.perf_counter()
    proc = build(scratch)
    assert time.perf_counter() - start < 20
    assert_failed(proc, DECK, None, "too many aliases")


@pytest.fixture
def clean(good_swarm):
    """The scratch copy of the project built once as `build` builds it (conftest.good_swarm)."""
    folder, proc = good_swarm
    assert "Traceback" not in proc.stderr, proc.stderr
    return folder, proc


def test_a_failure_while_drawing_leaves_the_previous_pdf_untouched(scratch, clean):
    folder, proc = clean
    assert proc.returncode == 0
    shutil.copytree(folder / "out", scratch / "out")    # as that good build of the same input left it
    pdf = scratch / "out" / "swarm" / "common.pdf"
    before = hashlib.sha256(pdf.read_bytes()).hexdigest()
    # divides by zero only for Event cards (bonus 3), which come after many Evolutions
    line = append(scratch, EVENT, '  - text: {w: 5, h: 5, text: "{{ 1 // (bonus - 3) }}"}\n')
    proc = build(scratch)
    assert_failed(proc, EVENT, line, "division", "card SWM-")
    assert hashlib.sha256(pdf.read_bytes()).hexdigest() == before
    assert not list((scratch / "out").rglob("*.part"))


def test_a_clean_build_says_only_what_it_wrote_when_not_on_a_terminal(clean):
    scratch, proc = clean
    assert proc.returncode == 0 and proc.stderr == ""          # no progress lines: not a terminal
    assert proc.stdout == f"swarm: 7 PDFs, 28 sheets of cards and tokens, 0 warnings, in {scratch / 'out' / 'swarm'}\n"
    assert sorted(p.name for p in (scratch / "out" / "swarm").iterdir()) == ["aids.pdf", "board.pdf", "common.pdf", "counters.pdf", "manifest.json", "markers.pdf", "optional.pdf", "rulebook.pdf"]


@pytest.mark.parametrize("expression, needle", [
    ("{{ 'a'|format(1, 2) }}", "not all arguments converted"),      # a TypeError inside a filter
    ("{{ 1 // 0 }}", "division"),                                    # an ArithmeticError
])
def test_an_expression_that_fails_in_the_card_code_colour_is_located(tmp_path, expression, needle):
    """Found by fuzzing: the card code's colour was evaluated outside the element guard, so an
    expression raising TypeError there ended the build in a traceback."""
    from .minigame import make_game
    face = f'size: poker\ncode: {{color: "{expression}"}}\nelements:\n  - rect: {{w: 63.5, h: 88.9, fill: "#ffffff"}}\n'
    make_game(tmp_path, "title: Mini\ncode: MIN\n", "name: Deck\ntemplate: face\ncards:\n  - {}\n", {"face": face})
    ran = pnpgen("build", "mini", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr, ran.stderr
    assert "templates/mini/face.yaml:2: code: cannot evaluate" in ran.stderr and needle in ran.stderr, ran.stderr
