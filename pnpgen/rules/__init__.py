"""Rules: deck-composition checks read from rules.yaml (`pnpgen check`).

The rule file and its runner; checks/ holds one module per kind of check."""

RULES_FILE = "rules.yaml"
"""The rule file, in the game folder."""


def has_rules(game) -> bool:
    """Whether the game has a rule file (asked without loading the checks)."""
    return (game.root / RULES_FILE).is_file()
