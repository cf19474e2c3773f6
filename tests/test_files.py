"""Every output goes through pnpgen.files: written beside its target, renamed into place
whole, and a place that cannot be written is the same located error from every command."""

import pytest

from pnpgen import files
from pnpgen.errors import InputError

from .clirun import pnpgen
from .minigame import make_game

ADVICE = "choose another output folder with --out, or make this one writable"


def test_staged_files_are_renamed_together_or_not_at_all(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "sub" / "b.pdf"
    with files.Staged() as staged:
        for target in (a, b):
            with open(staged.add(target), "w") as f:
                f.write(target.name)
        parts = sorted(p.name for p in tmp_path.rglob("*.part"))
        assert len(parts) == 2 and parts[0].startswith(".a.") and parts[0].endswith(".pdf.part")
        staged.commit()
    assert a.read_text() == "a.pdf" and b.read_text() == "b.pdf"
    assert not list(tmp_path.rglob("*.part"))

    with pytest.raises(RuntimeError):
        with files.Staged() as staged:
            with open(staged.add(tmp_path / "c.pdf"), "w") as f:
                f.write("half")
            raise RuntimeError("drawing failed")
    assert not (tmp_path / "c.pdf").exists() and not list(tmp_path.rglob("*.part"))


def test_a_folder_is_replaced_whole(tmp_path):
    target = tmp_path / "png"
    target.mkdir()
    (target / "stale.png").write_text("old")
    work = files.temp_folder_beside(target)
    (work / "new.png").write_text("new")
    files.replace_folder(work, target)
    assert sorted(p.name for p in target.iterdir()) == ["new.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]


def test_an_output_under_a_file_is_refused_alike_everywhere(tmp_path):
    make_game(tmp_path, "title: Mini\ncode: MIN\n", "name: Deck\ntemplate: face\ncards:\n  - {}\n",
              {"face": "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#cccccc'}\n"})
    out = tmp_path / "out"
    out.mkdir()
    blocker = out / "mini"     # where the game's folder of output should go
    blocker.write_text("a file where a folder should be")
    outs = {
        "build": ["build", "mini", "--out", str(out)],
        "calibrate": ["calibrate", "--out", str(blocker / "calibrate.pdf")],
        "export": ["export", "png", "mini", "--out", str(out)],
    }
    for command, args in outs.items():
        result = pnpgen("--root", str(tmp_path), *args)
        assert result.returncode == 2, (command, result.stderr)
        assert "cannot write here" in result.stderr and ADVICE in result.stderr, (command, result.stderr)
        assert "Traceback" not in result.stderr
    assert blocker.read_text() == "a file where a folder should be"


def test_unwritable_names_the_path_and_the_reason(tmp_path):
    err = files.unwritable(tmp_path / "x.pdf", PermissionError(13, "Permission denied"))
    assert isinstance(err, InputError)
    assert str(err) == f"{tmp_path / 'x.pdf'}: cannot write here: Permission denied; {ADVICE}"
