"""Random small edits of the bundled YAML (a deleted line, a stray character, a duplicated
line...) must give either a build or an InputError: never any other exception, which the
CLI would show as a traceback. A fixed seed keeps the run repeatable; tools/fuzz.py runs
more."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from pnpgen.build import Options, Project, build_loaded, load
from pnpgen.errors import InputError
from pnpgen.rules.ruleset import check_game

ROOT = Path(__file__).resolve().parent.parent
TOKENS = ["", " ", "-", ":", "{", "}", "[", "]", '"', "'", "{{", "}}", "0", "-1", "1e9", "null", "true",
          "\n", "  ", "x", "*a", "&a", "!!str", "|", "%", ".", ",", "9999999", "nan", "inf", "#"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        del lines[k]
    elif op == 1:
        i = rng.randrange(len(lines[k]) + 1)
        lines[k] = lines[k][:i] + rng.choice(TOKENS) + lines[k][i:]
    elif op == 2 and lines[k]:
        i = rng.randrange(len(lines[k]))
        lines[k] = lines[k][:i] + lines[k][i + 1:]
    else:
        lines.insert(k, lines[rng.randrange(len(lines))])
    return "\n".join(lines)


def fuzz(root: Path, seed: int, rounds: int) -> list[str]:
    """Mutate, build, restore, `rounds` times; return a description of every crash."""
    rng = random.Random(seed)
    files = sorted((root / "cards").rglob("*.yaml")) + sorted((root / "templates").rglob("*.yaml"))
    crashes = []
    for n in range(rounds):
        path = rng.choice(files)
        original = path.read_text()
        edited = mutate(original, rng)
        path.write_text(edited)
        game = path.relative_to(root).parts[1]
        try:
            source = load(Project(root), game)
            check_game(source)
            build_loaded(source, Options(out=root / "out"))
        except InputError:
            pass
        except Exception as exc:  # noqa: BLE001 - any other exception is the bug we look for
            crashes.append(f"round {n}: {path.relative_to(root)}: {type(exc).__name__}: {exc}")
        finally:
            path.write_text(original)
    return crashes


def test_random_edits_never_crash(tmp_path):
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, tmp_path / part)
    assert fuzz(tmp_path, seed=2026, rounds=60) == []
