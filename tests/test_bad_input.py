"""Every problem in a game folder: `path:line: what is wrong (hint)` on stderr, exit status 2,
no traceback, and no (half-)written file in out/.

Each test breaks one file of a scratch copy of the bundled Swarm game by string replacement,
then runs `pnpgen build` on it (in this process, with click's CliRunner; stdout and stderr are
not terminals), exactly as a designer would. Expected line numbers are computed from the
mutated text, never hard-coded."""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from pathlib import Path

import pytest

from .clirun import Ran, pnpgen

GAME = "cards/swarm/game.yaml"
DECK = "cards/swarm/decks/common.yaml"
OPTIONAL_DECK = "cards/swarm/decks/optional.yaml"
EVOLUTION = "templates/swarm/evolution.yaml"
EVENT = "templates/swarm/event.yaml"
OPTIONAL = "templates/swarm/optional.yaml"

HIVE = '{title: "Hive", type: Evolution, attribute: Stack, scope: stack}'
"""A plain Evolution card of the common deck (the third entry)."""


# --- helpers ----------------------------------------------------------------------------------

def build(root: Path) -> Ran:
    """Build the swarm game as a user would, from the project folder; stdout/stderr are not terminals."""
    return pnpgen("--root", root, "build", "swarm", "--out", root / "out", cwd=root)


def edit(root: Path, rel: str, old: str, new: str, mark: str | None = None) -> int:
    """Replace the first `old` by `new` in `rel`; return the line (1-based) of the mutated text
    where `mark` (default: `new`) starts."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {rel}: the bundled game changed, update the test"
    at = text.index(old)
    mutated = text[:at] + new + text[at + len(old):]
    path.write_text(mutated, encoding="utf-8")
    return line_of(mutated, mark if mark is not None else new, start=mutated.rfind("\n", 0, at) + 1)


def line_of(text: str, needle: str, start: int = 0) -> int:
    at = text.index(needle, start)
    return text[:at].count("\n") + 1


def problem_lines(stderr: str, rel: str, line: int | None) -> list[str]:
    """Lines of stderr that start with a path ending in `rel` followed by `:line:`."""
    where = re.escape(rel) + (f":{line}:" if line is not None else r":(\d+:)?")
    pattern = re.compile(r"^(?:\S*/)?" + where + " ")
    return [ln for ln in stderr.splitlines() if pattern.match(ln)]


def assert_input_error(proc, rel: str, line: int | None, *needles: str) -> str:
    """Exit status 2, no traceback, and one `rel:line: ...` line holding every needle."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, f"exit status {proc.returncode}; stderr:\n{proc.stderr}"
    lines = problem_lines(proc.stderr, rel, line)
    assert lines, f"no line starting with '{rel}:{line}:' in stderr:\n{proc.stderr}"
    matching = [ln for ln in lines if all(n in ln for n in needles)]
    assert matching, f"no line holds all of {needles!r}; got:\n" + "\n".join(lines)
    return matching[0]


def files_under(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []


def assert_nothing_written(root: Path):
    left = files_under(root / "out")
    assert not left, f"a failed build left files in out/: {[str(p.relative_to(root)) for p in left]}"


def assert_no_part_files(root: Path):
    parts = [p for p in files_under(root / "out") if p.name.endswith(".part") or ".part" in p.name]
    assert not parts, f"half-written files left behind: {parts}"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- the unmodified game --------------------------------------------------------------------

@pytest.fixture
def good(good_swarm) -> tuple[Path, Ran]:
    """The scratch copy of the project built once as `build` builds it (conftest.good_swarm)."""
    return good_swarm


def test_good_game_builds_quietly(good):
    scratch, proc = good
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", f"stderr is not a terminal, so a good build says nothing:\n{proc.stderr}"
    out = scratch / "out" / "swarm"
    assert sorted(p.name for p in files_under(out)) == ["aids.pdf", "board.pdf", "common.pdf", "counters.pdf", "manifest.json", "markers.pdf",
                                                          "optional.pdf", "rulebook.pdf"]
    for pdf in (p for p in files_under(out) if p.suffix == ".pdf"):
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")


# --- one mutation, one message ----------------------------------------------------------------
# (file, old text, new text, text marking the expected line (None: the new text), needles)

CASES = [
    # 1. malformed YAML
    pytest.param(DECK, HIVE, HIVE.replace('"Hive"', '["Hive"'), None,
                 ["invalid YAML", "']'"], id="yaml-unclosed-bracket"),
    pytest.param(DECK, HIVE, HIVE.replace("Evolution,", "Evolution],"), None,
                 ["invalid YAML"], id="yaml-stray-bracket"),
    pytest.param(GAME, "paper: letter\n", "paper: letter\n\tbleed: 3\n", "\tbleed",
                 ["invalid YAML"], id="yaml-tab-indent"),
    # 2. wrong types
    pytest.param(GAME, "card_size: poker\n", "card_size: poker\nbleed: wide\n", "bleed: wide",
                 ["bleed", "expected a number", "'wide'"], id="type-bleed"),
    pytest.param(DECK, HIVE, HIVE[:-1] + ", count: three}", None,
                 ["cards[2].count", "whole number", "'three'"], id="type-count"),
    pytest.param(DECK, HIVE, HIVE[:-1] + ", bonus: many}", None,
                 ["cards[2].bonus", "expected int", "'many'"], id="type-field"),
    pytest.param(GAME, "paper: letter\n", "paper: letter\nflip: sideways\n", "flip:",
                 ["flip", "sideways"], id="type-literal"),
    # 3. unknown keys, with did-you-mean
    pytest.param(GAME, "title: Swarm\n", "titel: Swarm\n", None,
                 ["unknown key 'titel'", "did you mean 'title'"], id="unknown-key-game"),
    pytest.param(DECK, HIVE, HIVE.replace("title:", "titel:"), None,
                 ["unknown field 'titel'", "did you mean 'title'"], id="unknown-key-card"),
    pytest.param(EVOLUTION, "r: 2.5, fill: parchment}", "r: 2.5, fil: parchment}", None,
                 ["elements[1].rect", "unknown key 'fil'", "did you mean 'fill'"], id="unknown-key-element"),
    pytest.param(EVOLUTION, "  - circle: {x: 31.75, y: 36, r: 12.5,", "  - rectangle: {x: 31.75, y: 36, r: 12.5,",
                 None, ["unknown key 'rectangle'", "did you mean 'rect'"], id="unknown-element-kind"),
    # 4. unknown templates
    pytest.param(DECK, HIVE, HIVE.replace("type:", "template: evolutoin, type:"), None,
                 ["unknown template 'evolutoin'", "did you mean 'evolution'"], id="unknown-template-card"),
    pytest.param(DECK, "  template: back\n", "  template: bak\n", None,
                 ["unknown template 'bak'", "did you mean 'back'"], id="unknown-template-back"),
    # 5. missing image
    pytest.param(EVOLUTION, "  # what changes",
                 "  - image: {x: 20, y: 24, w: 20, h: 20, src: art/missing.png}\n  # what changes", "  - image:",
                 ["art/missing.png", "not found"], id="missing-image"),
    # 6. references outside the game folder
    pytest.param(EVOLUTION, "  # what changes",
                 "  - image: {x: 20, y: 24, w: 20, h: 20, src: ../../etc/passwd}\n  # what changes", "  - image:",
                 ["../../etc/passwd", "outside the game folder"], id="image-outside"),
    pytest.param(GAME, "decks: [decks/common.yaml, decks/optional.yaml, decks/counters.yaml, decks/aids.yaml, decks/markers.yaml]", "decks: [decks/common.yaml, ../x.yaml]",
                 None, ["../x.yaml", "outside the game folder"], id="deck-outside"),
    pytest.param(GAME, "decks: [decks/common.yaml, decks/optional.yaml, decks/counters.yaml, decks/aids.yaml, decks/markers.yaml]\n",
                 "decks:\n  - decks/common.yaml\n  - /etc/passwd\n", "  - /etc/passwd",
                 ["/etc/passwd", "outside the game folder"], id="deck-absolute"),
    # 7. absurd counts and sizes
    pytest.param(DECK, HIVE, HIVE[:-1] + ", count: 100000}", None,
                 ["cards[2].count", "100000", "1000"], id="absurd-count"),
    pytest.param(GAME, "card_size: poker", "card_size: [5000, 10]", None,
                 ["card_size", "5000", "outside 10..1200 mm"], id="absurd-card-size"),
    pytest.param(EVOLUTION, 'text: "EVOLUTION", font: sans-bold, size: 7,',
                 'text: "EVOLUTION", font: sans-bold, size: 5000,', None,
                 ["elements[3].text.size", "5000", "300"], id="absurd-text-size"),
    pytest.param(EVOLUTION, "size: poker\n", "size: [63.5, 5000]\n", None,
                 ["size", "5000", "outside 10..1200 mm"], id="absurd-template-size"),
    # 8. undefined template variable
    pytest.param(EVOLUTION, 'text: "{{ title }}"', 'text: "{{ titel }}"', None,
                 ["undefined name 'titel'", "did you mean 'title'"], id="undefined-variable"),
    # 10. a value not among the field's choices
    pytest.param(DECK, HIVE, HIVE.replace("type: Evolution", "type: Evolutoin"), None,
                 ["cards[2].type", "'Evolutoin'", "did you mean 'Evolution'"], id="not-a-choice"),
    # 11. too deep, too long, without end (each once a traceback)
    pytest.param(DECK, HIVE, HIVE[:-1] + ", bonus: " + "[" * 500 + "]" * 500 + "}", None,
                 ["nested more than 64 deep"], id="yaml-nested-500"),
    pytest.param(DECK, HIVE, HIVE[:-1] + ", bonus: " + "[" * 999 + "]" * 999 + "}", None,
                 ["nest"], id="yaml-nested-999"),      # (libyaml's own limit may answer first)
    pytest.param(DECK, HIVE, HIVE[:-1] + ", bonus: " + "9" * 5000 + "}", None,
                 ["a number of 5000 digits", "at most 30", "quote it"], id="yaml-5000-digits"),
    pytest.param(EVOLUTION, 'text: "{{ title }}"', 'text: "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}"',
                 None, ["this expression does more than 50 calls inside one another"], id="recursive-macro"),
    pytest.param(EVOLUTION, 'text: "{{ title }}"', 'text: "{{ range(99999)|join(title * 99999) }}"', None,
                 ["this expression does more than 1,000,000 characters"], id="runaway-join"),
    pytest.param(EVOLUTION, "r: 2.5, fill: parchment}", 'r: 2.5, fill: "{{ card }}"}', None,
                 ["unknown colour '{'", "use '#rrggbb'"], id="colour-a-mapping"),     # (found by tools/fuzz.py)
]


@pytest.mark.parametrize("rel, old, new, mark, needles", CASES)
def test_bad_input(scratch, rel, old, new, mark, needles):
    line = edit(scratch, rel, old, new, mark)
    proc = build(scratch)
    assert_input_error(proc, rel, line, *needles)
    assert_nothing_written(scratch)


def test_missing_template_file(scratch):
    """A template that a deck uses is deleted: the first card that uses it is named."""
    (scratch / EVENT).unlink()
    line = line_of((scratch / DECK).read_text(encoding="utf-8"), "template: event")
    proc = build(scratch)
    assert_input_error(proc, DECK, line, "unknown template 'event'", "templates/swarm/")
    assert_nothing_written(scratch)


def test_missing_deck_file(scratch):
    line = edit(scratch, GAME, "decks: [decks/common.yaml, decks/optional.yaml, decks/counters.yaml, decks/aids.yaml, decks/markers.yaml]",
                "decks: [decks/common.yaml, decks/optinal.yaml]")
    proc = build(scratch)
    assert_input_error(proc, GAME, line, "decks/optinal.yaml", "not found")
    assert_nothing_written(scratch)


def test_unknown_deck_template_points_at_its_line(scratch):
    line = edit(scratch, DECK, "template: evolution\n", "template: evolutoin\n")
    proc = build(scratch)
    assert_input_error(proc, DECK, line, "unknown template 'evolutoin'", "did you mean 'evolution'")
    assert_nothing_written(scratch)


def test_font_outside_game_folder(scratch):
    """A font file outside the game folder, used by a template: refused, at the font's
    declaration in game.yaml or at the element that uses it."""
    declared = edit(scratch, GAME, "colors:\n", "fonts:\n  evil: ../../../etc/passwd\ncolors:\n", "  evil:")
    used = edit(scratch, EVOLUTION, 'text: "EVOLUTION", font: sans-bold', 'text: "EVOLUTION", font: evil')
    proc = build(scratch)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    lines = problem_lines(proc.stderr, GAME, declared) + problem_lines(proc.stderr, EVOLUTION, used)
    assert any("../../../etc/passwd" in ln and "outside the game folder" in ln for ln in lines), proc.stderr
    assert_nothing_written(scratch)


def test_unused_font_outside_game_folder(scratch):
    line = edit(scratch, GAME, "colors:\n", "fonts:\n  evil: ../../../etc/passwd\ncolors:\n", "  evil:")
    proc = build(scratch)
    assert_input_error(proc, GAME, line, "../../../etc/passwd", "outside the game folder")
    assert_nothing_written(scratch)


# --- problems in the second deck's template are found before anything is written ---------------

SECOND_DECK = [
    pytest.param("art/missing.png", "not found", id="missing-image"),
    pytest.param("../../etc/passwd", "outside the game folder", id="image-outside"),
]


def _break_optional_template(root: Path, src: str) -> int:
    return edit(root, OPTIONAL, "  - text: {x: 8, y: 26",
                f"  - image: {{x: 20, y: 24, w: 20, h: 20, src: {src}}}\n  - text: {{x: 8, y: 26", "  - image:")


@pytest.mark.parametrize("src, needle", SECOND_DECK)
def test_second_deck_static_error_message(scratch, src, needle):
    line = _break_optional_template(scratch, src)
    proc = build(scratch)
    assert_input_error(proc, OPTIONAL, line, src, needle)
    assert_no_part_files(scratch)


@pytest.mark.parametrize("src, needle", SECOND_DECK)
def test_second_deck_static_error_writes_nothing(scratch, src, needle):
    _break_optional_template(scratch, src)
    proc = build(scratch)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert_nothing_written(scratch)


# --- 9. unsafe YAML ----------------------------------------------------------------------------

@pytest.mark.parametrize("tagged", [
    '!!python/object/apply:os.system ["touch {marker}"]',
    '!!python/object/apply:os.system "touch {marker}"',
    '!!python/object/new:os.system ["touch {marker}"]',
    '!!python/name:os.system ""',
])
def test_python_tags_are_refused_not_run(scratch, tagged):
    marker = scratch / "HACKED"
    line = edit(scratch, DECK, HIVE, HIVE.replace('"Hive"', tagged.format(marker=marker)))
    proc = build(scratch)
    assert not marker.exists(), "a YAML tag ran a shell command"
    assert_input_error(proc, DECK, line, "tag:yaml.org,2002:python/")
    assert_nothing_written(scratch)


def _bomb(levels: int = 9) -> str:
    lines = ['lol0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
    for i in range(1, levels + 1):
        lines.append(f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n")
    return "".join(lines)


@pytest.mark.parametrize("rel, anchor", [(GAME, "colors:\n"), (DECK, "cards:\n")], ids=["game", "deck"])
def test_billion_laughs_is_refused_quickly(scratch, rel, anchor):
    bomb = _bomb()
    first = edit(scratch, rel, anchor, bomb + anchor, bomb)
    last = first + bomb.count("\n") - 1
    start = time.monotonic()
    proc = build(scratch)
    elapsed = time.monotonic() - start
    assert elapsed < 15, f"the alias bomb took {elapsed:.1f} s to refuse"
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    lines = [ln for n in range(first, last + 1) for ln in problem_lines(proc.stderr, rel, n)]
    assert any("alias" in ln for ln in lines), \
        f"no '{rel}:<{first}..{last}>: ... aliases ...' line in stderr:\n{proc.stderr}"
    assert_nothing_written(scratch)


# --- 11. a failure while drawing leaves the previous PDFs alone, and no .part file ------------------

def _good_build(root: Path, good: tuple[Path, Ran]) -> dict[str, tuple[str, int]]:
    """out/ as the good build of the same input left it (a copy of it, cache and all)."""
    folder, proc = good
    assert proc.returncode == 0, proc.stderr
    shutil.copytree(folder / "out", root / "out")
    out = root / "out" / "swarm"
    return {p.name: (digest(p), p.stat().st_ino) for p in files_under(out)}


def test_failure_late_in_first_deck_keeps_old_pdf(scratch, good):
    """Only Event cards (bonus 3, the 26th card onwards) divide by zero: the build fails on
    sheet 3 of the common deck, after the .part file was opened and partly drawn."""
    before = _good_build(scratch, good)
    assert set(before) == {"aids.pdf", "board.pdf", "common.pdf", "counters.pdf", "manifest.json", "markers.pdf", "optional.pdf",
                           "rulebook.pdf"}
    line = edit(scratch, EVENT, '  - circle: {x: 31.75, y: 36, r: 9, fill: "#ffffff"}',
                '  - text: {x: 6, y: 22, w: 51.5, h: 3, size: 6, text: "{{ 1 // (bonus - 3) }}"}')
    card_line = line_of((scratch / DECK).read_text(encoding="utf-8"), "Feeding Frenzy")
    proc = build(scratch)
    msg = assert_input_error(proc, EVENT, line, "division", "by zero")
    assert f"{DECK}:{card_line}" in msg, f"the failing card's entry is not named: {msg}"
    assert_no_part_files(scratch)
    out = scratch / "out" / "swarm"
    after = {p.name: (digest(p), p.stat().st_ino) for p in files_under(out)}
    assert after == before, "a failed build replaced or changed an earlier good PDF"


def test_failure_on_last_card_of_second_deck_keeps_old_pdf(scratch, good):
    """The very last card of the last deck fails: the first deck was written whole, the
    second deck's earlier PDF is untouched, and nothing half-written is left."""
    before = _good_build(scratch, good)
    line = edit(scratch, OPTIONAL, "  - text: {x: 8, y: 26",
                "  - text: {x: 6, y: 22, w: 51.5, h: 3, size: 6, "
                "text: \"{{ 1 // (0 if title == 'Rampage' else 1) }}\"}\n  - text: {x: 8, y: 26", "  - text: {x: 6, y: 22")
    card_line = line_of((scratch / OPTIONAL_DECK).read_text(encoding="utf-8"), '"Rampage"')
    proc = build(scratch)
    msg = assert_input_error(proc, OPTIONAL, line, "division", "by zero")
    assert f"{OPTIONAL_DECK}:{card_line}" in msg, f"the failing card's entry is not named: {msg}"
    assert_no_part_files(scratch)
    out = scratch / "out" / "swarm"
    assert (digest(out / "optional.pdf"), (out / "optional.pdf").stat().st_ino) == before["optional.pdf"]
    # common.pdf was rebuilt in full before the failure (the output is deterministic)
    assert digest(out / "common.pdf") == before["common.pdf"][0]
    assert sorted(p.name for p in files_under(out)) == ["aids.pdf", "board.pdf", "common.pdf", "counters.pdf", "manifest.json", "markers.pdf",
                                                          "optional.pdf", "rulebook.pdf"]
