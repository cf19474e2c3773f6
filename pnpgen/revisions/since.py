"""What `--since` names, opened: a folder holding an earlier copy of the project, a folder an
earlier `pnpgen build` wrote (pnpgen.revisions.built), or a git revision
(pnpgen.revisions.revision)."""

from __future__ import annotations

from pathlib import Path

from ..build import Project
from ..build.manifest import NAME as MANIFEST
from ..errors import InputError
from .built import open_build
from .revision import HOW, OPTION, Revision, from_git, since_option


def open_revision(project: Project, since: str) -> Revision:
    """The project at `since`: an existing folder is taken as an earlier copy of the project,
    anything else as a git revision of the repository that holds the project."""
    if not since or not since.strip():
        raise InputError.at(OPTION, None, f"no revision given: {HOW}")
    folder = Path(since).expanduser()
    if folder.is_file() and folder.name == MANIFEST:     # one game's manifest: its build folder
        folder = folder.parent
    if folder.is_dir():
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
