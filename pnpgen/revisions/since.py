"""What `--since` names, opened: a folder holding an earlier copy of the project, a folder an
earlier `pnpgen build` wrote (pnpgen.revisions.built), or a git revision
(pnpgen.revisions.revision)."""

from __future__ import annotations

from pathlib import Path

from ..build import Project
from ..build.manifest import NAME as MANIFEST
from ..errors import InputError
from ..sources.confine import Refused, resolved
from .built import open_build
from .revision import HOW, OPTION, Revision, from_git, since_option


def open_revision(project: Project, since: str) -> Revision:
    """The project at `since`: an existing folder is taken as an earlier copy of the project,
    anything else as a git revision of the repository that holds the project."""
    if not since or not since.strip():
        raise InputError.at(OPTION, None, f"no revision given: {HOW}")
    if "\0" in since or len(since) > 4096:
        raise InputError.at(since_option(since[:80]), None, f"not a revision nor a folder: {HOW}")
    folder = _folder(since)
    if folder is not None and folder.name == MANIFEST and not folder.is_dir():    # one game's manifest
        folder = folder.parent
    if folder is not None and folder.is_dir():
        if (folder / "cards").is_dir():
            return Revision(since, f"folder {folder.resolve().name}", None, Project(folder))
        found = open_build(since, folder)
        if found is None:
            raise InputError.at(since_option(since), None, f"this folder holds no cards/ folder and no {MANIFEST}: give the "
                                "folder of an earlier copy of the project (the one holding cards/ and templates/), a "
                                f"folder an earlier `pnpgen build` wrote (out/ or out/<game>/, holding {MANIFEST}), "
                                "or a git revision")
        return found
    return from_git(project, since)


def _folder(since: str) -> Path | None:
    """The folder (or manifest) `since` names, links followed, or None when there is none by
    that name (it may still be a git revision). A loop of links is an error."""
    try:
        path = Path(since).expanduser()
    except RuntimeError:       # (~user of no such user)
        return None
    try:
        found = resolved(path, since)
    except Refused as exc:
        raise InputError.at(since_option(since), None, f"{exc}; {HOW}") from None
    return None if found is None else path
