"""`pnpgen check`: each game's deck-composition rules and print checks, as text, JSON or GitHub
annotations."""

from __future__ import annotations

import json

import click

from ..build import Project, check_rulebook, load, plan_game
from ..build.printing import printing
from ..errors import InputError, Reported, RulesBroken
from ..printcheck import Finding, check_faces
from ..rules.ruleset import Report, Violation, check_game
from .options import annotation, selected
from .say import Say, talk


@click.command()
@click.argument("game", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              show_default=True, help="text for people, json for tools, github for workflow annotations.")
@click.option("--strict", is_flag=True, help="Warnings fail the check too.")
@talk
@click.pass_obj
def check(project: Project, game, fmt, strict, quiet, verbose):
    """Check every game's (or the GAMEs') deck-composition rules, and how its faces will read
    in print (text size, contrast, text in the cut zone or the printer's margin, colour as the only
    cue, full-bleed art that nearly fits, board seams through text; limits in game.yaml `print:`).

    Exit status: 0 clean (or warnings only), 1 rule errors (or warnings with --strict),
    2 invalid input. With -q, text output is only the errors (and, with --strict, the warnings)."""
    say = Say(quiet, verbose, fmt)
    try:
        reports = [_report(project, name) for name in selected(project, game)]
    except InputError as exc:
        if fmt == "text":
            raise
        _show_input_error(exc, fmt)   # once: as annotations or JSON for a machine
        raise Reported(exc.exit_code) from None
    errors = sum(len(r.errors) + _count(r.prints, "error") for r in reports)
    warnings = sum(len(r.warnings) + _count(r.prints, "warning") for r in reports)
    if fmt == "json":
        click.echo(json.dumps({"games": [{"game": r.game, "rules": r.rules,
                                          "errors": len(r.errors) + _count(r.prints, "error"),
                                          "warnings": len(r.warnings) + _count(r.prints, "warning"),
                                          "print": len(r.prints)} for r in reports],
                               "violations": [v.as_dict() for r in reports for v in r.violations],
                               "print": [f.as_dict() for r in reports for f in r.prints],
                               "errors": errors, "warnings": warnings}, indent=2))
    else:
        _show_text(reports, say, strict, errors, warnings)
    if errors or (strict and warnings):
        raise RulesBroken()


class GameReport(Report):
    """A game's rule report and its print findings."""

    def __init__(self, report: Report, prints: list[Finding]):
        super().__init__(report.game, report.rules, report.violations)
        self.prints = prints


def _report(project: Project, name: str) -> GameReport:
    source = load(project, name)
    report = check_game(source)
    plan = plan_game(source)     # (once: the rulebook's figures and the print checks draw with it)
    report.violations += _rulebook_violations(source, plan)
    return GameReport(report, check_faces(plan, printing(plan)))


def _count(findings: list[Finding], severity: str) -> int:
    return sum(1 for f in findings if f.severity == severity)


def _show_input_error(exc: InputError, fmt: str) -> None:
    if fmt == "github":
        for p in exc.problems:
            click.echo(annotation("error", str(p.path), p.line, "invalid input", p.message))
    else:
        click.echo(json.dumps({"input_errors": [{"file": str(p.path), "line": p.line, "message": p.message}
                                                for p in exc.problems]}, indent=2))


def _show_text(reports: list[GameReport], say: Say, strict: bool, errors: int, warnings: int) -> None:
    """Each violation, then each print finding (a line of text, or a GitHub annotation; when
    quiet, only those that fail the check), then the summary line (verbose: a line a game)."""
    for v in [v for r in reports for v in r.violations] + [f for r in reports for f in r.prints]:
        if not say.quiet or v.severity == "error" or strict:
            if say.fmt == "github":
                click.echo(annotation(v.severity, v.path, v.line, f"{v.game}/{v.deck}: {v.rule}", v.message))
            else:
                click.echo(str(v))
    for r in reports:
        say.detail(f"{r.game}: {r.rules} rule{'s' if r.rules != 1 else ''}, {len(r.violations)} finding"
                   f"{'s' if len(r.violations) != 1 else ''} on them, {len(r.prints)} in print")
    rules = sum(r.rules for r in reports)
    say.out(f"checked {len(reports)} game{'s' if len(reports) != 1 else ''}, {rules} rules: "
            f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}")


def _rulebook_violations(source, plan) -> list[Violation]:
    """A rulebook that names a card, deck or board the game lacks disagrees with the data:
    a rule error like any other, at its line (other bad input still stops the check)."""
    try:
        check_rulebook(source, plan)
    except InputError as exc:
        mine = [p for p in exc.problems if str(p.path).endswith("rulebook.md")]
        if len(mine) != len(exc.problems):
            raise
        return [Violation(source.id, "rulebook", "rulebook", "error", p.message, str(p.path), p.line)
                for p in mine]
    return []

