"""rootboot: under sudo, root runs only its own checked copy of the helper's files, on the system's
Python. The copy is made with O_CREAT|O_EXCL|O_NOFOLLOW into a fresh root-only folder and checked
after the copy, so a file swapped or changed at any moment (before, during, after) is never run."""
from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.run import rootboot
from app.run.rootboot import BootError, copy_checked, manifest

ROOT = Path(__file__).resolve().parents[2]


def _tree(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    src = tmp_path / "src"
    (src / "app" / "run").mkdir(parents=True)
    (src / "app" / "__init__.py").write_text("")
    (src / "app" / "run" / "__init__.py").write_text("")
    (src / "app" / "run" / "privileged.py").write_text("X = 1\n")
    (src / "app" / "run" / "__pycache__").mkdir()
    (src / "app" / "run" / "__pycache__" / "junk.py").write_text("never copied")
    return src, manifest(str(src))


def test_manifest_lists_every_source_file_and_nothing_else(tmp_path):
    src, files = _tree(tmp_path)
    assert sorted(files) == ["app/__init__.py", "app/run/__init__.py", "app/run/privileged.py"]
    assert files["app/run/privileged.py"] == hashlib.sha256(b"X = 1\n").hexdigest()
    real = manifest(str(ROOT))
    assert "app/run/privileged.py" in real and "app/run/rootboot.py" in real and all(k.endswith(".py") for k in real)


def test_copy_is_new_files_checked_after_the_copy(tmp_path):
    src, files = _tree(tmp_path)
    dest = tmp_path / "dest"
    dest.mkdir(mode=0o700)
    copy_checked(str(src), files, str(dest))
    got = dest / "app" / "run" / "privileged.py"
    assert got.read_text() == "X = 1\n" and (got.stat().st_mode & 0o777) == 0o600
    with pytest.raises(FileExistsError):  # never written through something already there
        copy_checked(str(src), files, str(dest))


def test_a_file_changed_after_the_wizard_listed_it_is_never_run(tmp_path):
    src, files = _tree(tmp_path)
    (src / "app" / "run" / "privileged.py").write_text("import os; os.system('id > /tmp/owned')\n")
    dest = tmp_path / "dest"
    dest.mkdir(mode=0o700)
    with pytest.raises(BootError, match="changed while root copied it"):
        copy_checked(str(src), files, str(dest))


@pytest.mark.parametrize("make", ["symlink", "fifo", "missing"])
def test_links_devices_and_missing_files_stop_the_copy(tmp_path, make):
    src, files = _tree(tmp_path)
    target = src / "app" / "run" / "privileged.py"
    target.unlink()
    if make == "symlink":
        (tmp_path / "elsewhere.py").write_text("X = 1\n")
        target.symlink_to(tmp_path / "elsewhere.py")
    elif make == "fifo":
        os.mkfifo(target)
    dest = tmp_path / "dest"
    dest.mkdir(mode=0o700)
    with pytest.raises(BootError):
        copy_checked(str(src), files, str(dest))


@pytest.mark.parametrize("line", [
    "", "not json\n", json.dumps({"src": "relative", "files": {"app/run/privileged.py": "0" * 64}}),
    json.dumps({"src": "/x", "files": {"../../etc/shadow.py": "0" * 64, "app/run/privileged.py": "0" * 64}}),
    json.dumps({"src": "/x", "files": {"app/../x.py": "0" * 64, "app/run/privileged.py": "0" * 64}}),
    json.dumps({"src": "/x", "files": {"/etc/x.py": "0" * 64, "app/run/privileged.py": "0" * 64}}),
    json.dumps({"src": "/x", "files": {"app/run/x.so": "0" * 64, "app/run/privileged.py": "0" * 64}}),
    json.dumps({"src": "/x", "files": {"app/run/privileged.py": "not-a-sha"}}),
    json.dumps({"src": "/x", "files": {"app/x.py": "0" * 64}}),  # no helper in it
])
def test_a_bad_file_list_is_refused(line):
    with pytest.raises(BootError):
        rootboot._read_manifest(io.StringIO(line + "\n"))


def test_the_copy_folder_needs_root_owned_parents(tmp_path):
    """/tmp (world-writable) can never hold root's copy: someone else could swap it."""
    with pytest.raises(BootError, match="only root can write"):
        rootboot._make_root_dir(str(tmp_path / "base"))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="root makes its folder under /run")
def test_root_folder_is_new_and_root_only(tmp_path, monkeypatch):
    base = "/run/gpu-wizard-test-" + str(os.getpid())
    try:
        d = rootboot._make_root_dir(base)
        st = os.stat(d)
        assert st.st_uid == 0 and (st.st_mode & 0o777) == 0o700 and os.path.basename(d).startswith(f"helper-{os.getpid()}-")
        stale = os.path.join(base, "helper-999999999-abc")
        os.mkdir(stale)
        rootboot._make_root_dir(base)
        assert not os.path.exists(stale)  # a killed helper's copy goes at the next start
    finally:
        subprocess.run(["rm", "-rf", "--one-file-system", base])


def test_boot_argv_is_the_system_python_on_this_text():
    argv = rootboot.boot_argv("/usr/bin/python3", str(ROOT))
    assert argv[:4] == ["/usr/bin/python3", "-I", "-B", "-c"]
    assert argv[4] == (ROOT / "app" / "run" / "rootboot.py").read_text()
    compile(argv[4], "<boot>", "exec")


def test_boot_refuses_without_root():
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # (as sudo runs it; any checkout)
        r = subprocess.run([py, "-I", "-B", "-c", rootboot.boot_source(str(ROOT))], input="",
                           capture_output=True, text=True, timeout=60, user=54321, group=54321, extra_groups=[])
    else:
        r = subprocess.run([sys.executable, "-I", "-B", "-c", rootboot.boot_source(str(ROOT))], input="",
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "must run as root" in r.stderr and "Traceback" not in r.stderr


def test_trusted_means_root_owned_all_the_way_up(tmp_path):
    assert rootboot.trusted("/usr/bin/env") or not os.path.exists("/usr/bin/env")
    f = tmp_path / "python3"
    f.write_text("")
    assert not rootboot.trusted(str(f))  # under /tmp: anyone could swap its folder
    assert rootboot.root_python(candidates=(str(f),)) is None


def test_roots_copy_carries_the_http_packages_its_checks_need(tmp_path):
    """Root's checks fetch NVIDIA's checksum lists: the system Python (no requests of its own on a
    fresh Debian) imports the wizard's HTTP stack from the checked copy's lib/, last on sys.path."""
    py = rootboot.root_python()
    if py is None:
        pytest.skip("no system Python 3.10+ here")
    spec = json.loads(rootboot.manifest_line(str(ROOT)))
    names = {rel.split("/")[0] for lib in spec["libs"] for rel in lib["files"]}
    assert {"requests", "urllib3", "idna", "certifi"} <= names
    assert not any(rel.endswith(".so") for lib in spec["libs"] for rel in lib["files"])
    src, files, libs = rootboot.read_request(io.StringIO(json.dumps(spec) + "\n"))
    dest = tmp_path / "copy"
    dest.mkdir(mode=0o700)
    copy_checked(src, files, str(dest))
    (dest / "lib").mkdir(mode=0o700)
    for lib_src, lib_files in libs:
        copy_checked(lib_src, lib_files, str(dest / "lib"))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); sys.path.append(sys.argv[1] + '/lib'); "
            "import app.run.privileged, requests, app.net as n; n.session(); print(requests.__file__)")
    r = subprocess.run([py, "-I", "-B", "-c", code, str(dest)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(str(dest)) or "/usr/lib/python3" in r.stdout  # the copy, or the system's own


def test_a_package_outside_the_list_is_refused():
    line = json.dumps({"src": "/x", "files": {"app/run/privileged.py": "0" * 64},
                       "libs": [{"src": "/y", "files": {"sitecustomize.py": "0" * 64}}]})
    with pytest.raises(BootError, match="package file"):
        rootboot.read_request(io.StringIO(line + "\n"))


def test_the_boot_text_needs_nothing_but_the_standard_library():
    """It runs as root on the system's Python before any of app is copied and checked: an import from
    app (or any third-party package) there would fail on a real machine, where no venv is on the path."""
    import ast

    tree = ast.parse((ROOT / "app" / "run" / "rootboot.py").read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and n.level == 0}
    late = {"app"}  # boot() imports app.run.privileged from root's checked copy, inside the function only
    top = {a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    top |= {n.module.split(".")[0] for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
    assert top <= set(sys.stdlib_module_names) | {"__future__"}, top - set(sys.stdlib_module_names)
    assert names - set(sys.stdlib_module_names) - {"__future__"} <= late
    py = rootboot.root_python()
    if py is not None:  # and the system's own Python, isolated, gets as far as the root check
        r = subprocess.run([py, "-I", "-B", "-c", rootboot.boot_source(str(ROOT))], input="", capture_output=True,
                           text=True, timeout=60, cwd="/", **({"user": 54321, "group": 54321, "extra_groups": []}
                                                               if os.geteuid() == 0 else {}))
        assert r.returncode == 2 and "must run as root" in r.stderr, r.stderr


def test_a_deeply_nested_list_is_one_line_not_a_traceback():
    with pytest.raises(BootError):
        rootboot.read_request(io.StringIO("[" * 100000 + "\n"))
