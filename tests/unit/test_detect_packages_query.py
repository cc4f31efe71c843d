"""Packages are asked for by name pattern (the NVIDIA stack only); snapshots recorded with the
older full listing still replay."""
from app.detect import detect
from app.detect.packages import DPKG_ARGV, DPKG_ARGV_ALL
from app.system import SnapshotSystem, command_key

ROWS = "ii  nvidia-driver-550 550.107.02-0ubuntu1\nii  cuda-toolkit-12-4 12.4.1-1\nii  bash 5.2.21-2ubuntu4\n"


def _snap(argv, rc=0):
    return SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux",
                           "files": {"/etc/os-release": 'ID=ubuntu\nVERSION_ID="24.04"\n'},
                           "which": {"dpkg-query": "/usr/bin/dpkg-query"},
                           "commands": {command_key(argv): {"rc": rc, "stdout": ROWS, "stderr": ""}}})


def test_patterns_limit_the_query_to_the_nvidia_stack():
    assert DPKG_ARGV[:3] == DPKG_ARGV_ALL and {"cuda*", "nvidia*", "libcudnn*"} <= set(DPKG_ARGV[3:])


def test_pattern_query_with_some_patterns_unmatched_still_counts():
    names = {p.name for p in detect(_snap(DPKG_ARGV, rc=1)).cuda.packages}
    assert {"nvidia-driver-550", "cuda-toolkit-12-4"} <= names and "bash" not in names


def test_older_snapshot_with_the_full_listing_replays():
    names = {p.name for p in detect(_snap(DPKG_ARGV_ALL)).cuda.packages}
    assert {"nvidia-driver-550", "cuda-toolkit-12-4"} <= names
