"""Checksum sources and local-file downloads (the HTTP resume path is in tests/integration)."""
from __future__ import annotations

import hashlib
import subprocess

import pytest

from app.run.downloads import DownloadError, download, parse_packages_checksum, parse_sums
from tests.conftest import FIXTURES


def test_packages_index_checksum_from_debians_real_index():
    text = (FIXTURES / "run" / "debian-bookworm-Packages-excerpt.txt").read_text()
    assert parse_packages_checksum(text, "dpkg_1.21.23_amd64.deb") == "f89e9f8d1a4a50ade44be3ed59a6ec55460fce205d2f8520c5c492137c5b609b"
    assert parse_packages_checksum(text, "gzip_1.12-1_amd64.deb") == "eabec1dde2834f72540d7b93fc5df2625f52611c06d93d61f5cdb12480e0e6a3"
    assert parse_packages_checksum(text, "cuda-keyring_1.1-1_all.deb") is None


def test_sums_files_made_by_the_real_tools(tmp_path):
    f = tmp_path / "cuda_12.8.1_570.124.06_linux.run"
    f.write_bytes(b"#!/bin/sh\necho test\n")
    md5 = subprocess.run(["md5sum", f.name], cwd=tmp_path, capture_output=True, text=True).stdout
    sha = subprocess.run(["sha256sum", "-b", f.name], cwd=tmp_path, capture_output=True, text=True).stdout
    assert parse_sums(md5, f.name) == hashlib.md5(f.read_bytes()).hexdigest()
    assert parse_sums(sha, f.name) == hashlib.sha256(f.read_bytes()).hexdigest()  # "*name" form
    nested = md5.replace(f.name, "local_installers/" + f.name)
    assert parse_sums(nested, f.name) is not None and parse_sums(md5, "other.run") is None


def test_file_url_download_verified_by_md5_sums(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    payload = b"x" * 100_000
    (src / "cuda_test.run").write_bytes(payload)
    (src / "md5sum.txt").write_text(f"{hashlib.md5(payload).hexdigest()}  local_installers/cuda_test.run\n")
    r = download(f"file://{src}/cuda_test.run", tmp_path / "dl" / "cuda_test.run", checksum_url=f"file://{src}/md5sum.txt")
    assert r.verified_by == "md5 (md5sum.txt)" and r.sha256 == hashlib.sha256(payload).hexdigest()
    # a finished file is verified again, not fetched again
    again = download(f"file://{src}/cuda_test.run", tmp_path / "dl" / "cuda_test.run", checksum_url=f"file://{src}/md5sum.txt")
    assert again.path == r.path and again.resumed_from == 0


def test_refusals_are_clear(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    with pytest.raises(DownloadError, match="no published checksum"):
        download(f"file://{tmp_path}/f", tmp_path / "o")
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(f"file://{tmp_path}/f", tmp_path / "o", sha256="0" * 64)
    assert not (tmp_path / "o").exists() and not (tmp_path / "o.part").exists()
    with pytest.raises(DownloadError, match="only https, http and file"):
        download("ftp://example.invalid/f", tmp_path / "o", sha256="0" * 64)
    with pytest.raises(DownloadError, match="cannot read"):
        download(f"file://{tmp_path}/missing", tmp_path / "o", sha256="0" * 64)
    with pytest.raises(DownloadError, match="not enough free disk space"):
        download(f"file://{tmp_path}/f", tmp_path / "o", sha256=hashlib.sha256(b"abc").hexdigest(), min_free_mib=10**9)
