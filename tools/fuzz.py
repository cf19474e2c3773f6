"""Fuzz the input handling longer than the test suite does:

    python tools/fuzz.py SEED ROUNDS [KIND...]      e.g. python tools/fuzz.py 7 2000

KIND is what is mutated: yaml (small random edits of every YAML file, the default), template
(a `{{ ... }}` of a card template replaced by a hostile template: loops in loops, runaway
macros, joins with long separators...), rule (a rule's `where:`/`each:` replaced by a hostile
expression), rulebook (a rulebook's `{{ ... }}` replaced), or all. Every round must build or
stop at an InputError, within tests/test_fuzz.py's ROUND_SECONDS and PEAK_MB; the process may
not use more than 4 GB, so a memory bomb fails the round instead of the machine.

It then damages a small game's images and fonts (cut short, bytes flipped, enormous sizes in
the header: tests/hostile_files.py) ROUNDS / 10 times, each build in a process limited to
1 GB and 10 s: an error must be a located one (exit status 2), never a traceback or a hang.
"""

import resource
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_fuzz import MUTATORS, ROOT, fuzz  # noqa: E402


def fuzz_files(root: Path, seed: int, rounds: int) -> list[str]:
    """Damage one image or font file of a small game per round with a random mutator, build it
    in a limited process; return a description of every crash, hang or traceback."""
    import random
    import subprocess

    from tests.hostile_files import FILES, MUTATORS, hostile_game
    from tests.test_hostile import RUNNER, SECONDS

    rng, folder, crashes = random.Random(seed), hostile_game(root), []
    for n in range(rounds):
        rel, name = rng.choice(FILES), rng.choice(sorted(MUTATORS))
        good = (folder / rel).read_bytes()
        (folder / rel).write_bytes(MUTATORS[name](good, rng))
        try:
            run = subprocess.run([sys.executable, "-c", RUNNER, "build", "mini", "--no-cache"], cwd=root,
                                 capture_output=True, text=True, timeout=SECONDS)
            if run.returncode not in (0, 2) or "Traceback" in run.stderr:
                crashes.append(f"file round {n}: {name} {rel}: exit {run.returncode}: {run.stderr[-300:]}")
        except subprocess.TimeoutExpired:
            crashes.append(f"file round {n}: {name} {rel}: over {SECONDS} s")
        (folder / rel).write_bytes(good)
    return crashes

seed, rounds = (int(a) for a in (sys.argv[1:3] or ["1", "500"]))
kinds = sys.argv[3:] or ["yaml"]
if kinds == ["all"]:
    kinds = list(MUTATORS)
unknown = [k for k in kinds if k not in MUTATORS]
if unknown:
    sys.exit(f"unknown kind {unknown[0]!r}: use {', '.join(MUTATORS)} or all")
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
outcomes = Counter()
with tempfile.TemporaryDirectory() as tmp:
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, Path(tmp) / part)
    crashes = fuzz(Path(tmp), seed, rounds, kinds, outcomes)
with tempfile.TemporaryDirectory() as tmp:
    crashes += fuzz_files(Path(tmp), seed, max(1, rounds // 10))
print("\n".join(crashes) or f"no crashes in {rounds} rounds", "(" + ", ".join(f"{k}: {v}" for k, v in
                                                                          sorted(outcomes.items())) + ")")
sys.exit(1 if crashes else 0)
