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


def _all_yaml() -> list:
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    return sorted(p for part in ("cards", "templates") for p in (root / part).rglob("*.yaml")
                  if p.stat().st_size <= yamlsrc.READ_AGAIN_BYTES)


def test_a_small_file_read_again_is_the_same_doc_and_no_caller_shares_its_values(monkeypatch):
    """Every small bundled YAML file, read again with the same bytes, gives the Doc the parser
    gives (values, types, lines, rows), without parsing; a caller changing its values changes
    no one else's."""
    files = _all_yaml()
    assert len(files) > 60
    first = {p: yamlsrc.load(p) for p in files}
    parsed = {p: yamlsrc.loads(p.read_bytes(), p) for p in files}
    monkeypatch.setattr(yamlsrc, "loads", lambda *a, **k: pytest.fail("parsed again"))
    for p in files:
        again = yamlsrc.load(p, "shown.yaml")
        assert (again.data, again.lines, again.rows) == (parsed[p].data, parsed[p].lines, parsed[p].rows), p
        assert repr(again.data) == repr(parsed[p].data), p           # (the same types: 1 is not 1.0 nor True)
        assert str(again.path) == "shown.yaml"
        if isinstance(again.data, dict):
            again.data.clear()
            assert yamlsrc.load(p).data == first[p].data == parsed[p].data, p


def test_a_file_with_a_date_is_parsed_each_time(tmp_path, monkeypatch):
    path = tmp_path / "dated.yaml"
    path.write_text("released: 2026-12-02\n")
    assert str(yamlsrc.load(path).data["released"]) == "2026-12-02"
    parsed = []
    real = yamlsrc.loads
    monkeypatch.setattr(yamlsrc, "loads", lambda *a, **k: parsed.append(1) or real(*a, **k))
    assert str(yamlsrc.load(path).data["released"]) == "2026-12-02" and parsed == [1]
