"""Build: write a game's PDFs into out/<game>/.

Plans the game, draws decks, boards and the rulebook, keeps the page cache and the manifest."""

from .game import build_game, build_loaded, build_planned
from .options import Options
from .plan import COMMON_BACK_FORM, BoardPlan, DeckPlan, GamePlan, plan_game, with_game_layout
from .project import Project, game_name, games, load
from .results import BoardResult, DeckResult, Result, RulebookResult
from .rulebooks import check_rulebook

__all__ = ["COMMON_BACK_FORM", "BoardPlan", "BoardResult", "DeckPlan", "DeckResult", "GamePlan", "Options", "Project",
           "Result", "RulebookResult", "build_game", "build_loaded", "build_planned", "check_rulebook", "game_name",
           "games", "load", "plan_game", "with_game_layout"]
