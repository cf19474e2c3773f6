"""Write a small game folder for tests that need their own data."""

from __future__ import annotations

from pathlib import Path


def make_game(root: Path, game: str, deck: str, templates: dict[str, str], rules: str | None = None,
              game_id: str = "mini", deck_id: str = "deck") -> Path:
    folder = root / "cards" / game_id
    (folder / "decks").mkdir(parents=True, exist_ok=True)
    (root / "templates" / game_id).mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(game)
    (folder / "decks" / f"{deck_id}.yaml").write_text(deck)
    for name, text in templates.items():
        (root / "templates" / game_id / f"{name}.yaml").write_text(text)
    if rules is not None:
        (folder / "rules.yaml").write_text(rules)
    return folder
