"""The game: one model per file kind of a game folder, and the loader that reads it.

Validated game, decks, templates and boards, and their cards expanded into the physical cards
to print (copies, codes, backs)."""
