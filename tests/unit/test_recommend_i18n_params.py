"""Every recommendation warning and reason carries a stable code and the figures of its English
sentence (params), so the GUI can say it in Simplified Chinese; the JSON contract keeps working.
Machines are built as in test_recommend_machines (its table plus rows that reach the rarer codes)."""
from __future__ import annotations

import json
from string import Formatter

import pytest

from app.choices import Choices
from app.compat import load_db
from app.facts import DisplayAdapter, DriverInfo, Facts, Gpu, GraphicsInfo, OsInfo
from app.recommend import CLAUSE_CODES, REASON_CODES, WARNING_CODES, recommend
from app.recommendation import CudnnChoice, DriverChoice, Recommendation, RecWarning, ToolkitChoice, TorchChoice
from tests.unit.test_recommend_machines import (A100, CASES, GTX1080TI, H200, OS, RTX3060, RTX4090, V100, machine)


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def _hybrid(prime_mode=None, runtime_pm=None, nv_class="0300", nv_connected=(), igpu_vendor="8086") -> GraphicsInfo:
    igpu = DisplayAdapter(bus_id="0000:00:02.0", vendor=igpu_vendor, class_code="0300", name="UHD Graphics" if igpu_vendor == "8086" else "Rembrandt")
    nv = DisplayAdapter(bus_id="0000:01:00.0", vendor="10de", class_code=nv_class, connected=nv_connected)
    return GraphicsInfo(adapters=(igpu, nv), prime_mode=prime_mode, runtime_pm=runtime_pm)


# rows the main table does not reach: (id, facts, choices)
EXTRA = [
    ("h200_system_cudnn", machine("u2404", [H200], "580.159.04", "3.12", kernel_module="open"),
     Choices(want_toolkit=True, want_system_cudnn=True)),
    ("h200_cpu_chosen", machine("u2404", [H200], "580.159.04", "3.12"), Choices(torch_variant="cpu")),
    # a chosen build newer releases do not carry for these GPUs: the newest release with it, and why (issue 22)
    ("h200_cu118_holds_back", machine("u2404", [H200], "580.159.04", "3.12"), Choices(torch_variant="cu118")),
    ("v100_cu128_holds_back", machine("u2404", [V100], "580.95.05", "3.12", kernel_module="proprietary"),
     Choices(torch_variant="cu128")),
    ("driver_not_loaded_no_gpu_seen", machine("u2204", [], "550.120", "3.11", state="not_loaded"), Choices()),
    ("driver_mismatch_with_hint", machine("u2204", [], "550.120", "3.11").replace(driver=DriverInfo(
        state="mismatch", version="550.120", hint="Reboot: the old kernel module is still loaded.")), Choices()),
    ("rtx3060_no_driver_unmanaged", machine("u2204", [RTX3060], None, "3.11"), Choices(install_driver=False)),
    ("a100_r440_unmanaged_needs_driver", machine("u2004", [A100], "440.118.02", "3.10"), Choices(install_driver=False)),
    ("a100_r450_want_toolkit", machine("u2004", [A100], "450.80.02", "3.10"), Choices(want_toolkit=True)),
    ("rtx3060_no_driver_want_toolkit_unmanaged", machine("u2204", [RTX3060], None, "3.11"),
     Choices(want_toolkit=True, install_driver=False)),
    ("gtx1080ti_open_module", machine("u2404", [GTX1080TI], "580.95.05", "3.12", kernel_module="open"), Choices()),
    ("rtx4090_arch_want_toolkit", machine("arch", [RTX4090], "580.95.05", "3.12"), Choices(want_toolkit=True)),
    ("rtx4090_runfile_toolkit", machine("u2404", [RTX4090], "580.95.05", "3.12"), Choices(want_toolkit=True, install_method="runfile")),
    ("windows_toolkit", machine("win11", [RTX4090], "591.86", "3.12"), Choices(want_toolkit=True)),
    ("working_driver_version_unknown", machine("u2404", [RTX4090], None, "3.12").replace(driver=DriverInfo(state="ok")), Choices()),
    ("working_driver_only_cuda_known", machine("u2404", [RTX4090], None, "3.12").replace(
        driver=DriverInfo(state="ok", cuda_version="12.8")), Choices()),
    ("unknown_gpu_name", Facts(os=OsInfo(**OS["u2404"]), driver=DriverInfo(state="ok", version="580.95.05"),
                               gpus=(Gpu(index=0, name="Mystery Accelerator"), Gpu(index=1, name="NVIDIA H200", compute_capability="9.0"))),
     Choices()),
    ("ppc64le", machine("u2404", [H200], "580.95.05", "3.12").replace(os=OsInfo(**{**OS["u2404"], "arch": "ppc64le"})), Choices()),
    ("other_os", machine("u2404", [RTX4090], None, "3.12").replace(os=OsInfo(platform="other", id="freebsd", arch="x86_64")), Choices()),
    ("py37_too_old_for_every_release", machine("u2404", [RTX4090], "580.95.05", "3.7"), Choices()),
    ("win_no_driver_seen", machine("win11", [RTX3060], None, "3.12"), Choices()),
    ("gtx750ti_name_only_no_driver", machine("u2404", [], None, "3.12").replace(gpus=(Gpu(index=0, name="NVIDIA GeForce GTX 750 Ti"),)), Choices()),
    ("h200_torch_alone", machine("u2404", [H200], "580.159.04", "3.12"), Choices(want_torchvision=False)),
    ("gh200_arm_proprietary", machine("u2404arm", [("NVIDIA GH200 480GB", "9.0")], "580.95.05", "3.12", kernel_module="proprietary"), Choices()),
    ("gh200_arm_no_driver", machine("u2404arm", [("NVIDIA GH200 480GB", "9.0")], None, "3.12"), Choices()),
    ("rtx4090_free_threaded_313t", machine("u2404", [RTX4090], "580.95.05", "3.13t"), Choices()),
    ("rtx3060_r525_kept", machine("u2204", [RTX3060], "525.147.05", "3.11"), Choices(install_driver=False)),
    ("vgpu_guest_t4_470_kept", machine("u2204", [("GRID T4-4C", None)], "470.103.01", "3.10"), Choices()),
    ("vgpu_guest_t4_418_needs_update", machine("u2204", [("GRID T4-16Q", None)], "418.67", "3.10"), Choices()),
    # issue 28: legacy GPUs get a driver with a target or "keep: its last branch"; Jetson; a Python no GPU build has
    ("kepler_k4000_windows_r470_kept", machine("win11", [("Quadro K4000", "3.0")], "474.89", "3.12"), Choices()),
    ("kepler_k4000_windows_r390_upgraded", machine("win11", [("Quadro K4000", "3.0")], "391.35", "3.12"), Choices()),
    ("kepler_k4000_linux_no_driver", machine("u2204", [("Quadro K4000", "3.0")], None, "3.11"), Choices()),
    ("kepler_k4000_linux_unmanaged", machine("u2204", [("Quadro K4000", "3.0")], None, "3.11"), Choices(install_driver=False)),
    ("t4g_aarch64_no_build", machine("u2404arm", [("NVIDIA T4G", "7.5")], "580.95.05", "3.12"), Choices()),
    ("jetson_orin", machine("u2404arm", [("Orin", "8.7")], "540.4.0", "3.10"), Choices()),
    ("rtx5090_py38_too_old_for_its_builds", machine("u2404", [("NVIDIA GeForce RTX 5090", "12.0")], "580.95.05", "3.8"), Choices()),
    # hybrid graphics (tests/fixtures/real/hybrid): which GPU drives the display, PRIME off, runtime power management
    ("hybrid_turing_prime_off", machine("u2404", [("NVIDIA GeForce GTX 1650 Ti Mobile", "7.5")], "580.95.05", "3.12").replace(
        graphics=_hybrid(prime_mode="off", nv_class="0302")), Choices()),
    ("hybrid_ampere_nvidia_display_pm_on", machine("u2404", [("NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6")], "580.95.05", "3.12").replace(
        graphics=_hybrid(runtime_pm="on", nv_connected=("eDP-1",))), Choices()),
    ("hybrid_amd_display_unknown", machine("u2404", [("NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6")], "580.95.05", "3.12").replace(
        graphics=_hybrid(igpu_vendor="1002")), Choices()),
]
ALL = [(c.id, c.facts, c.choices) for c in CASES] + EXTRA
# rows the pinned data predates, solved on a copy of it with those rows added (tests/unit/compat_rows.py)
NEWER = [
    ("h200_torch_newer_than_its_torchvision", machine("u2404", [H200], "580.159.04", "3.12"), Choices()),
    ("win_rtx4090_cuda13_floor_inferred", machine("win11", [RTX4090], "591.86", "3.12"), Choices()),
    ("h200_py315_only_torch_alone", machine("u2404", [H200], "595.71.05", "3.15"), Choices()),
    ("no_gpu_py315_only_torch_alone", machine("u2404", [], None, "3.15"), Choices()),
    ("gtx1080_py315_gets_the_python_that_works", machine("u2404", [GTX1080TI], "580.95.05", "3.15", kernel_module="proprietary"), Choices()),
]


@pytest.fixture(scope="module")
def recs(db):
    from tests.unit.compat_rows import newer_db

    out = {i: recommend(f, db, ch) for i, f, ch in ALL}
    out.update({i: recommend(f, newer_db(), ch) for i, f, ch in NEWER})
    from tests.unit.live_server import live_outputs

    out.update({i: rec for i, _f, _c, rec in live_outputs()})  # recommend_live against a 127.0.0.1 index
    return out


def _items(rec: Recommendation):
    """(kind, code, params, English) for every warning and reason."""
    for w in rec.warnings:
        yield "warning", w.code, w.params, w.message
    for part in (rec.pytorch, rec.driver, rec.cuda_toolkit, rec.cudnn):
        if part.reason:
            yield type(part).__name__, part.reason_code, part.reason_params, part.reason


def test_every_reason_and_warning_has_a_registered_code_and_string_params(recs):
    for rid, rec in recs.items():
        for kind, code, params, english in _items(rec):
            assert code in (WARNING_CODES if kind == "warning" else REASON_CODES), (rid, kind, code, english)
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in params.items()), (rid, code, params)
            for k, v in params.items():
                if k.endswith("_code"):
                    assert v == "" or v in CLAUSE_CODES, (rid, code, k, v)


def test_the_table_reaches_every_reason_code_and_most_warnings(recs):
    reasons = {code for rec in recs.values() for kind, code, _p, _e in _items(rec) if kind != "warning"}
    warnings = {w.code for rec in recs.values() for w in rec.warnings}
    assert reasons == REASON_CODES
    # ptx_jit_only needs a wheel whose only code for a GPU is PTX: no release in the bundled data is built so
    # (its sentence has no figures, so there is nothing to check against a real output)
    assert WARNING_CODES - warnings == {"ptx_jit_only"}


def test_params_hold_the_figures_of_the_sentence(recs):
    """The figures the GUI will put in the translated sentence are the ones in the English one."""
    for rid, rec in recs.items():
        for _kind, code, params, english in _items(rec):
            for k, v in params.items():
                if k.endswith("_code") or k in ("state", "text_code", "flavour", "compat", "confidence"):
                    continue  # clause names and words the GUI translates
                assert v in english, (rid, code, k, v, english)


def test_json_round_trip_keeps_codes_and_params(recs):
    for rid, rec in recs.items():
        back = Recommendation.loads(rec.dumps())
        assert back == rec, rid
        assert [w.params for w in back.warnings] == [w.params for w in rec.warnings]
    rec = recs["a100_r450_upgrade"]
    assert rec.driver.reason_code == "driver_upgrade"
    assert rec.driver.reason_params["branch"] == "580" and rec.driver.reason_params["why_code"] == "why_cannot_run_newest_runs"
    assert rec.pytorch.reason_code == "torch_newest_full" and rec.cudnn.reason_code == "cudnn_bundled"


def test_older_json_without_codes_still_loads(recs):
    data = json.loads(recs["h100_r535_u2204"].dumps())
    for key in ("pytorch", "driver", "cuda_toolkit", "cudnn"):
        data[key].pop("reason_code")
        data[key].pop("reason_params")
    for w in data["warnings"]:
        w.pop("params")
    old = Recommendation.from_json(data)
    assert old.driver.reason_code is None and old.driver.reason_params == {}
    assert old.warnings and all(w.params == {} for w in old.warnings)
    assert old.driver.reason == recs["h100_r535_u2204"].driver.reason
    assert RecWarning(code="x", message="y").params == {} and TorchChoice().reason_params == {}
    assert DriverChoice().reason_code is None and ToolkitChoice().reason_code is None and CudnnChoice().reason_params == {}


def test_registered_codes_are_the_ones_the_source_names():
    import re
    from pathlib import Path

    import app.recommend as r

    src = Path(r.__file__).read_text(encoding="utf-8")
    body = src.split("NVIDIA_REPOS_BASE =", 1)[1]  # past the registries
    body += (Path(r.__file__).parent / "compat" / "live.py").read_text(encoding="utf-8")  # recommend_live's codes
    named = set(re.findall(r'"([a-z][a-z0-9_]+)"', body))
    assert REASON_CODES - WARNING_CODES <= named
    assert CLAUSE_CODES <= named
    # no two registries share a name except the warnings reused as reasons (the same sentence)
    assert REASON_CODES & CLAUSE_CODES == set() and WARNING_CODES & CLAUSE_CODES == set()
    assert REASON_CODES & WARNING_CODES == {"python_too_new", "python_too_old", "no_release_for_gpu"}


def test_placeholder_names_are_plain(recs):
    for rec in recs.values():
        for _k, _c, params, _e in _items(rec):
            for k in params:
                assert k.isidentifier() and not list(Formatter().parse("{" + k + "}"))[0][2]
