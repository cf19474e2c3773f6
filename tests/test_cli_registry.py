"""The vocabularies are registered once and the command line reads them: file kinds (schema
topics, JSON Schemas, the reference), rule checks (found by file), export formats, paper
names; and every error's exit status reaches the process through the one handler."""

import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pnpgen import presets
from pnpgen.cli import main
from pnpgen.cli.main import PnpgenGroup
from pnpgen.errors import InputError, PnpgenError, Problem, Reported, RulesBroken, UsageProblem
from pnpgen.export.formats import FORMATS
from pnpgen.game import models
from pnpgen.rules import checks, ruleset
from pnpgen.schema import json_schemas, kinds, reference

ROOT = Path(__file__).resolve().parent.parent


def test_schema_board_prints_the_board_keys():
    result = CliRunner().invoke(main, ["schema", "board"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("board: cards/<game>/boards/<board>.yaml")
    for key in models.Board.model_fields:
        assert f"\n  {key}: " in result.output, key


def test_the_reference_has_a_board_section():
    assert "\n## board\n" in reference.markdown()
    assert "\n## board\n" in (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")


def test_every_file_kind_is_a_topic_and_every_editable_one_a_json_schema():
    assert set(json_schemas.KINDS) == set(kinds.EDITABLE) >= {"game", "deck", "template", "board", "rules"}
    assert set(reference.TOPICS) == set(kinds.TOPICS)
    for kind in kinds.FILE_KINDS:
        assert kind.name in reference.TOPICS


def test_every_check_module_is_a_rule_key_and_every_rule_key_a_check():
    modules = {p.stem for p in (Path(checks.__file__).parent).glob("*.py")} - {"__init__", "base"}
    assert set(checks.CHECKS) == modules
    common = {"id", "text", "deck", "where", "severity", "variants"}
    companions = {k for m in checks.CHECKS.values() for k in getattr(m, "COMPANIONS", {})}
    assert set(ruleset.Rule.model_fields) == common | modules | companions


def test_a_check_module_dropped_into_a_copy_is_found(tmp_path):
    copy = tmp_path / "pnpgen"
    shutil.copytree(Path(checks.__file__).parent.parent.parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__", "fonts", "static"))
    (copy / "rules" / "checks" / "odd.py").write_text(
        '"""`odd`: a test check."""\n\nORDER = 1000\nDOC = """Every count is odd."""\nSpec = bool\n\n\n'
        "def validate(ctx, spec):\n    pass\n\n\ndef evaluate(ctx, spec, group):\n    return []\n",
        encoding="utf-8")
    code = ("from pnpgen.rules import ruleset\n"
            "r = ruleset.Rule.model_validate({'id': 'x', 'odd': True})\n"
            "print(r.check, list(ruleset.Rule.model_fields)[-1])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["odd", "odd"]


def test_every_registered_export_is_a_cli_choice():
    choice = next(p for p in main.get_command(None, "export").params if p.name == "fmt").type
    assert list(choice.choices) == list(FORMATS)
    assert set(presets.shops()) < set(FORMATS)


def test_paper_choices_are_the_presets_papers():
    build = {p.name: p.type for p in main.get_command(None, "build").params}
    assert list(build["paper"].choices) == list(presets.home_papers())
    assert list(build["poster"].choices) == list(presets.posters())
    calibrate = {p.name: p.type for p in main.get_command(None, "calibrate").params}
    assert list(calibrate["paper"].choices) == list(presets.home_papers())
    assert models.Game.model_json_schema()["properties"]["paper"]["enum"] == list(presets.home_papers())


@pytest.mark.parametrize("error, code, stderr", [
    (InputError(Problem("cards/x/game.yaml", 3, "bad")), 2, "cards/x/game.yaml:3: bad\n"),
    (RulesBroken(), 1, ""),
    (UsageProblem("unknown topic 'x'"), 2, "unknown topic 'x'\n"),
    (Reported(2), 2, ""),
    (PnpgenError("it failed"), 1, "it failed\n"),
])
def test_each_error_reaches_the_exit_status_through_the_one_handler(error, code, stderr):
    @click.group(cls=PnpgenGroup)
    def group():
        pass

    @group.command()
    def fail():
        raise error

    result = CliRunner().invoke(group, ["fail"])
    assert result.exit_code == code == error.exit_code
    assert result.stderr == stderr
    assert result.stdout == ""


def test_the_pnpgen_group_uses_the_handler():
    assert isinstance(main, PnpgenGroup)
    result = CliRunner().invoke(main, ["schema", "nosuch"])
    assert result.exit_code == 2 and result.stderr.startswith("unknown topic 'nosuch'")
