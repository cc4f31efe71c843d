"""`gpu-wizard diagnose`: inputs (file, log, stdin, text), --json shape, evidence from a snapshot,
unrecognised text, and hostile input (50 MB, binary, not UTF-8, UTF-16, one giant line)."""
import io
import json
import os
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.diagnose import diagnose_file
from app.diagnose.textscan import MAX_KEPT_CHARS
from app.paths import resource

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"
SNAP = str(resource("snapshots", "nodriver-rtx3060-ubuntu2204.json"))
WSL_SNAP = str(resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json"))


def fixture_text(name: str) -> str:
    return (ERRORS / name).read_text(encoding="utf-8").partition("\n")[2]


def run_json(capsys, *argv):
    rc = main(["diagnose", *argv, "--json"])
    out = capsys.readouterr()
    return rc, json.loads(out.out), out.err


def test_text_file_json(tmp_path, capsys):
    f = tmp_path / "err.txt"
    f.write_text(fixture_text("nouveau_installer_apollo.txt"))
    rc, data, _ = run_json(capsys, "--no-detect", "--text-file", str(f))
    assert rc == 0
    m = data["matches"][0]
    assert m["category"] == "nouveau_conflict"
    for key in ("category", "rule", "confidence", "root_cause", "evidence", "fix", "fix_steps"):
        assert key in m
    assert data["facts_source"] is None


def test_evidence_from_a_snapshot(tmp_path, capsys):
    f = tmp_path / "err.txt"
    f.write_text(fixture_text("unavail_no_driver_centos.txt"))
    rc, data, _ = run_json(capsys, "--snapshot", SNAP, "--text-file", str(f))
    assert rc == 0
    m = data["matches"][0]
    assert m["category"] == "cuda_unavailable" and m["subcode"] == "no_driver"
    assert data["facts_source"].startswith("snapshot:")
    assert any(e["source"] == "facts" and "the NVIDIA driver is not installed" in e["message"] for e in m["evidence"])


def test_wsl_snapshot_redirects_smi_failure(tmp_path, capsys):
    f = tmp_path / "err.txt"
    f.write_text(fixture_text("nvml_smi_no_comm_selfhosted.txt"))
    rc, data, _ = run_json(capsys, "--snapshot", WSL_SNAP, "--log", str(f))
    assert data["matches"][0]["category"] in ("wsl_nvidia_smi_failed", "wsl_linux_driver_installed")


def test_stdin(monkeypatch, capsys):
    raw = fixture_text("drv_insuff_bladebit.txt").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    rc, data, _ = run_json(capsys, "--no-detect", "-")
    assert rc == 0 and data["matches"][0]["category"] == "driver_insufficient"


def test_unrecognised_text_is_an_empty_list_and_exit_0(capsys):
    rc, data, _ = run_json(capsys, "--no-detect", "--text", "Everything is fine, training finished in 3 hours.")
    assert rc == 0 and data["matches"] == []
    assert "No known GPU setup error" in data["message"]
    rc = main(["diagnose", "--no-detect", "--text", "all good"])
    assert rc == 0 and "No known GPU setup error" in capsys.readouterr().out


def test_human_output(tmp_path, capsys):
    f = tmp_path / "e.txt"
    f.write_text(fixture_text("oom_new_format_fragmented_lerf.txt"))
    assert main(["diagnose", "--no-detect", "--text-file", str(f)]) == 0
    out = capsys.readouterr().out
    assert "1. oom (fragmentation)" in out and "Cause:" in out and "Fix:" in out and "PYTORCH_CUDA_ALLOC_CONF" in out


@pytest.mark.parametrize("argv,needle", [
    (["--text-file", "/nonexistent/err.txt"], "cannot read"),
    (["--log", "/"], "folder"),
    ([], "nothing to diagnose"),
    (["--text", "x", "--log", "y"], "give one input"),
    (["somefile"], "unexpected argument"),
])
def test_bad_input_is_one_line_exit_2(argv, needle, capsys):
    rc = main(["diagnose", "--no-detect", *argv])
    err = capsys.readouterr().err
    assert rc == 2 and needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_samples_file(tmp_path, capsys):
    samples = [{"gpu_index": 0, "t_s": i * 0.1, "util_pct": u, "power_w": 50.0, "power_limit_w": 300.0}
               for i, u in enumerate([95, 0, 0, 96, 1, 0] * 10)]
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"samples": samples}))
    rc, data, _ = run_json(capsys, "--no-detect", "--samples", str(f))
    assert rc == 0 and data["utilization"]["dimensions"][0]["name"] == "data_loading"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["diagnose", "--no-detect", "--samples", str(bad)]) == 2


# ---- hostile input ---------------------------------------------------------------------

NOISE = "".join(f"2026-11-29 12:00:{i % 60:02d} step {i} loss 0.{i % 997:03d} lr 3e-4 tokens/s 51234\n" for i in range(2000))


def test_fifty_megabyte_log_is_bounded(tmp_path):
    f = tmp_path / "train.log"
    early = fixture_text("cudnn_ops_infer8_whisper.txt")
    late = fixture_text("oom_old_format_too_small_unilm.txt")
    with open(f, "w") as fh:
        written = 0
        fh.write(early)
        while written < 50 * 1024 * 1024:
            fh.write(NOISE)
            written += len(NOISE)
        fh.write(late)
    d = diagnose_file(f)
    cats = d.categories()
    assert "cudnn_missing" in cats and "oom" in cats  # the first and the last error both survive
    assert d.input.bytes_read >= 50 * 1024 * 1024
    assert d.input.chars_kept <= MAX_KEPT_CHARS


def test_many_errors_keep_head_and_tail_within_the_cap(tmp_path):
    f = tmp_path / "spam.log"
    line = "Failed to initialize NVML: Unknown Error\n"
    with open(f, "w") as fh:
        fh.write(fixture_text("secureboot_required_key.txt"))
        fh.write(line * 300_000)
        fh.write(fixture_text("wsl_gpu_blocked_l40s.txt"))
    d = diagnose_file(f)
    assert d.input.truncated and d.input.chars_kept <= MAX_KEPT_CHARS
    cats = d.categories()
    assert "secure_boot" in cats and "wsl_gpu_access_blocked" in cats and "nvml_init_failed" in cats


def test_binary_input(tmp_path, capsys):
    f = tmp_path / "core.bin"
    f.write_bytes(os.urandom(300_000) + b"\nFailed to initialize NVML: Driver/library version mismatch\n" + os.urandom(300_000))
    rc, data, _ = run_json(capsys, "--no-detect", "--log", str(f))
    assert rc == 0 and data["input"]["binary"] is True
    assert data["matches"][0]["category"] == "driver_lib_mismatch"
    g = tmp_path / "zeros.bin"
    g.write_bytes(b"\x00\x01\x02" * 100_000)
    rc, data, _ = run_json(capsys, "--no-detect", "--log", str(g))
    assert rc == 0 and data["matches"] == [] and "binary" in data["message"]


def test_not_utf8_and_utf16(tmp_path):
    latin = fixture_text("cudnn_ops_infer8_whisper.txt").encode("latin-1", errors="replace")
    f = tmp_path / "latin.txt"
    f.write_bytes(latin)
    d = diagnose_file(f)
    assert d.input.decode_errors and d.matches[0].category == "cudnn_missing"
    g = tmp_path / "powershell.txt"  # PowerShell's `>` writes UTF-16 with a BOM
    g.write_bytes(fixture_text("drv_insuff_onnxruntime.txt").encode("utf-16"))
    assert diagnose_file(g).matches[0].category == "driver_insufficient"


def test_one_giant_line(tmp_path):
    f = tmp_path / "oneline.txt"
    f.write_bytes(b"x" * 12_000_000 + b" CUDA driver version is insufficient for CUDA runtime version " + b"y" * 1000)
    d = diagnose_file(f)
    assert d.matches and d.matches[0].category == "driver_insufficient"
    assert d.input.chars_kept <= MAX_KEPT_CHARS
