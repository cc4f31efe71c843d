"""Real engine outputs for the catalogue tests: every (domain, code, params, English) the engine says
for the demo snapshots, the recommendation/plan test machines and the real error fixtures. Built by
running detect → recommend → plan and diagnose; nothing here is typed in by hand."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Iterator, NamedTuple

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.detect import detect
from app.paths import demo_snapshots
from app.plan import build_plan
from app.recommend import recommend
from app.system import SnapshotSystem

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"

VARIANTS = {
    "default": Choices(),
    "toolkit": Choices(want_toolkit=True, want_system_cudnn=True),
    "runfile": Choices(want_toolkit=True, install_method="runfile"),
    "uv": Choices(installer="uv", want_toolkit=True, mirrors=Mirrors(nvidia_repo_url="https://mirror.example/cuda/repos",
                                                                        pytorch_index_url="https://mirror.example/whl")),
    "cpu": Choices(torch_variant="cpu"),
}


class Said(NamedTuple):
    where: str
    domain: str  # app.messages domain: finding, check, rec, plan, diagnose
    code: str
    params: dict
    english: str
    group: str = ""  # items judged together for dropped figures (a finding's sentence and its hint)


@lru_cache(maxsize=None)
def db():
    return load_db(use_user_bundle=False)


@lru_cache(maxsize=None)
def snapshot_facts() -> tuple:
    return tuple((snap.stem, detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))) for snap in demo_snapshots())


@lru_cache(maxsize=None)
def recommendations() -> tuple:
    """(where, facts, choices, Recommendation) over the demo snapshots x VARIANTS and the machines of
    test_recommend_i18n_params (its table reaches every reason code)."""
    from tests.unit.compat_rows import newer_db
    from tests.unit.test_recommend_i18n_params import ALL, NEWER

    out = []
    for stem, facts in snapshot_facts():
        for name, ch in VARIANTS.items():
            out.append((f"{stem}/{name}", facts, ch, recommend(facts, db(), ch)))
    for rid, facts, ch in ALL:
        out.append((rid, facts, ch, recommend(facts, db(), ch)))
    for rid, facts, ch in NEWER:
        out.append((rid, facts, ch, recommend(facts, newer_db(), ch)))
    from tests.unit.live_server import live_outputs

    out += list(live_outputs())
    return tuple(out)


@lru_cache(maxsize=None)
def plans() -> tuple:
    """(where, Plan) for every recommendation above plus the plan builders' own machines (old CUDA,
    nouveau, RHEL/dnf, a Linux driver inside WSL, Windows hosts)."""
    out = []
    for where, facts, ch, rec in recommendations():
        try:
            out.append((where, build_plan(facts, rec, ch)))
        except Exception as e:  # noqa: BLE001 - some test machines cannot be planned (e.g. other OS): say so
            out.append((where, e))
    out = [(w, p) for w, p in out if not isinstance(p, Exception)]
    out += _more_plans()
    return tuple(out)


class _InterruptedDpkg:
    """A machine whose dpkg journal holds an unfinished run (/var/lib/dpkg/updates/0001)."""

    def list_dir(self, path):
        return ["0001"] if path == "/var/lib/dpkg/updates" else None


def _more_plans() -> list:
    from app.facts import OsInfo
    from app.run.executor import with_dpkg_repair
    from tests.unit import test_plan_builders as pb
    from tests.unit import test_windows_plan as wp
    from tests.unit import test_wsl_plan as wsl

    more = [("pb/toolkit", build_plan(pb.ubuntu_facts(), pb.REC, Choices(want_toolkit=True))),
            ("pb/no_reason", build_plan(pb.ubuntu_facts(), pb.REC.replace(pytorch=pb.REC.pytorch.replace(reason="")), Choices())),
            ("pb/rhel", build_plan(pb.ubuntu_facts(os=OsInfo(platform="linux", id="rhel", version_id="9.4", arch="x86_64",
                                                             package_manager="dnf", kernel="5.14.0-427.el9.x86_64")),
                                   pb.REC, Choices(install_method="dnf", want_toolkit=True))),
            ("pb/rhel_mirror", build_plan(pb.ubuntu_facts(os=OsInfo(platform="linux", id="rhel", version_id="9.4", arch="x86_64",
                                                                    package_manager="dnf")),
                                          pb.REC, Choices(install_method="dnf", mirrors=Mirrors(nvidia_repo_url="https://mirror.example/cuda/repos")))),
            ("pb/upgrade_cpu", build_plan(pb.ubuntu_facts(), pb.REC.replace(driver=pb.REC.driver.replace(action="upgrade"),
                                                                            pytorch=pb.REC.pytorch.replace(index="cpu", index_url=None)), Choices())),
            ("wsl/wrong_driver", wsl._plan(wsl._with_wrong_driver(wsl.DEMO), db())[2]),
            ("pb/dpkg_interrupted", with_dpkg_repair(build_plan(pb.ubuntu_facts(), pb.REC, Choices()), _InterruptedDpkg()))]
    win = wp.WIN
    old_driver = wp._with_wsl((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text())
    smi = r"C:\Windows\System32\nvidia-smi.exe"
    old_driver["commands"][smi]["stdout"] = (win / "smi_win_517_two_gpus.out").read_text()
    old_driver["commands"].pop(wp.command_key(wp.smi_mod.query_argv(wp.W.SMI_QUERY_FIELDS, exe=smi)))
    more.append(("win/old_driver", wp._plan(old_driver, db())[2]))
    for i, (listing, status) in enumerate((
            ((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text()),
            ((win / "wsl_l_v_ubuntu2204.txt").read_text(), "Default Distribution: Ubuntu-22.04\nDefault Version: 2\n"
             "WSL 2 requires an update to its kernel component. Please run 'wsl.exe --update'.\n"),
            ("  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n",
             "Default Distribution: Ubuntu\nDefault Version: 1\n"),
            ((win / "wsl_l_v_none.txt").read_text(), (win / "wsl_status_short.txt").read_text()))):
        more.append((f"win/{i}", wp._plan(wp._with_wsl(listing, status), db())[2]))
    return more


@lru_cache(maxsize=None)
def diagnoses() -> tuple:
    """(where, Match) over the real error fixtures, with no facts and with each demo machine's facts."""
    from app.diagnose import diagnose

    out = []
    machines = [("text-only", None)] + list(snapshot_facts())
    for machine, facts in machines:
        for f in sorted(ERRORS.glob("*.txt")):
            for m in diagnose(f.read_text(encoding="utf-8", errors="replace"), facts).matches:
                out.append((f"{machine}/{f.name}", m))
    return tuple(out)


def rec_items(where: str, rec) -> Iterator[Said]:
    for w in rec.warnings:
        yield Said(where, "rec", w.code, dict(w.params), w.message)
    for part in (rec.pytorch, rec.driver, rec.cuda_toolkit, rec.cudnn):
        if part.reason:
            yield Said(f"{where}/{type(part).__name__}", "rec", part.reason_code or "", dict(part.reason_params), part.reason)
    for a in rec.alternatives:
        yield Said(f"{where}/alternative{a.rank}", "rec", a.reason_code or "", dict(a.reason_params), a.reason)


def plan_items(where: str, plan) -> Iterator[Said]:
    for s in plan.steps:
        yield Said(f"{where}/{s.id}", "plan", s.title_code, dict(s.params), s.title)
        yield Said(f"{where}/{s.id}", "plan", s.why_code, dict(s.params), s.why)
        assert len(s.note_codes) == len(s.notes), (where, s.id, s.notes)  # every note has its code
        for i, (n, english) in enumerate(zip(s.note_codes, s.notes)):
            yield Said(f"{where}/{s.id}/note{i}", n.domain, n.code, dict(n.params), english)
    assert len(plan.warning_codes) == len(plan.warnings), (where, plan.warnings)
    for i, (n, english) in enumerate(zip(plan.warning_codes, plan.warnings)):
        yield Said(f"{where}/warning{i}", n.domain, n.code, dict(n.params), english)


def diagnose_items(where: str, m) -> Iterator[Said]:
    for name, code, english in (("root_cause", m.root_cause_code, m.root_cause), ("fix", m.fix_code, m.fix)):
        if code:  # the OOM verdicts say their own sentence (no code)
            yield Said(f"{where}/{m.rule}", "diagnose", f"{code}.{name}", dict(m.params), english)


def everything_said() -> list[Said]:
    out: list[Said] = []
    for where, _f, _c, rec in recommendations():
        out += rec_items(where, rec)
    for where, plan in plans():
        out += plan_items(where, plan)
    for where, m in diagnoses():
        out += diagnose_items(where, m)
    return out


@lru_cache(maxsize=None)
def detections() -> tuple:
    """(where, Facts) for the demo snapshots, the recorded real machines and the Windows/WSL test machines
    (old driver, WSL 1, no distro, a Linux driver inside WSL), detected as they are."""
    from tests.unit import test_windows_plan as wp
    from tests.unit import test_wsl_plan as wsl

    out = list(snapshot_facts())
    real = Path(__file__).resolve().parent.parent / "fixtures" / "real"
    for snap in sorted(real.glob("*/snapshot*.json")):
        out.append((f"real/{snap.parent.name}", detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))))
    win = wp.WIN
    machines = {
        "wsl/wrong_driver": wsl._with_wrong_driver(wsl.DEMO),
        "win/wsl2": wp._with_wsl((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text()),
        "win/wsl1": wp._with_wsl("  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n",
                                 "Default Distribution: Ubuntu\nDefault Version: 1\n"),
        "win/no_distro": wp._with_wsl((win / "wsl_l_v_none.txt").read_text(), (win / "wsl_status_short.txt").read_text()),
    }
    for where, data in machines.items():
        out.append((where, detect(SnapshotSystem(data))))
    return tuple(out)


def finding_items(where: str, facts) -> Iterator[Said]:
    for f in facts.findings:
        yield Said(f"{where}/{f.code}", "finding", f.code, dict(f.params), f.message, f"{where}/{f.code}")
        if f.hint and f.params.get("hint_code", "x") != "":
            from app import messages

            key = messages.hint_key(f.code, f.params)
            if key and messages.has("finding", key, "en"):
                hp = {k: v for k, v in f.params.items() if k not in ("text_code", "hint_code")}
                yield Said(f"{where}/{f.code}", "finding", key, hp, f.hint, f"{where}/{f.code}")


@lru_cache(maxsize=None)
def verifications() -> tuple:
    """(where, [Check]) from the recorded H200 runs judged again and the verdict tests' bad cases
    (x8 link, power cap, idle GPU, throttling, slow copies, wrong numerics, no torch...)."""
    from app.verify import verdicts
    from app.verify.model import Compute, NumericCheck, TorchReport, Verification
    from app.verify.session import rejudge
    from tests.unit import test_verify_verdicts as tv

    out = []
    fix = Path(__file__).resolve().parent.parent / "fixtures" / "verify"
    for f in sorted(fix.glob("*.json")):
        if not f.stem.endswith(("_quick", "_long")):  # the reference measurements are not verify results
            continue
        v = rejudge(Verification.loads(f.read_text(encoding="utf-8")))
        out.append((f"verify/{f.stem}", [c for layer in v.layers for c in layer.checks]))
    bad_num = [NumericCheck(op="matmul", dtype="fp16", rel_error=0.5, tolerance=0.01, ok=False),
               NumericCheck(op="conv2d", dtype="bf16", ok=False, error="RuntimeError: boom"),
               NumericCheck(op="matmul", dtype="fp32", rel_error=None, ok=False)]
    cases = {
        "healthy": dict(smp=tv.samples("bandwidth") + tv.samples("load")),
        "x8": dict(band=tv.bw(h2d=26.0, page=20.0), smp=tv.samples("bandwidth", pcie_width_current=8) + tv.samples("load", pcie_width_current=8)),
        "gen3": dict(band=tv.bw(h2d=20.0, page=2.0), smp=tv.samples("bandwidth", pcie_gen_current=3) + tv.samples("load", pcie_gen_current=3)),
        "power": dict(device=tv.h200_device(power_limit_w=300.0),
                      smp=tv.samples("load", throttle_reasons=("sw_power_cap",), power_w=300.0)),
        "at_limit": dict(smp=tv.samples("load", throttle_reasons=("sw_power_cap",))),
        "idle": dict(smp=tv.samples("load", util_pct=0.0)),
        "thermal": dict(smp=tv.samples("load", throttle_reasons=("hw_thermal", "sw_thermal"), temp_c=92.0)),
        "d2d": dict(band=tv.bw(d2d=1500.0)),
        "numerics": dict(numerics=bad_num),
        "arch": dict(device=tv.h200_device(compute_capability="12.0", name="NVIDIA GeForce RTX 5090")),
        "prohibited": dict(device=tv.h200_device(compute_mode="Prohibited")),
        "busy": dict(device=tv.h200_device(compute_mode="Exclusive_Process", error="CUDA error: all CUDA-capable devices are busy")),
        "broken": dict(device=tv.h200_device(error="CUDA error: unknown error")),
        "no_torch": dict(torch=TorchReport(python="/v/bin/python", installed=False, fix_command="/v/bin/python -m pip install torch")),
        "no_torch_py": dict(torch=TorchReport(installed=False)),
        "cpu_torch": dict(torch=tv.good_torch(cuda=None, version="2.13.0+cpu", fix_command="x")),
        "unavailable": dict(torch=tv.good_torch(available=False, error="The NVIDIA driver on your system is too old (found version 11040).")),
        "no_cudnn": dict(torch=tv.good_torch(cudnn_available=False, cudnn=None)),
        "load_errors": dict(compute=Compute(errors=("bf16 matrix products: OutOfMemoryError: CUDA out of memory",))),
        "no_result": dict(compute=Compute()),
        "copy_error": dict(band=verdicts.Bandwidth(gpu_index=0, error="RuntimeError: copy failed")),
        "h2d_only": dict(band=verdicts.Bandwidth(gpu_index=0, h2d_pinned_gbps=50.0, pcie_theoretical_gbps=63.02)),
        "d2d_only": dict(band=verdicts.Bandwidth(gpu_index=0, d2d_gbps=4000.0)),
        "bare_device": dict(device=tv.h200_device(compute_capability=None, sm_count=None, memory_total_mib=None, name="")),
    }
    for where, kw in cases.items():
        layers = tv.judge(**kw)
        out.append((f"verdict/{where}", [c for layer in layers.values() for c in layer.checks]))
    return tuple(out)


def check_items(where: str, checks) -> Iterator[Said]:
    from app import messages

    for c in checks:
        yield Said(f"{where}/{c.code}", "check", c.code, dict(c.params), c.message, f"{where}/{c.code}")
        key = messages.hint_key(c.code, c.params)
        if c.hint and key and messages.has("check", key, "en"):
            yield Said(f"{where}/{c.code}", "check", key, {k: v for k, v in c.params.items() if k not in ("text_code", "hint_code")},
                       c.hint, f"{where}/{c.code}")


def no_gpu_layer_items() -> Iterator[Said]:
    """The skipped layers of a verification on a machine with no GPU (the CI path), for each kind of
    PyTorch found and each way NVML answered, as app/verify/session.py makes them."""
    from app import messages
    from app.verify import verdicts
    from app.verify.model import TorchReport

    torches = {"torch_missing_in": TorchReport(installed=False, python="/venv/bin/python"), "torch_missing": TorchReport(installed=False),
               "cpu_build": TorchReport(installed=True, version="2.13.0+cpu"), "cuda_build": TorchReport(installed=True, version="2.13.0", cuda="13.0"),
               "unknown": TorchReport()}
    for tname, t in torches.items():
        for code, params in (("no_gpu_no_nvml", {}), ("no_gpu_nvml_error", {"error": "Driver Not Loaded"}), ("no_gpu", {})):
            reason = messages.render("check", code, params, "en")
            for layer in verdicts.no_gpu_layers(reason, t, code, params):
                yield Said(f"no_gpu/{tname}/{code}/{layer.name}", "check", layer.reason_code, dict(layer.reason_params), layer.reason)


def all_said() -> list[Said]:
    """everything_said() plus detection findings, verify checks and the no-GPU layers."""
    out = everything_said() + list(no_gpu_layer_items())
    for where, facts in detections():
        out += finding_items(where, facts)
    for where, checks in verifications():
        out += check_items(where, checks)
    return out
