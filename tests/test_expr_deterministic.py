"""Template expressions print the same for the same card in every build: Jinja's own
functions that draw on chance (lipsum) are made repeatable."""

from __future__ import annotations

import random
import subprocess
import sys

from pnpgen import expr


def test_lipsum_gives_the_same_text_for_the_same_arguments_in_every_process():
    """A template that fills a card with lipsum() prints the same words at every build (and
    leaves the `random` module's shared generator as it found it)."""
    random.seed(5)
    expected_next = random.random()
    random.seed(5)
    env = expr.environment()
    here = env.from_string("{{ lipsum(2, min=5, max=9) }}").render()
    assert random.random() == expected_next
    assert here == env.from_string("{{ lipsum(2, min=5, max=9) }}").render()
    assert here != env.from_string("{{ lipsum(2, min=5, max=10) }}").render()
    code = "from pnpgen import expr; print(expr.environment().from_string('{{ lipsum(2, min=5, max=9) }}').render())"
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert there == here + "\n"
