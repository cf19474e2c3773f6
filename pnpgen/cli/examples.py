"""`pnpgen examples`: the bundled games that `pnpgen new NAME --example ID` copies."""

from __future__ import annotations

import json

import click


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def examples(as_json):
    """List the example games that come with pnpgen: id, title and what each one is.
    `pnpgen new NAME --example ID` copies one into this project to build, study or change."""
    from ..schema.examples import bundled
    found = bundled()
    if as_json:
        click.echo(json.dumps([{"id": e.id, "title": e.title, "summary": e.summary} for e in found], indent=2))
        return
    width = max(len(e.id) for e in found)
    for example in found:
        click.echo(f"{example.id:<{width}}  {example.title}")
        if example.summary:
            click.echo(f"{'':<{width}}  {example.summary}")
    click.echo(f"\ncopy one into this project: pnpgen new NAME --example ID")
