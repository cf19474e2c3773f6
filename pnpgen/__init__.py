"""pnpgen: YAML card databases in, cut-ready print-and-play PDFs out.

The pipeline runs one way, one module per stage:
load (game.py) -> validate (model.py) -> expand (expand.py) -> lay out (layout.py,
elements/) -> impose (impose.py) -> render (render.py); build.py drives it and cli.py
is a thin click wrapper.
"""

__version__ = "0.1.0"
