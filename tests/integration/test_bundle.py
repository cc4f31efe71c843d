"""Issue 10: build the real Linux bundle with PyInstaller and start it like a user would."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "installers"))
import smoke  # noqa: E402

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    pytest.importorskip("PyInstaller")
    missing = smoke.build_needs()
    if missing:
        pytest.skip("the bundle cannot be built here: " + "; ".join(missing))
    built = smoke.build()
    return smoke.readable_copy(built, Path("/tmp") / f"gpu-wizard-bundle-test-{os.getpid()}")


def _demo_with_gpu():
    from app.paths import demo_snapshots
    for p in demo_snapshots():
        data = json.loads(p.read_text(encoding="utf-8"))
        if data.get("nvml") or "nvidia-smi" in (data.get("commands") or {}):
            return p
    pytest.fail("no bundled demo snapshot with an NVIDIA GPU")


def test_bundle_layout_and_size(bundle):
    exe = bundle / "gpu-wizard"
    assert exe.is_file() and os.access(exe, os.X_OK)
    for f in ("install.sh", "gpu-wizard.desktop", "gpu-wizard.svg"):
        assert (bundle / f).is_file(), f
    assert list((bundle / "_internal" / "resources" / "snapshots").glob("*.json")), "demo snapshots not bundled"
    assert (bundle / "_internal" / "app" / "verify" / "probe.py").is_file(), "the verify probe must travel as a file"
    assert smoke.dir_size_mb(bundle) < 250


def test_bundle_version(bundle):
    r = subprocess.run([str(bundle / "gpu-wizard"), "--version"], capture_output=True, text=True, timeout=60)
    import app
    assert r.returncode == 0 and r.stdout.strip() == f"gpu-wizard {app.__version__}", r.stderr


def test_bundle_detects_from_demo_snapshot(bundle):
    snap = _demo_with_gpu()
    r = subprocess.run([str(bundle / "gpu-wizard"), "detect", "--snapshot", str(snap), "--json"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    facts = json.loads(r.stdout)
    assert facts["gpus"] and facts["gpus"][0]["name"]
    assert facts["gpus"][0]["compute_capability"]


def test_bundle_bad_snapshot_is_one_line(bundle, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ truncated")
    r = subprocess.run([str(bundle / "gpu-wizard"), "detect", "--snapshot", str(bad)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_bundle_gui_shows_first_page_as_a_user(bundle):
    snap = str(_demo_with_gpu())
    if os.geteuid() == 0:  # nobody must be able to read it
        snap = str(smoke.readable_copy(Path(snap).parent, Path("/tmp") / f"gpu-wizard-snaps-{os.getpid()}") / Path(snap).name)
    seconds, r = smoke.first_window(bundle / "gpu-wizard", snapshot=snap)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "first window shown" in r.stdout


def test_install_sh_user_install_and_uninstall(bundle, tmp_path):
    prefix = tmp_path / "prefix"
    env = dict(os.environ, PREFIX=str(prefix), HOME=str(tmp_path))
    r = subprocess.run(["bash", str(bundle / "install.sh")], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    desktop = (prefix / "share/applications/gpu-wizard.desktop").read_text()
    assert f"Exec={prefix}/lib/gpu-wizard/gpu-wizard" in desktop and "@EXEC@" not in desktop
    link = prefix / "bin/gpu-wizard"
    out = subprocess.run([str(link), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("gpu-wizard ")
    r = subprocess.run(["bash", str(bundle / "install.sh"), "--uninstall"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not link.exists() and not (prefix / "lib/gpu-wizard").exists()


def test_bundle_verify_without_gpu_skips_cleanly(bundle):
    import shutil
    if shutil.which("nvidia-smi"):
        pytest.skip("this machine has an NVIDIA GPU; the no-GPU path is what CI checks")
    r = subprocess.run([str(bundle / "gpu-wizard"), "verify", "--json", "--quick", "--no-samples"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    layers = json.loads(r.stdout)["layers"]
    assert layers and all(layer["status"] == "skip" and layer["reason"] for layer in layers)


def test_bundle_is_also_the_privileged_helper_and_refuses_without_root(bundle):
    import os
    if os.geteuid() == 0:
        argv = smoke.as_user_argv([str(bundle / "gpu-wizard"), "--gpu-wizard-helper"])
    else:
        argv = [str(bundle / "gpu-wizard"), "--gpu-wizard-helper"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60, input="")
    assert r.returncode == 2 and "must run as root" in r.stderr


def test_bundle_needs_no_newer_glibc_than_ubuntu_2204(bundle):
    """Every ELF file in the bundle must load with glibc 2.35 (Ubuntu 22.04)."""
    import re
    import shutil
    objdump = shutil.which("objdump")
    if objdump is None:
        pytest.skip("objdump (binutils) is not installed")
    too_new = {}
    for p in [bundle / "gpu-wizard", *bundle.rglob("*.so*")]:
        if p.is_symlink() or not p.is_file():
            continue
        out = subprocess.run([objdump, "-T", str(p)], capture_output=True, text=True).stdout
        need = max((tuple(int(x) for x in m) for m in re.findall(r"GLIBC_(\d+)\.(\d+)", out)), default=(0, 0))
        if need > smoke.OLDEST_GLIBC:
            too_new[str(p.relative_to(bundle))] = "%d.%d" % need
    assert too_new == {}


def test_bundle_carries_the_helper_sources_for_roots_checked_copy(bundle):
    """A per-user bundle never runs as root under sudo: the system's Python runs root's checked copy of
    these files (app/run/rootboot.py), so they travel as plain files."""
    from app.run import rootboot

    src = bundle / "_internal" / "helper-src"
    files = rootboot.manifest(str(src))
    assert "app/run/privileged.py" in files and "app/run/rootboot.py" in files
    libs = rootboot.lib_manifest(str(src))
    assert any(rel.startswith("requests/") for lib in libs for rel in lib["files"])
    assert all(lib["src"] == str(src / "lib") for lib in libs)  # the bundle's own, not this venv's


def test_bundle_is_sudos_askpass_program(bundle):
    """GPU_WIZARD_ASKPASS set: the bundle's binary is the password dialog sudo runs; it asks the
    window over its socket and prints the answer (Cancel: exit 1, nothing printed)."""
    from app.run.askpass import ASKPASS_ENV, SOCKET_ENV, PromptServer, WindowPrompt

    answers = iter(["s3cret-pw", None])
    asked = []
    server = PromptServer(WindowPrompt(lambda prompt, n: asked.append((prompt, n)) or next(answers)))
    server.start()
    try:
        env = dict(os.environ, **{ASKPASS_ENV: "1", SOCKET_ENV: server.path})
        r = subprocess.run([str(bundle / "gpu-wizard"), "[sudo] password for alex: "], env=env, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0 and r.stdout == "s3cret-pw\n", r.stderr
        r = subprocess.run([str(bundle / "gpu-wizard"), "[sudo] password for alex: "], env=env, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 1 and r.stdout == ""
        assert asked == [("[sudo] password for alex: ", 1), ("[sudo] password for alex: ", 2)]
    finally:
        server.close()
