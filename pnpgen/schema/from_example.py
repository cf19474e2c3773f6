"""`pnpgen new NAME --example GAME`: a bundled game copied into the project under a new name.

The game's two folders, cards/GAME/ and templates/GAME/, become cards/NAME/ and
templates/NAME/: the loader finds a game's templates by the game's id, so both are renamed
together. The files never name their game to work, but their comments and printed texts do
(`templates/swarm/front.yaml draws...`, `pnpgen check swarm`, and the Swarm board prints `pnpgen
build swarm --seed N`): those paths and commands are renamed too, so that each tells the truth
about the copy, and nothing else is (a rulebook's prose that says "swarm" keeps it). Each folder is copied into a
temporary folder beside its target and renamed into place; a failure leaves neither."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .. import files
from ..build import Project
from .examples import check_example
from .scaffold import _check_name

TEXT_SUFFIXES = {".yaml", ".yml", ".md", ".txt"}
"""The files whose comments may name their game (images and fonts are copied as they are)."""
COMMANDS = r"(?:build|check|list|preview|changes|reprint|export(?:\s+#?\s*[a-z]+)?)"
"""The pnpgen commands a comment may show with a game's id after them."""


def renamed(text: str, old: str, new: str) -> str:
    """`text` with the game id `old` changed to `new` where it names the game's folders
    (cards/old/, templates/old/) or follows a pnpgen command (`pnpgen check old`, even when a
    comment's line break falls inside it)."""
    gap = r"\s+(?:#\s*)?"          # a space, or a comment's line break and its '#'
    end = r"(?![\w-])"
    text = re.sub(rf"\b(cards|templates)/{re.escape(old)}{end}", lambda m: f"{m[1]}/{new}", text)
    return re.sub(rf"(\bpnpgen{gap}{COMMANDS}{gap}){re.escape(old)}{end}", lambda m: m[1] + new, text)


def _rename_in(folder: Path, old: str, new: str) -> None:
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() not in TEXT_SUFFIXES or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        changed = renamed(text, old, new)
        if changed != text:
            path.write_text(changed, encoding="utf-8")


def _copy_folder(source: Path, target: Path, old: str, new: str) -> None:
    """`source` copied to `target` (which must not exist yet), its references renamed."""
    work = files.temp_folder_beside(target)
    try:
        shutil.copytree(source, work, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".*", "__pycache__", "*.py[cod]", "*.part"))
        _rename_in(work, old, new)
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise files.unwritable(target, exc) from None
    files.replace_folder(work, target)


def copy_example(project: Project, example_id: str, game_id: str) -> list[Path]:
    """Copy the bundled game `example_id` into `project` as `game_id`; return the two folders
    made. Raises UsageProblem for an unknown example, InputError for a bad or taken name or a
    folder that cannot be written (and then nothing is left behind)."""
    examples = check_example(example_id)
    _check_name(project, game_id)
    made = []
    try:
        for source_root, target_root in ((examples.cards, project.cards), (examples.templates, project.templates)):
            source = source_root / example_id
            if source.is_dir():
                _copy_folder(source, target_root / game_id, example_id, game_id)
                made.append(target_root / game_id)
    except BaseException:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return made
