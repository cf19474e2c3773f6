"""Fuzz the input handling longer than the test suite does:

    python tools/fuzz.py SEED ROUNDS [KIND...]      e.g. python tools/fuzz.py 7 2000

KIND is what is mutated: yaml (small random edits of every YAML file, the default), template
(a `{{ ... }}` of a card template replaced by a hostile template: loops in loops, runaway
macros, joins with long separators...), rule (a rule's `where:`/`each:` replaced by a hostile
expression), rulebook (a rulebook's `{{ ... }}` replaced), or all. Every round must build or
stop at an InputError, within tests/test_fuzz.py's ROUND_SECONDS and PEAK_MB; the process may
not use more than 4 GB, so a memory bomb fails the round instead of the machine.
"""

import resource
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_fuzz import MUTATORS, ROOT, fuzz  # noqa: E402

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
print("\n".join(crashes) or f"no crashes in {rounds} rounds", "(" + ", ".join(f"{k}: {v}" for k, v in
                                                                          sorted(outcomes.items())) + ")")
sys.exit(1 if crashes else 0)
