"""Every scalar of card data reads as PyYAML's safe loader reads it, whether pnpgen's reader
takes it straight off the parser's event (plain decimals, whole numbers, text) or hands it to
PyYAML's constructor (everything else)."""

from __future__ import annotations

import math

import pytest
import yaml

from pnpgen.sources import yamlsrc

SCALARS = ["1.5", "-0.0", "+2.", "0.5", ".5", "-.5", "+.25", "1.0e+5", "1.0E-3", "12.25", "-12.", "007.5", "3.",
           "1_0.5", "1:30.5", ".inf", "-.Inf", ".nan", "1e5", "!!float 5", "!!float 1.5", "'1.5'", "\"2.0\"",
           "12", "-7", "+3", "0", "007", "0x1F", "1_000", "true", "no", "null", "~", "2026-12-02", "x1.5", "1.5x"]


@pytest.mark.parametrize("scalar", SCALARS)
def test_a_scalar_reads_as_pyyaml_reads_it(scalar):
    want = yaml.safe_load(f"a: {scalar}\n")["a"]
    got = yamlsrc.loads(f"a: {scalar}\n", "x.yaml").data["a"]
    assert type(got) is type(want)
    assert repr(got) == repr(want) or (isinstance(want, float) and math.isnan(want) and math.isnan(got))
