"""Fuzz the input handling longer than the test suite does:

    python tools/fuzz.py SEED ROUNDS      e.g. python tools/fuzz.py 7 2000
"""

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_fuzz import ROOT, fuzz  # noqa: E402

seed, rounds = (int(a) for a in (sys.argv[1:3] or ["1", "500"]))
with tempfile.TemporaryDirectory() as tmp:
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, Path(tmp) / part)
    crashes = fuzz(Path(tmp), seed, rounds)
print("\n".join(crashes) or f"no crashes in {rounds} rounds")
sys.exit(1 if crashes else 0)
