"""The shape of the code: the pipeline's packages import one way and no package's modules
import each other in a cycle (.importlinter holds both contracts)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    proc = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_no_function_in_pnpgen_is_longer_than_sixty_lines():
    import ast

    long = []
    for path in sorted((ROOT / "pnpgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > 60:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert (ROOT / "pnpgen" / "build" / "decks.py").is_file()     # (the scan reads the real tree)
    assert long == []


def test_every_package_says_its_job_and_the_top_level_stays_small():
    packages = [p.parent for p in (ROOT / "pnpgen").glob("*/__init__.py")]
    assert len(packages) >= 10
    for package in packages:
        doc = ast_doc(package / "__init__.py")
        assert doc and len(doc.split("\n\n")[0].splitlines()) <= 2, package.name
    modules = sorted(p.name for p in (ROOT / "pnpgen").glob("*.py"))
    assert len(modules) <= 8, modules


def ast_doc(path: Path) -> str | None:
    import ast
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))


def test_every_dataclass_says_what_it_holds():
    """A dataclass without a docstring is also slow to define: Python then writes one from
    `inspect.signature`, which costs start-up time on every command."""
    import ast

    bare = []
    for path in sorted((ROOT / "pnpgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                if ast.get_docstring(node) is None:
                    bare.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert (ROOT / "pnpgen" / "ops.py").is_file()
    assert bare == []
