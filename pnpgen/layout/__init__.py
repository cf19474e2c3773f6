"""Layout: turn a template and a card into positioned draw operations, in card millimetres.

The layouter, the context elements draw in, the game's resolved resources, template lint and face fingerprints."""
