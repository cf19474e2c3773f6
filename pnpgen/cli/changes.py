"""`pnpgen changes` and `pnpgen reprint`: what prints differently since a revision, listed
(with pictures) or written as sheets of only those cards."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..build import Options, Project
from .options import FLIP, PAPER, back_offset, load_layout
from .say import Say, talk


SINCE_HELP = ("What to compare with: a git revision of the project (a branch, a tag, a commit, HEAD~1), the "
              "folder of an earlier copy of the project (holding cards/ and templates/), or a folder an earlier "
              "`pnpgen build` wrote and you kept (out/ or out/<game>/, holding manifest.json).")


@click.command()
@click.argument("game", nargs=-1)
@click.option("--since", required=True, metavar="REF", help=SINCE_HELP)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also draw each change: <out>/<game>/<deck>/<code>-<side>-<kind>.png (before, now, difference) "
                   "and <out>/<game>/changes.json. Use a folder of its own, e.g. out/changes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for tools.")
@click.option("--dpi", type=click.FloatRange(50, 600), default=150, show_default=True, help="Picture resolution.")
@talk
@click.pass_obj
def changes(project: Project, game, since, out, fmt, dpi, quiet, verbose):
    """List the cards that print differently now than at REF, by code and title: changed,
    added, removed, more or fewer copies, renumbered (the same print under a new code), deck
    by deck, boards too. Cards are compared by what they draw, so a reworded field that
    prints the same is no change and a touched-up image is one."""
    from ..revisions import compare, open_revision, report, selected
    from ..revisions.pictures import write_pictures
    found, pictures = [], {}
    with open_revision(project, since) as revision:
        for name in selected(project, revision, game):
            result = compare(project, revision, name)
            found.append(result)
            if out is not None:
                pictures[name] = write_pictures(result, out, dpi)
        sha = revision.sha
    if fmt == "json":
        data = [r.as_dict() for r in found]
        for entry in data:
            entry["pictures"] = [str(p.path) for p in pictures.get(entry["game"], [])]
        click.echo(json.dumps({"since": since, "commit": sha, "games": data}, indent=2))
        return
    say = Say(quiet, verbose)
    say.detail(f"compared with {since}" + (f" (commit {sha})" if sha else ""))
    for result in found:
        for line in report(result):
            say.out(line)
        if out is not None:
            say.out(f"  {len(pictures[result.game])} picture{'s' if len(pictures[result.game]) != 1 else ''} "
                    f"in {out / result.game}")
            say.wrote([p.path for p in pictures[result.game]])


@click.command()
@click.argument("game", nargs=-1)
@click.option("--since", required=True, metavar="REF", help=SINCE_HELP)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project); sheets go to <out>/<game>/reprint-<deck>.pdf.")
@click.option("--paper", type=PAPER, default=None, help="Override each game's paper.")
@click.option("--flip", type=FLIP, default=None,
              help="Duplex flip edge the backs are placed for (default: the game's).")
@click.option("--back-offset", callback=back_offset, default=None, metavar="X,Y",
              help="Move every back page X mm right and Y mm up, as for `pnpgen build`.")
@click.option("--layout", default=None, metavar="NAME|FILE", help="A custom sheet layout, as for `pnpgen build`.")
@click.option("--renumbered", is_flag=True,
              help="Also reprint cards that print the same but under a new code (a card inserted before them).")
@talk
@click.pass_obj
def reprint(project: Project, game, since, out, paper, flip, back_offset, layout, renumbered, quiet, verbose):
    """Write cut-ready sheets of only the cards that print differently since REF (changed and
    added cards, every copy) to <out>/<game>/reprint-<deck>.pdf, fronts and backs registered
    like every other sheet, each slug naming the revision. Cards to take out are listed."""
    from ..revisions import compare, open_revision, selected
    from ..revisions.reprint import reprint_game
    target = out or project.root / "out"
    options = Options(out=target, paper=paper, flip=flip, back_offset=back_offset, layout=load_layout(layout))
    say = Say(quiet, verbose)
    with open_revision(project, since) as revision:
        done = [reprint_game(compare(project, revision, name), target, options, renumbered)
                for name in selected(project, revision, game)]
        say.detail(f"compared with {since}" + (f" (commit {revision.sha})" if revision.sha else ""))
    for r in done:
        if not r.decks:
            say.out(f"{r.game}: no card prints differently since {r.since}: no reprint written")
        else:
            say.out(f"{r.game}: {r.cards} card{'s' if r.cards != 1 else ''} to reprint since {r.since}")
        for d in r.decks:
            for path in d.files:
                say.out(f"  wrote {path}: {d.cards} card{'s' if d.cards != 1 else ''} of {d.name}, {d.sheets} "
                        f"sheet{'s' if d.sheets != 1 else ''} ({d.pages} pages)" if path == d.files[0]
                        else f"  wrote {path}")
        for note in r.notes:
            say.out(f"  {note}")
        for warning in (w for d in r.decks for w in d.warnings):
            say.warning(str(warning))
        for path in r.removed:
            say.out(f"  removed {path}: an earlier reprint, out of date now")
