"""`pnpgen schema`: the YAML reference (a topic, or all of it as Markdown) and the JSON
Schemas editors read."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Project
from ..errors import UsageProblem, did_you_mean


@click.command()
@click.argument("topic", required=False)
@click.option("--markdown", is_flag=True, help="The whole reference as Markdown (docs/reference.md).")
@click.option("--json", "as_json", is_flag=True,
              help="JSON Schemas for editors: every kind of file into schemas/ (or --out), or the TOPIC "
                   "kind (game, deck, template, board, rules) to stdout.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --json: the folder to write the schemas into (default: schemas/ in the project).")
@click.pass_obj
def schema(project: Project, topic, markdown, as_json, out):
    """Every YAML key, its type and meaning: game, deck, field, template, rect, text, rule...
    the named card and paper sizes in millimetres (sizes) and the limits every file and expression is
    held to (limits)."""
    from ..schema import reference
    if as_json or out:
        _json_schemas(project, topic, markdown, as_json, out)
        return
    if markdown:
        click.echo(reference.markdown())
        return
    topics = [*reference.TOPICS, reference.VARIABLES_TOPIC, reference.sizes.TOPIC,
              reference.limits.TOPIC]
    if topic is None:
        click.echo("topics: " + ", ".join(topics))
        return
    if topic not in topics:
        raise UsageProblem(f"unknown topic '{topic}'{did_you_mean(topic, topics)}")
    click.echo(reference.text(topic))


def _json_schemas(project: Project, kind, markdown, as_json, out):
    from ..schema import json_schemas
    if not as_json:
        raise click.UsageError("--out goes with --json")
    if markdown:
        raise click.UsageError("give --json or --markdown, not both")
    if kind is not None and kind not in json_schemas.KINDS:
        raise UsageProblem(f"unknown kind '{kind}'{did_you_mean(kind, json_schemas.KINDS)}")
    if kind is not None and out is None:
        click.echo(json_schemas.dumps(kind), nl=False)
        return
    for path in json_schemas.write(out or project.root / json_schemas.SCHEMA_DIR, [kind] if kind else None):
        click.echo(f"wrote {path}")
