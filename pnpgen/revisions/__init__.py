"""What changed since an earlier revision of the project, by what the cards print, and the
sheets that bring a printed deck up to date.

since opens the earlier state --since names: revision (a git revision taken out into a
temporary folder, or a folder) or built (a folder an earlier build wrote, read from its
manifests); each gives a side (side: the game's faces) -> compare (cards paired across the
two sides, compared by their drawings' digests) -> pictures (before / now / difference PNGs)
and reprint (cut-ready sheets of only what changed)."""

from __future__ import annotations

from ..build import Project, game_name, games, load
from ..errors import InputError
from .compare import KINDS, Change, DeckChanges, Drawn, GameChanges, compare_game, report
from .revision import Revision
from .since import open_revision

__all__ = ["KINDS", "Change", "DeckChanges", "Drawn", "GameChanges", "Revision", "compare", "compare_game",
           "game_changes", "open_revision", "report", "selected"]


def selected(project: Project, revision: Revision, names: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The games to compare: those named, or every game of either side (a game gone since the
    revision is listed as removed). A name neither side has is an error naming the games there are."""
    now = games(project)
    if not names:
        every = revision.only or sorted(set(now) | set(revision.games()))
        if not every:
            raise InputError.at(str(project.cards), None, "no games found, now or at the revision: "
                                "add cards/<game>/game.yaml")
        return every
    names = [game_name(project, name) for name in names]
    for name in names:
        if name not in now and name not in revision.games():
            load(project, name)    # raises: no such game (did you mean ...)
    return names


def compare(project: Project, revision: Revision, game_id: str) -> GameChanges:
    """One game of the working tree (or its absence) against the same game at `revision`."""
    return compare_game(revision, game_id, load(project, game_id) if game_id in games(project) else None)


def game_changes(project: Project, game_id: str, since: str | Revision) -> GameChanges:
    """One game's changes since `since`: a git revision, a folder (a project's, or one an
    earlier build wrote), or a Revision already open (a preview keeps one, so the earlier
    side is read once). Each Change holds its faces before and after (Drawn: the face, its
    deck's forms and images) to draw them with export.faces.write_pages or pictures.render;
    the result keeps a git revision's temporary files for as long as it is held."""
    revision = since if isinstance(since, Revision) else open_revision(project, since)
    selected(project, revision, [game_id])
    return compare(project, revision, game_id)
