"""`pnpgen schema`: the YAML reference (a topic, or all of it as Markdown) and the JSON
Schemas editors read."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import Project
from ..errors import UsageProblem, did_you_mean
from .say import Say, talk


@click.command()
@click.argument("topic", required=False)
@click.option("--markdown", is_flag=True, help="The whole reference as Markdown (docs/reference.md).")
@click.option("--json", "as_json", is_flag=True,
              help="JSON Schemas for editors: every kind of file into schemas/ (or --out), or the TOPIC "
                   "kind (game, deck, template, board, rules) to stdout.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --json: the folder to write the schemas into (default: schemas/ in the project).")
@talk
@click.pass_obj
def schema(project: Project, topic, markdown, as_json, out, quiet, verbose):
    """Every YAML key, its type and meaning: game, deck, field, template, rect, text, rule...
    the named card and paper sizes in millimetres (sizes) and the limits every file and expression
    is held to (limits). --markdown and a --json schema on stdout are written whatever -q says."""
    from ..schema import reference
    say = Say(quiet, verbose)
    if as_json or out:
        _json_schemas(project, topic, markdown, as_json, out, say)
        return
    if markdown:
        click.echo(reference.markdown())
        return
    topics = [*reference.TOPICS, reference.VARIABLES_TOPIC, reference.sizes.TOPIC,
              reference.limits.TOPIC]
    if topic is None:
        say.out("topics: " + ", ".join(topics))
        say.detail("see one with: pnpgen schema TOPIC; all of them with: pnpgen schema --markdown")
        return
    if topic not in topics:
        raise UsageProblem(f"unknown topic '{topic}'{did_you_mean(topic, topics)}")
    say.out(reference.text(topic))


def _json_schemas(project: Project, kind, markdown, as_json, out, say: Say):
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
    written = json_schemas.write(out or project.root / json_schemas.SCHEMA_DIR, [kind] if kind else None)
    for path in written:
        say.out(f"wrote {path}")
    say.detail(f"{len(written)} schema{'s' if len(written) != 1 else ''}: point an editor's YAML support at them")
