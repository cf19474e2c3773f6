"""Rulebooks: `cards/<game>/rulebook.md` (Markdown with Jinja2 expressions over the game's
data) to `out/<game>/rulebook.pdf`, with figures drawn by the code that prints the kit.

source (front matter, expressions, line map) -> markdown (flowables) -> document (pages);
figures resolves component addresses; booklet imposes pages for saddle stitching."""

from .build import RulebookResult, check, write_rulebook

__all__ = ["RulebookResult", "check", "write_rulebook"]
