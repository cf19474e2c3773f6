"""`pnpgen build`: check each game's rules, then build its decks, boards and rulebook into PDFs."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Options, Project, build_planned, load, plan_game, with_game_layout
from ..errors import InputError, Reported, RulesBroken
from ..rules import has_rules
from .options import FLIP, PAPER, POSTER, back_offset, load_layout, selected
from .say import Say, talk


@click.command()
@click.argument("game", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project).")
@click.option("--paper", type=PAPER, default=None, help="Override each game's paper.")
@click.option("--flip", type=FLIP, default=None,
              help="Duplex flip edge the backs are placed for (default: the game's, usually long).")
@click.option("--back-offset", callback=back_offset, default=None, metavar="X,Y",
              help="Move every back page X mm right and Y mm up (as seen on the back), as read off "
                   "`pnpgen calibrate`; overrides game.yaml back_offset.")
@click.option("--no-check", is_flag=True, help="Build even when the game breaks its rules.")
@click.option("--strict", is_flag=True,
              help="Text cut short to fit its box, or a character no font has, is an error (exit 2).")
@click.option("--seed", type=click.IntRange(0, 2**31), default=None,
              help="Another seed for generated boards (the game's own seed otherwise; printed on the board).")
@click.option("--poster", type=POSTER, default=None,
              help="Boards whole on one page of this size (for a print shop), not tiled.")
@click.option("--booklet", is_flag=True,
              help="Also write rulebook-booklet.pdf: the rules imposed for folding and stapling.")
@click.option("--layout", default=None, metavar="NAME|FILE",
              help="Lay card decks of its card size out on a custom sheet layout: a preset "
                   "(business-10up-letter, poker-9up-a4) or a layout .yaml file, e.g. for die-cut card stock.")
@click.option("--pdfx", is_flag=True,
              help="Decks and boards as PDF/X-1a:2003 for a print shop: CMYK through the shipped GRACoL "
                   "press profile, output intent, TrimBox and BleedBox (every page drawn anew, no cache).")
@click.option("--flatten-ppi", type=click.FloatRange(72, 2400), default=600, show_default=True, metavar="PPI",
              help="--pdfx: a face that draws anything see-through (opacity, #rrggbbaa, soft-edged images) "
                   "is flattened to an image at this resolution (PDF/X-1a has no transparency).")
@click.option("--image-ppi", type=click.FloatRange(72, 4800), default=None, metavar="PPI",
              help="Resample art finer than 1.5 times PPI where it is printed down to PPI (default: the "
                   "game's images setting, 300 above 450).")
@click.option("--keep-images", is_flag=True, help="Put every image into the PDFs as it is, however fine.")
@click.option("--no-cache", is_flag=True,
              help="Draw every page anew and keep none (the cache in <out>/.cache copies unchanged pages).")
@click.option("--format", "fmt", type=click.Choice(["text", "github"]), default="text", show_default=True,
              help="text for people; github: warnings and errors as workflow annotations.")
@talk
@click.pass_obj
def build(project: Project, game, out, paper, flip, back_offset, no_check, strict, seed, poster, booklet, layout,
          pdfx, flatten_ppi, image_ppi, keep_images, no_cache, fmt, quiet, verbose):
    """Build every game (or the GAMEs named) into out/<game>/<deck>.pdf.

    Each game's rules (cards/<game>/rules.yaml) are checked first; a game that breaks one
    is not built (exit status 1) unless --no-check is given."""
    say = Say(quiet, verbose, fmt)
    options = Options(out=out or project.root / "out", paper=paper, flip=flip, strict=strict, seed=seed,
                      back_offset=back_offset, poster=poster, booklet=booklet, lenient_rulebook=no_check,
                      layout=load_layout(layout), cache=not no_cache, workers=None, pdfx=pdfx,
                      flatten_ppi=flatten_ppi, image_ppi=image_ppi, keep_images=keep_images,
                      progress=say.progress, step=say.step)
    failed = broken = False
    for name in selected(project, game):
        say.progress(f"building {name}", indent="")
        try:
            outcome = _build_one(project, name, options, not no_check, say)
        except InputError as exc:     # shown now, in order; the next game still builds
            say.input_error(exc, name)
            failed = True
            continue
        broken = broken or outcome == "broken"
    if pdfx and not quiet:
        click.echo("note: --pdfx: decks and boards are PDF/X-1a:2003; rulebook.pdf files are not PDF/X "
                   "(RGB, for reading and home printing)", err=True)
    if failed:
        raise Reported(InputError.exit_code)
    if broken:
        raise RulesBroken()


def summary(say: Say, game: str, results: list, outdir: Path) -> None:
    """What one game's build wrote: PDFs, sheets, warnings (and, verbose, each file)."""
    files = list(dict.fromkeys(p for r in results for p in r.files))   # (decks share files)
    warnings = sum(len(r.warnings) for r in results)
    say.wrote(files)
    sheets, saved = sum(r.sheets for r in results), sum(r.saved for r in results)
    say.out(f"{game}: {len(files)} PDF{'s' if len(files) != 1 else ''}, {sheets} sheet"
            f"{'s' if sheets != 1 else ''} of cards and tokens" + (f" ({saved} saved by sharing)" if saved else "")
            + f", {warnings} warning"
            f"{'s' if warnings != 1 else ''}, in {outdir}")


def _build_one(project: Project, name: str, options: Options, check: bool, say: Say) -> str:
    """Check one game's rules, then build it (printing violations and warnings): "built" or
    "broken" (rule errors; not built)."""
    source = load(project, name, options)
    if check and has_rules(source):
        from ..rules.ruleset import check_game     # (only now: a game without rules starts faster)
        report = check_game(source)
        for v in report.violations:
            say.problem(v.severity, v, f"{name}/{v.deck}: {v.rule}")
        if report.errors:
            say.warning(f"{name}: not built: {len(report.errors)} rule error(s); fix them or build with --no-check")
            return "broken"
    options = with_game_layout(source, options)
    plan = plan_game(source, options)        # once: the print check under --strict looks at the build's plan
    if options.strict:
        _refuse_print_findings(plan, options, say)
    results = build_planned(plan, options)
    for r in results:
        for w in r.warnings:
            say.problem("warning", w, f"{name}: build")
    if options.pdfx and not say.quiet:
        _say_flattened(plan, options, say)
    summary(say, name, results, options.out / name)
    return "built"


def _say_flattened(plan, options, say: Say) -> None:
    """--pdfx: each template whose faces the PDF/X files show flattened, at its line."""
    from ..pdf.flatten import face_notes
    for note in face_notes(plan, options.flatten_ppi):
        say.problem("warning", note, f"{plan.game.id}: PDF/X")


def _refuse_print_findings(plan, options, say: Say) -> None:
    """Under --strict, what `pnpgen check` finds in print (text too small or faint, text in the
    cut zone) stops the game's build, as text cut short does."""
    from ..build.printing import printing
    from ..printcheck import check_faces       # (only now: a plain build does not lay every face out twice)
    source = plan.game
    findings = check_faces(plan, printing(plan, options))
    if findings:
        for finding in findings:
            say.problem("error", finding, f"{source.id}/{finding.deck}: {finding.rule}")
        raise InputError.at(source.rel(source.root), None,
                            f"not built under --strict: {len(findings)} print finding(s) above; fix them "
                            "(pnpgen check lists them) or build without --strict")
