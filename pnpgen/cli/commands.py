"""The `pnpgen` command: thin click wrappers over pnpgen.build."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import __version__
from ..build import Options, Project, build_loaded, check_rulebook, games, load
from ..errors import InputError
from ..game.expand import assign_numbers, expand
from ..rules.ruleset import Violation, check_game


def _fail(exc: InputError):
    for problem in exc.problems:
        click.echo(str(problem), err=True)
    sys.exit(2)


def _selected(project: Project, names: tuple[str, ...]) -> list[str]:
    available = games(project)
    if not names:
        if not available:
            _fail(InputError.at(str(project.cards), None, "no games found: add cards/<game>/game.yaml"))
        return available
    return list(names)


@click.group()
@click.version_option(__version__, prog_name="pnpgen")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Project folder holding cards/ and templates/.")
@click.pass_context
def main(ctx, root):
    """Turn YAML card databases into cut-ready print-and-play PDFs."""
    ctx.obj = Project(root)


def _back_offset(ctx, param, value):
    """--back-offset X,Y -> (x, y) mm, or a usage error (exit 2) saying what is wrong."""
    if value is None:
        return None
    from ..build.calibrate import parse_offset
    try:
        return parse_offset(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@main.command()
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project).")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None, help="Override each game's paper.")
@click.option("--flip", type=click.Choice(["long", "short"]), default=None,
              help="Duplex flip edge the backs are placed for (default: the game's, usually long).")
@click.option("--back-offset", callback=_back_offset, default=None, metavar="X,Y",
              help="Move every back page X mm right and Y mm up (as seen on the back), as read off "
                   "`pnpgen calibrate`; overrides game.yaml back_offset.")
@click.option("--no-check", is_flag=True, help="Build even when the game breaks its rules.")
@click.option("--strict", is_flag=True,
              help="Text cut short to fit its box, or a character no font has, is an error (exit 2).")
@click.option("--seed", type=click.IntRange(0, 2**31), default=None,
              help="Another seed for generated boards (the game's own seed otherwise; printed on the board).")
@click.option("--poster", type=click.Choice(["tabloid", "a3", "a2", "a1"]), default=None,
              help="Boards whole on one page of this size (for a print shop), not tiled.")
@click.option("--booklet", is_flag=True,
              help="Also write rulebook-booklet.pdf: the rules imposed for folding and stapling.")
@click.option("--layout", default=None, metavar="NAME|FILE",
              help="Lay card decks of its card size out on a custom sheet layout: a preset "
                   "(business-10up-letter, poker-9up-a4) or a layout .yaml file, e.g. for die-cut card stock.")
@click.option("--no-cache", is_flag=True,
              help="Draw every page anew and keep none (the cache in <out>/.cache copies unchanged pages).")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines (errors and warnings still go to stderr).")
@click.pass_obj
def build(project: Project, game, out, paper, flip, back_offset, no_check, strict, seed, poster, booklet, layout,
          no_cache, quiet):
    """Build every game (or the GAMEs named) into out/<game>/<deck>.pdf.

    Each game's rules (cards/<game>/rules.yaml) are checked first; a game that breaks one
    is not built (exit status 1) unless --no-check is given."""
    talk = not quiet and sys.stderr.isatty()
    if layout is not None:
        from ..sheets.custom_layout import load as load_layout
        try:
            layout = load_layout(layout)
        except InputError as exc:
            _fail(exc)
    options = Options(out=out or project.root / "out", paper=paper, flip=flip, strict=strict, seed=seed,
                      back_offset=back_offset, poster=poster, booklet=booklet, lenient_rulebook=no_check, layout=layout,
                      cache=not no_cache, progress=(lambda m: click.echo(f"  {m}", err=True)) if talk else (lambda m: None))
    failed = broken = False
    for name in _selected(project, game):
        if talk:
            click.echo(f"building {name}", err=True)
        try:
            source = load(project, name)
            if not no_check:
                report = check_game(source)
                for v in report.violations:
                    click.echo(str(v), err=True)
                if report.errors:
                    click.echo(f"{name}: not built: {len(report.errors)} rule error(s); fix them or "
                               "build with --no-check", err=True)
                    broken = True
                    continue
            results = build_loaded(source, options)
        except InputError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            failed = True
            continue
        for r in results:
            for w in r.warnings:
                click.echo(str(w), err=True)
    if failed:
        sys.exit(2)
    if broken:
        sys.exit(1)


@main.command()
@click.argument("game", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              show_default=True, help="text for people, json for tools, github for workflow annotations.")
@click.option("--strict", is_flag=True, help="Warnings fail the check too.")
@click.pass_obj
def check(project: Project, game, fmt, strict):
    """Check every game's (or the GAMEs') deck-composition rules.

    Exit status: 0 clean (or warnings only), 1 rule errors (or warnings with --strict),
    2 invalid input."""
    reports = []
    try:
        for name in _selected(project, game):
            source = load(project, name)
            report = check_game(source)
            report.violations += _rulebook_violations(source)
            reports.append(report)
    except InputError as exc:
        # once: as annotations or JSON for a machine, else as text for a person
        if fmt == "github":
            for p in exc.problems:
                click.echo(_annotation("error", str(p.path), p.line, "invalid input", p.message))
            sys.exit(2)
        if fmt == "json":
            click.echo(json.dumps({"input_errors": [{"file": str(p.path), "line": p.line, "message": p.message}
                                                    for p in exc.problems]}, indent=2))
            sys.exit(2)
        _fail(exc)
    violations = [v for r in reports for v in r.violations]
    errors = sum(len(r.errors) for r in reports)
    warnings = sum(len(r.warnings) for r in reports)
    rules = sum(r.rules for r in reports)
    summary = (f"checked {len(reports)} game{'s' if len(reports) != 1 else ''}, {rules} rules: "
               f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}")
    if fmt == "json":
        click.echo(json.dumps({"games": [{"game": r.game, "rules": r.rules, "errors": len(r.errors),
                                          "warnings": len(r.warnings)} for r in reports],
                               "violations": [v.as_dict() for v in violations],
                               "errors": errors, "warnings": warnings}, indent=2))
    else:
        for v in violations:
            if fmt == "github":
                click.echo(_annotation(v.severity, v.path, v.line, f"{v.game}/{v.deck}: {v.rule}", v.message))
            else:
                click.echo(str(v))
        click.echo(summary)
    sys.exit(1 if errors or (strict and warnings) else 0)


def _rulebook_violations(source) -> list[Violation]:
    """A rulebook that names a card, deck or board the game lacks disagrees with the data:
    a rule error like any other, at its line (other bad input still stops the check)."""
    try:
        check_rulebook(source)
    except InputError as exc:
        mine = [p for p in exc.problems if str(p.path).endswith("rulebook.md")]
        if len(mine) != len(exc.problems):
            raise
        return [Violation(source.id, "rulebook", "rulebook", "error", p.message, str(p.path), p.line)
                for p in mine]
    return []


def _annotation(level: str, path: str, line, title: str, message: str) -> str:
    """A GitHub Actions workflow command: ::error file=...,line=...,title=...::message"""
    def prop(value):
        return str(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A") \
            .replace(":", "%3A").replace(",", "%2C")
    data = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    where = f"file={prop(path)}" + (f",line={line}" if line else "")
    return f"::{level} {where},title={prop(title)}::{data}"


@main.command()
@click.argument("topic", required=False)
@click.option("--markdown", is_flag=True, help="The whole reference as Markdown (docs/reference.md).")
@click.option("--json", "as_json", is_flag=True,
              help="JSON Schemas for editors: every kind of file into schemas/ (or --out), or the TOPIC "
                   "kind (game, deck, template, board, rules) to stdout.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --json: the folder to write the schemas into (default: schemas/ in the project).")
@click.pass_obj
def schema(project: Project, topic, markdown, as_json, out):
    """Every YAML key, its type and meaning: game, deck, field, template, rect, text, rule..."""
    from ..schema import reference
    if as_json or out:
        _json_schemas(project, topic, markdown, as_json, out)
        return
    if markdown:
        click.echo(reference.markdown())
        return
    topics = [*reference.TOPICS, reference.VARIABLES_TOPIC]
    if topic is None:
        click.echo("topics: " + ", ".join(topics))
        return
    if topic not in topics:
        from ..errors import did_you_mean
        click.echo(f"unknown topic '{topic}'{did_you_mean(topic, topics)}", err=True)
        sys.exit(2)
    click.echo(reference.text(topic))


def _json_schemas(project: Project, kind, markdown, as_json, out):
    from ..schema import json_schemas
    from ..errors import did_you_mean
    if not as_json:
        raise click.UsageError("--out goes with --json")
    if markdown:
        raise click.UsageError("give --json or --markdown, not both")
    if kind is not None and kind not in json_schemas.KINDS:
        click.echo(f"unknown kind '{kind}'{did_you_mean(kind, json_schemas.KINDS)}", err=True)
        sys.exit(2)
    if kind is not None and out is None:
        click.echo(json_schemas.dumps(kind), nl=False)
        return
    for path in json_schemas.write(out or project.root / json_schemas.SCHEMA_DIR, [kind] if kind else None):
        click.echo(f"wrote {path}")


@main.command()
@click.argument("game")
@click.option("--title", default=None, help="The game's name (default: from GAME; my-game gives My Game).")
@click.option("--code", default=None, help="Card-code prefix, 2 to 6 capitals (default: from GAME).")
@click.pass_obj
def new(project: Project, game, title, code):
    """Start a game that builds as it stands: cards/GAME/ (game, a deck, rules) and
    templates/GAME/ (front, back). Its YAML files point an editor at schemas/ (written
    too) for key completion and checking. Refuses a name that is taken."""
    from ..schema.scaffold import new_game
    try:
        written = new_game(project, game, title, code)
    except InputError as exc:
        _fail(exc)
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"next: pnpgen build {game}")


@main.command(name="list")
@click.argument("game", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def list_(project: Project, game, as_json):
    """List games, their decks and card counts."""
    data = []
    try:
        for name in _selected(project, game):
            src = load(project, name)
            numbers = assign_numbers(src)
            decks = []
            for deck in src.decks:
                cards = expand(src, deck, numbers)
                own = any(c.back for c in deck.cards)
                back = deck.deck.back
                decks.append({"id": deck.id, "name": deck.deck.name, "cards": len(cards),
                              "distinct": len(deck.cards), "size_mm": list(deck.size), "packed": deck.deck.pack,
                              "back": ("per card" if back.per_card else "common" + (" and per card" if own else ""))
                              if back else ("per card" if own else None)})
            boards = [{"id": b.id, "name": b.board.name, "size_mm": list(b.board.size),
                       "sides": 2 if b.board.back else 1, "generated": b.board.hexmap is not None}
                      for b in src.boards]
            data.append({"id": name, "title": src.game.title, "code": src.game.code,
                         "cards": sum(d["cards"] for d in decks), "credits": src.game.credits, "decks": decks,
                         "boards": boards})
    except InputError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for g in data:
        click.echo(f"{g['id']}: {g['title']} ({g['code']}), {g['cards']} cards")
        if g["credits"]:
            click.echo(f"  {g['credits']}")
        for d in g["decks"]:
            w, h = d["size_mm"]
            size = "packed, each at its template's size" if d["packed"] else f"{w:g} x {h:g} mm"
            click.echo(f"  {d['id']}: {d['name']}, {d['cards']} cards ({d['distinct']} distinct), "
                       f"{size}, back: {d['back'] or 'none'}")
        for b in g["boards"]:
            w, h = b["size_mm"]
            click.echo(f"  {b['id']}: {b['name']}, board {w:g} x {h:g} mm, {b['sides']} side{'s' if b['sides'] > 1 else ''}"
                       + (", generated from a seed" if b["generated"] else ""))


@main.command()
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True,
              help="Paper the sheet is printed on.")
@click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Duplex flip edge: the one you print cards with.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PDF to write (default: out/calibrate.pdf in the project).")
@click.pass_obj
def calibrate(project: Project, paper, flip, out):
    """Write a duplex calibration sheet: print it duplex, read X and Y off it against a
    window, then build with --back-offset X,Y (or back_offset: [X, Y] in game.yaml)."""
    from ..build.calibrate import write
    target = out or project.root / "out" / "calibrate.pdf"
    try:
        write(target, paper, flip)
    except InputError as exc:
        _fail(exc)
    click.echo(f"wrote {target}: print it duplex ({flip}-edge flip) at 100 %, read X and Y against a window, "
               "then build with --back-offset X,Y")


@main.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(["png", "tgc", "mpc", "dtc", "tts"]))
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project); files go to <out>/<game>/<FORMAT>/.")
@click.option("--dpi", type=click.FloatRange(50, 1200), default=300, show_default=True, help="PNG resolution.")
@click.option("--no-bleed", is_flag=True, help="PNG faces cut at the trim (default: with the game's bleed).")
@click.option("--url-base", default=None,
              help="TTS: where the sheet images will be hosted (default: file URLs of the exported files).")
@click.pass_obj
def export(project: Project, fmt, game, out, dpi, no_bleed, url_base):
    """Export card faces: png (one file a face, named by code), tgc / mpc (The Game Crafter,
    MakePlayingCards uploads at their exact pixel sizes), dtc (DriveThruCards PDF, a card a
    page) or tts (Tabletop Simulator sheets and a saved-object JSON)."""
    from ..export import export_game
    failed = False
    for name in _selected(project, game):
        try:
            result = export_game(load(project, name), fmt, out or project.root / "out", dpi, not no_bleed, url_base)
        except InputError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            failed = True
            continue
        click.echo(f"{name}: {result.files} files in {result.folder}")
        for note in result.notes:
            click.echo(f"  {note}", err=note.startswith("warning"))
    if failed:
        sys.exit(2)


@main.command()
@click.argument("game", nargs=-1)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 to serve the page on (0 picks a free one).")
@click.option("--since", default=None, metavar="REF",
              help="Also list what prints differently than at REF, with a picture of each change (before / now / "
                   "difference): REF is a git revision (a branch, a tag, a commit, HEAD~1) or a folder, as for "
                   "`pnpgen changes --since`.")
@click.pass_obj
def preview(project: Project, game, port, since):
    """Serve a live page of every card face of every game (or the GAMEs named) on
    127.0.0.1, redrawn as you save: fronts and backs with codes, titles and the file:line
    they come from, rule findings and layout warnings on their cards, bad input shown
    over the last good faces. With --since REF, what changed since REF too. Ctrl-C stops it."""
    from ..preview import serve
    try:
        serve(project, game, port, since)
    except InputError as exc:
        _fail(exc)


SINCE_HELP = ("What to compare with: a git revision of the project (a branch, a tag, a commit, HEAD~1), the "
              "folder of an earlier copy of the project (holding cards/ and templates/), or a folder an earlier "
              "`pnpgen build` wrote and you kept (out/ or out/<game>/, holding manifest.json).")


@main.command()
@click.argument("game", nargs=-1)
@click.option("--since", required=True, metavar="REF", help=SINCE_HELP)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also draw each change: <out>/<game>/<deck>/<code>-<side>-<kind>.png (before, now, difference) "
                   "and <out>/<game>/changes.json. Use a folder of its own, e.g. out/changes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for tools.")
@click.option("--dpi", type=click.FloatRange(50, 600), default=150, show_default=True, help="Picture resolution.")
@click.pass_obj
def changes(project: Project, game, since, out, fmt, dpi):
    """List the cards that print differently now than at REF, by code and title: changed,
    added, removed, more or fewer copies, renumbered (the same print under a new code), deck
    by deck, boards too. Cards are compared by what they draw, so a reworded field that
    prints the same is no change and a touched-up image is one."""
    from ..revisions import compare, open_revision, report, selected
    from ..revisions.pictures import write_pictures
    found, pictures = [], {}
    try:
        with open_revision(project, since) as revision:
            for name in selected(project, revision, game):
                result = compare(project, revision, name)
                found.append(result)
                if out is not None:
                    pictures[name] = write_pictures(result, out, dpi)
            sha = revision.sha
    except InputError as exc:
        _fail(exc)
    if fmt == "json":
        data = [r.as_dict() for r in found]
        for entry in data:
            entry["pictures"] = [str(p.path) for p in pictures.get(entry["game"], [])]
        click.echo(json.dumps({"since": since, "commit": sha, "games": data}, indent=2))
        return
    for result in found:
        for line in report(result):
            click.echo(line)
        if out is not None:
            click.echo(f"  {len(pictures[result.game])} picture{'s' if len(pictures[result.game]) != 1 else ''} "
                       f"in {out / result.game}")


@main.command()
@click.argument("game", nargs=-1)
@click.option("--since", required=True, metavar="REF", help=SINCE_HELP)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project); sheets go to <out>/<game>/reprint-<deck>.pdf.")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None, help="Override each game's paper.")
@click.option("--flip", type=click.Choice(["long", "short"]), default=None,
              help="Duplex flip edge the backs are placed for (default: the game's).")
@click.option("--back-offset", callback=_back_offset, default=None, metavar="X,Y",
              help="Move every back page X mm right and Y mm up, as for `pnpgen build`.")
@click.option("--layout", default=None, metavar="NAME|FILE", help="A custom sheet layout, as for `pnpgen build`.")
@click.option("--renumbered", is_flag=True,
              help="Also reprint cards that print the same but under a new code (a card inserted before them).")
@click.pass_obj
def reprint(project: Project, game, since, out, paper, flip, back_offset, layout, renumbered):
    """Write cut-ready sheets of only the cards that print differently since REF (changed and
    added cards, every copy) to <out>/<game>/reprint-<deck>.pdf, fronts and backs registered
    like every other sheet, each slug naming the revision. Cards to take out are listed."""
    from ..revisions import compare, open_revision, selected
    from ..revisions.reprint import reprint_game
    target = out or project.root / "out"
    try:
        if layout is not None:
            from ..sheets.custom_layout import load as load_layout
            layout = load_layout(layout)
        options = Options(out=target, paper=paper, flip=flip, back_offset=back_offset, layout=layout)
        with open_revision(project, since) as revision:
            done = [reprint_game(compare(project, revision, name), target, options, renumbered)
                    for name in selected(project, revision, game)]
    except InputError as exc:
        _fail(exc)
    for r in done:
        if not r.decks:
            click.echo(f"{r.game}: no card prints differently since {r.since}: no reprint written")
        else:
            click.echo(f"{r.game}: {r.cards} card{'s' if r.cards != 1 else ''} to reprint since {r.since}")
        for d in r.decks:
            for path in d.files:
                click.echo(f"  wrote {path}: {d.cards} card{'s' if d.cards != 1 else ''} of {d.name}, {d.sheets} "
                           f"sheet{'s' if d.sheets != 1 else ''} ({d.pages} pages)" if path == d.files[0]
                           else f"  wrote {path}")
        for note in r.notes:
            click.echo(f"  {note}")
        for warning in (w for d in r.decks for w in d.warnings):
            click.echo(str(warning), err=True)
        for path in r.removed:
            click.echo(f"  removed {path}: an earlier reprint, out of date now")


if __name__ == "__main__":  # pragma: no cover
    main()
