"""An earlier state of the project to compare with: a git revision (its cards/ and templates/
taken out with `git archive` into a temporary folder, so the working tree and the repository
are never touched) or a folder holding an earlier copy of the project. Either way it is a
Project that pnpgen.build.load reads like the working tree. A third kind, a folder an earlier
`pnpgen build` wrote (its manifest.json files, no YAML), is read by pnpgen.revisions.built;
pnpgen.revisions.since opens whichever of the three `--since` names."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..build import Project, load
from ..errors import InputError, Problem
from ..export.faces import DeckFaces, deck_faces
from ..game.loader import GameSource, discover
from .side import Side

PARTS = ("cards", "templates")
OPTION = "pnpgen: --since"
HOW = ("give a git revision (a branch, a tag, a commit, HEAD~1), a folder holding an earlier copy of the project "
       "or a folder an earlier `pnpgen build` wrote")


@dataclass
class Revision:
    """The project as it was: `project` reads its cards/ and templates/ (None when it had no
    cards/ at all). Holds a temporary folder for a git revision until closed (or collected):
    faces loaded from it draw images from that folder."""

    ref: str                    # as the designer wrote it
    label: str                  # for people and slugs: "HEAD~1 (1a2b3c4)", "folder ../v1"
    sha: str | None             # the commit, for a git revision
    project: Project | None
    _tmp: tempfile.TemporaryDirectory | None = field(default=None, repr=False)
    _faces: dict = field(default_factory=dict, repr=False)
    _games: dict = field(default_factory=dict, repr=False)
    only: list[str] | None = None   # the games compared when none is named (a build folder of one game)

    def games(self) -> list[str]:
        return discover(self.project.cards) if self.project else []

    def side(self, game_id: str):
        """The game as it was, as pnpgen.revisions.compare reads it (a Side: its faces, bleed
        and title), or None when the revision has no such game."""
        old = self.load(game_id)
        return Side.of(old, self.faces(game_id)) if old else None

    def load(self, game_id: str) -> GameSource | None:
        """The game as it was, or None when the revision has no such game. Bad input there is
        reported at the revision's own paths (HEAD~1:cards/swarm/decks/common.yaml:12: ...)."""
        if self.project is None or not (self.project.cards / game_id / "game.yaml").is_file():
            return None
        if game_id not in self._games:
            try:
                self._games[game_id] = load(self.project, game_id)
            except InputError as exc:
                raise self._located(exc) from None
        return self._games[game_id]

    def faces(self, game_id: str) -> list[DeckFaces]:
        """Every deck's and board's faces as they were (kept: a preview asks again on every save)."""
        if game_id not in self._faces:
            game = self.load(game_id)
            try:
                self._faces[game_id] = deck_faces(game, boards=True) if game else []
            except InputError as exc:
                raise self._located(exc) from None
        return self._faces[game_id]

    def _located(self, exc: InputError) -> InputError:
        return InputError([Problem(self._shown(p.path), p.line, f"{p.message} (in {self.label}: compare with "
                                   "another revision, or fix it there)") for p in exc.problems])

    def _shown(self, path) -> str:
        """A path inside a temporary checkout as REF:cards/..., git's own way of naming it."""
        if self._tmp is None:
            return str(path)
        base = Path(self._tmp.name).resolve()
        try:
            return f"{self.ref}:{Path(path).resolve().relative_to(base).as_posix()}"
        except ValueError:
            return str(path)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "Revision":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def from_git(project: Project, ref: str) -> Revision:
    root = project.root.resolve()
    if ref.startswith("-"):
        raise InputError.at(since_option(ref), None, f"not a revision: {HOW}")
    top = _git(root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise InputError.at(since_option(ref), None, f"not a folder, and {root} is not in a git repository: "
                            f"{HOW} (or run `git init` and commit the project)")
    toplevel = Path(top.stdout.strip())
    prefix = _git(root, "rev-parse", "--show-prefix").stdout.strip()
    commit = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        raise InputError.at(since_option(ref), None, f"no such revision in the git repository {toplevel}: {HOW} "
                            "(`git log --oneline` lists commits)")
    sha = commit.stdout.strip()
    short = _git(root, "rev-parse", "--short", sha).stdout.strip() or sha[:7]
    label = short if sha.startswith(ref) else f"{ref} ({short})"
    tree = f"{sha}:{prefix}"
    listed = _git(toplevel, "ls-tree", "--name-only", tree)
    present = [p for p in PARTS if p in listed.stdout.split("\n")] if listed.returncode == 0 else []
    if "cards" not in present:     # the project had no cards yet: every card is new
        return Revision(ref, label, sha, None)
    tmp = tempfile.TemporaryDirectory(prefix="pnpgen-since-")
    try:
        archive = _git(toplevel, "archive", "--format=tar", tree, "--", *present, text=False)
        if archive.returncode != 0:
            message = archive.stderr.decode("utf-8", "replace").strip().splitlines()
            raise InputError.at(since_option(ref), None, "cannot read it out of git: "
                                f"{message[-1] if message else 'git archive failed'}")
        _extract(archive.stdout, Path(tmp.name))
    except BaseException:
        tmp.cleanup()
        raise
    return Revision(ref, label, sha, Project(Path(tmp.name)), tmp)


def _extract(data: bytes, into: Path) -> None:
    """Unpack git's tar, refusing anything that would land outside `into` (links included)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
            return
        base = into.resolve()
        members = []
        for member in tar.getmembers():     # Python without extraction filters: the same checks by hand
            target = (base / member.name).resolve()
            if (member.issym() or member.islnk() or not (member.isfile() or member.isdir())
                    or os.path.commonpath([base, target]) != str(base)):
                continue
            members.append(member)
        tar.extractall(into, members=members)


def since_option(ref: str) -> str:
    """Where an error about `ref` is located: the --since option that named it."""
    return f"{OPTION} {ref}"


def _git(cwd: Path, *args: str, text: bool = True) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=text,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"})
    except OSError as exc:
        raise InputError.at(OPTION, None, f"cannot run git ({exc.strerror or exc}): install git, or give a folder "
                            "holding an earlier copy of the project") from None
