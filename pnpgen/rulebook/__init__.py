"""Rulebooks: `cards/<game>/rulebook.md` (Markdown with Jinja2 expressions over the game's
data) to `out/<game>/rulebook.pdf`, with figures drawn by the code that prints the kit.

source (front matter, expressions, line map) -> markdown (flowables) -> document (pages);
figures resolves component addresses; booklet imposes pages for saddle stitching.

Nothing is imported here: `pnpgen.rulebook.source` (the front matter model) is read by the
schema reference at start-up, and the layout machinery loads only for a game with a rulebook."""

FILE = "rulebook.md"
"""A game's rulebook source, in its folder (here, so that asking whether a game has one
loads none of the rulebook's code)."""
