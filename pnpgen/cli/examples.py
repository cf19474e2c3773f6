"""`pnpgen examples`: the bundled games that `pnpgen new NAME --example ID` copies."""

from __future__ import annotations

import json

import click

from .say import Say, talk


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@talk
def examples(as_json, quiet, verbose):
    """List the example games that come with pnpgen: id, title and what each one is.
    `pnpgen new NAME --example ID` copies one into this project to build, study or change."""
    from ..schema.examples import bundled
    found = bundled()
    if as_json:
        click.echo(json.dumps([{"id": e.id, "title": e.title, "summary": e.summary} for e in found], indent=2))
        return
    say = Say(quiet, verbose)
    width = max(len(e.id) for e in found)
    for example in found:
        say.out(f"{example.id:<{width}}  {example.title}")
        if example.summary:
            say.out(f"{'':<{width}}  {example.summary}")
        say.detail(f"{'':<{width}}  {_size(example.id)}")
    say.out("\ncopy one into this project: pnpgen new NAME --example ID")


def _size(example_id: str) -> str:
    """What copying an example brings: its files, in cards/ and templates/."""
    from ..schema.examples import examples_project
    project = examples_project()
    count = sum(1 for root in (project.cards, project.templates) for p in (root / example_id).rglob("*") if p.is_file())
    return f"{count} files to copy"
