"""The engine (app/) never imports Qt: checked on the source and on a real import."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "ui")


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_no_qt_import_anywhere_in_app():
    offenders = []
    for py in sorted((ROOT / "app").rglob("*.py")):
        for name in _imports(py):
            if name.split(".")[0] in QT:
                offenders.append(f"{py.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_cli_detect_path_loads_neither_qt_nor_torch():
    code = ("import sys, app.cli, app.detect, app.system; "
            "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','shiboken6','pyqtgraph','torch')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_layering_check_catches_a_planted_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtCore import QObject\n")
    assert any(n.split(".")[0] in QT for n in _imports(bad))
