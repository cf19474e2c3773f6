"""Sources: read a game folder into validated models.

Safe YAML with line numbers, one model per file kind, the loader, and the expansion of card
entries into the physical cards to print (copies, codes, backs)."""
