"""Rules: deck-composition checks read from rules.yaml (`pnpgen check`).

The rule file and its runner; checks/ holds one module per kind of check."""
