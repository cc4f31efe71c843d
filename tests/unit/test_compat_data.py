"""Schema and integrity tests of the compat tables in resources/compat (every row cites a
source and a check date; adding a release is adding rows)."""
import copy
import hashlib
import json
from pathlib import Path

import jsonschema
import pytest

from app.compat.db import TABLES, CompatDataError, CompatDB, read_dir_tables
from app.paths import resource

DATA = resource("compat")
SCHEMAS = DATA / "schema"


def _schema(name):
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _doc(name):
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def _errors(name, doc):
    return list(jsonschema.Draft202012Validator(_schema(name)).iter_errors(doc))


@pytest.mark.parametrize("name", TABLES)
def test_table_matches_schema(name):
    errors = _errors(name, _doc(name))
    assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


@pytest.mark.parametrize("name", TABLES)
def test_every_row_cites_a_source_and_date(name):
    for row in _doc(name)["rows"]:
        assert len(row["source"]) >= 5
        assert row["checked"][:4].isdigit()


def test_manifest_matches_files():
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    assert not _errors("manifest", manifest)
    assert set(manifest["files"]) == {f"{t}.json" for t in TABLES}
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, f"{name} changed: refresh manifest.json"


# --- planted bad rows: the schema and the loader both catch them

@pytest.mark.parametrize("name,mutate,fragment", [
    ("cuda_releases", lambda r: r.pop("source"), "source"),
    ("cuda_releases", lambda r: r.update(linux_min_driver="five hundred"), "linux_min_driver"),
    ("compute_capabilities", lambda r: r.update(kernel_module="maybe"), "kernel_module"),
    ("compute_capabilities", lambda r: r.update(checked="last week"), "checked"),
    ("pytorch_variants", lambda r: r.update(arch_list=[]), "arch_list"),
    ("pytorch_variants", lambda r: r.update(variant="cuda12"), "variant"),
    ("pytorch_releases", lambda r: r.update(default_variant={"linux": "cu130"}), "default_variant"),
    ("nvidia_repos", lambda r: r.update(url="http://example.com/"), "url"),
])
def test_schema_rejects_planted_bad_row(name, mutate, fragment):
    doc = copy.deepcopy(_doc(name))
    mutate(doc["rows"][0])
    errors = _errors(name, doc)
    assert errors
    assert any(fragment in (".".join(map(str, e.path)) + e.message) for e in errors)


def test_loader_rejects_row_without_source():
    tables, _ = read_dir_tables(Path(DATA))
    tables = copy.deepcopy(tables)
    del tables["compute_capabilities"]["rows"][3]["source"]
    with pytest.raises(CompatDataError, match=r"compute_capabilities\[3\].*source"):
        CompatDB.from_tables(tables)


def test_loader_rejects_variant_of_unknown_release():
    tables, _ = read_dir_tables(Path(DATA))
    tables = copy.deepcopy(tables)
    row = dict(tables["pytorch_variants"]["rows"][0], release="9.99")
    tables["pytorch_variants"]["rows"].append(row)
    with pytest.raises(CompatDataError, match="9.99"):
        CompatDB.from_tables(tables)


def test_loader_rejects_bad_date_and_missing_table():
    tables, _ = read_dir_tables(Path(DATA))
    bad = copy.deepcopy(tables)
    bad["cuda_releases"]["rows"][0]["checked"] = "2026/11/29"
    with pytest.raises(CompatDataError, match="checked"):
        CompatDB.from_tables(bad)
    bad = copy.deepcopy(tables)
    del bad["driver_branches"]
    with pytest.raises(CompatDataError, match="driver_branches"):
        CompatDB.from_tables(bad)


def test_every_variant_runtime_is_a_known_cuda_release():
    cuda = {r["version"] for r in _doc("cuda_releases")["rows"]}
    for v in _doc("pytorch_variants")["rows"]:
        assert v["cuda_runtime"] in cuda, (v["release"], v["variant"])


def test_every_release_has_linux_variants_and_default_exists():
    variants = _doc("pytorch_variants")["rows"]
    for rel in _doc("pytorch_releases")["rows"]:
        mine = {v["variant"] for v in variants if v["release"] == rel["release"] and v["os"] == "linux"}
        assert mine, rel["release"]
        assert rel["default_variant"]["linux"] in mine
        assert rel["default_variant"]["windows"] == "cpu"  # PyPI Windows wheels are CPU-only


def test_releases_cover_2_0_to_2_14():
    have = {r["release"] for r in _doc("pytorch_releases")["rows"]}
    assert {f"2.{i}" for i in range(15)} <= have


def test_cuda_releases_cover_11_0_to_13():
    have = {r["cuda"] for r in _doc("cuda_releases")["rows"]}
    assert {"11.0", "11.8", "12.0", "12.8", "12.9", "13.0"} <= have


@pytest.mark.parametrize("name", list(TABLES) + ["manifest"])
def test_schemas_are_valid_json_schema(name):
    jsonschema.Draft202012Validator.check_schema(_schema(name))
