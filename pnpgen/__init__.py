"""pnpgen: YAML card databases in, cut-ready print-and-play PDFs out.

The pipeline runs one way, one package per stage: sources (read YAML) -> elements (the
template vocabulary) -> game (models, loader, expand) -> layout (draw operations in mm) ->
sheets (imposition, tiling) -> pdf (reportlab) -> build (plan, decks, boards, rulebook).
Beside it: maps, rules, rulebook, export, revisions, preview, schema and cli.
"""

__version__ = "0.1.0"
