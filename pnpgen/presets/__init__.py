"""Named sizes shipped as YAML, so the vocabulary is visible in the tree."""

from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).parent
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it (the sizes are read at every start: a tenth the
time of the pure-Python one), else that one."""


@lru_cache(maxsize=None)
def sizes() -> dict:
    with open(HERE / "sizes.yaml", encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=LOADER)
    return {kind: {k: tuple(float(x) for x in v) for k, v in table.items()} for kind, table in data.items()}


def card_sizes() -> dict[str, tuple[float, float]]:
    return sizes()["cards"]


def home_papers() -> dict[str, tuple[float, float]]:
    """The papers a home printer takes (letter, a4): a game's `paper:` and `--paper`."""
    return sizes()["papers"]


def posters() -> dict[str, tuple[float, float]]:
    """Poster sizes for `--poster` (tabloid, a3, a2, a1): a board whole on one page."""
    return sizes()["posters"]


def papers() -> dict[str, tuple[float, float]]:
    """Every named paper: the home papers, then the posters."""
    return {**home_papers(), **posters()}


@lru_cache(maxsize=None)
def shops() -> dict[str, dict]:
    """Print-shop upload presets (shops.yaml): name, format, dpi, bleed and safe in pixels, and
    each card product's trim in inches."""
    with open(HERE / "shops.yaml", encoding="utf-8") as fh:
        return yaml.load(fh, Loader=LOADER)


def layouts() -> dict[str, Path]:
    """Custom sheet layouts shipped as presets (presets/layouts/<name>.yaml), by name; each is
    read and checked by pnpgen.sheetlayout when `--layout NAME` picks it."""
    return {p.stem: p for p in sorted((HERE / "layouts").glob("*.yaml"))}
