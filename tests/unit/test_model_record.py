"""app.model.Record: equality, hash and repr written once for the dataclasses declared eq=False, repr=False (the
Facts classes, issue 24). Each is checked against the methods dataclasses generates for the same fields, so the
shortcut cannot change what `==`, `hash` or `repr` answer anywhere."""
import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Optional

import pytest

from app import facts as F
from app.lazy_re import compile_later
from app.model import Record


@dataclass(frozen=True, eq=False, repr=False)
class Mine(Record):
    name: str
    size: float = 0.0
    tags: tuple[str, ...] = ()
    note: Optional[str] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Generated:
    name: str
    size: float = 0.0
    tags: tuple[str, ...] = ()
    note: Optional[str] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, eq=False, repr=False)
class Sibling(Record):
    name: str
    size: float = 0.0
    tags: tuple[str, ...] = ()
    note: Optional[str] = field(default=None, compare=False, repr=False)


NAN = math.nan
CASES = [("a", 1.0, ("x",), None), ("a", 1.0, ("x",), "other note"), ("b", 1.0, ("x",), None), ("a", 2.0, (), None),
         ("a", NAN, (), None)]


@pytest.mark.parametrize("left", CASES)
@pytest.mark.parametrize("right", CASES)
def test_equality_and_hash_are_the_generated_ones(left, right):
    mine, gen = (Mine(*left), Mine(*right)), (Generated(*left), Generated(*right))
    assert (mine[0] == mine[1]) == (gen[0] == gen[1])
    assert (mine[0] != mine[1]) == (gen[0] != gen[1])
    if gen[0] == gen[1]:
        assert hash(mine[0]) == hash(mine[1])
    assert repr(mine[0]) == repr(gen[0]).replace("Generated(", "Mine(")


def test_the_same_instance_with_nan_equals_itself_as_generated():
    m, g = Mine("a", NAN), Generated("a", NAN)
    assert (m == m) is (g == g) is True
    two = float("nan"), float("nan")  # two NaN objects: unequal, as generated (one object: equal, by identity)
    assert (Mine("a", two[0]) == Mine("a", two[1])) is (Generated("a", two[0]) == Generated("a", two[1])) is False


def test_another_class_with_the_same_fields_is_never_equal():
    assert Mine("a") != Sibling("a") and Mine("a") != Generated("a") and (Mine("a") == ("a", 0.0, ())) is False
    assert Mine("a").__eq__(Sibling("a")) is NotImplemented


def test_still_frozen_and_a_dict_field_still_unhashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Mine("a").name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(F.Finding(code="c", severity="info", message="m", params={"k": "v"}))


def test_facts_classes_use_record_and_keep_their_meaning():
    for cls in (F.Gpu, F.DriverInfo, F.OsInfo, F.CudaInfo, F.EnvInfo, F.PythonEnv, F.Facts):
        assert "__eq__" not in vars(cls) and "__repr__" not in vars(cls) and issubclass(cls, Record), cls
    g = F.Gpu(index=0, name="NVIDIA H200", compute_capability="9.0")
    assert g == F.Gpu(index=0, name="NVIDIA H200", compute_capability="9.0") != g.replace(index=1)
    assert repr(g).startswith("Gpu(index=0, name='NVIDIA H200', pci_id=None,")
    assert len({g, g.replace(), g.replace(index=1)}) == 2
    facts = F.Facts(gpus=(g,))
    assert F.Facts.loads(facts.dumps()) == facts and facts != F.Facts()


def test_compile_later_compiles_on_first_use_and_answers_as_re():
    p = compile_later(r"(\d+)\s*MiB", re.I)
    assert p._compiled is None  # type: ignore[attr-defined]
    assert p.search("12 mib / 80 MiB").group(1) == "12"
    assert p._compiled is re.compile(r"(\d+)\s*MiB", re.I)  # type: ignore[attr-defined]
    assert p.sub("N", "1 MiB, 2 MiB") == "N, N" and p.pattern == r"(\d+)\s*MiB" and p.flags & re.I
    with pytest.raises(re.error):
        compile_later("(unclosed").match("x")


def test_detection_through_nvml_and_sysfs_compiles_no_fallback_pattern(monkeypatch):
    from app.detect import pci, smi

    monkeypatch.setattr(smi, "_GPU_ROW", compile_later(smi._GPU_ROW.pattern))
    monkeypatch.setattr(pci, "_LSPCI", compile_later(pci._LSPCI.pattern))
    from app.detect import detect
    from app.system import SnapshotSystem

    facts = detect(SnapshotSystem.load("tests/fixtures/real/h200/snapshot-h200.json"))  # recorded on the H200
    assert facts.gpus and facts.gpus[0].source == "nvml"
    assert any(p.name == "sysfs_pci" and p.status == "ok" for p in facts.probes)
    assert smi._GPU_ROW._compiled is None and pci._LSPCI._compiled is None  # type: ignore[attr-defined]
