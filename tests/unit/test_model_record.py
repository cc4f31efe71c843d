"""app.model.Record and @record: equality, hash, repr and the frozen constructor written once for the Facts classes
and the other values detection builds (issue 24), where dataclasses compiles them per class at import. Each is
checked against the methods dataclasses generates for the same fields, so the shortcut cannot change what a
constructor, `==`, `hash` or `repr` answer anywhere."""
import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Optional

import pytest

from app import facts as F
from app.lazy_re import compile_later
from app.model import Record, is_frozen, record


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


@record
class Made(Record):
    name: str
    size: float = 0.0
    tags: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)
    note: Optional[str] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class MadeGenerated:
    name: str
    size: float = 0.0
    tags: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)
    note: Optional[str] = field(default=None, compare=False, repr=False)


def _outcome(cls, args, kwargs):
    try:
        v = cls(*args, **kwargs)
    except TypeError as e:
        return "TypeError", str(e).replace(cls.__qualname__, "C")
    return "ok", tuple(getattr(v, f.name) for f in dataclasses.fields(v))


CALLS = [((), {}), (("a",), {}), (("a", 2.0, ("t",), {"k": "v"}, "n"), {}), (("a", 2.0, ("t",), {}, "n", 9), {}),
         ((), {"name": "a", "note": "n"}), (("a",), {"name": "b"}), (("a",), {"colour": "red"}), ((), {"size": 1.0}),
         (("a", 1.0), {"extra": {"x": "y"}, "tags": ()}), ((), {"colour": "red", "name": "b"})]


@record
class Three(Record):
    a: int
    b: int
    c: int


@dataclass(frozen=True)
class ThreeGenerated:
    a: int
    b: int
    c: int


@pytest.mark.parametrize("args,kwargs", [((), {}), ((1,), {}), ((), {"b": 2}), ((1, 2), {}), ((1, 2, 3, 4), {}),
                                         ((1, 2, 3), {}), ((1,), {"a": 1, "c": 3})])
def test_record_answers_the_generated_errors_for_several_required_fields(args, kwargs):
    assert _outcome(Three, args, dict(kwargs)) == _outcome(ThreeGenerated, args, dict(kwargs))


@pytest.mark.parametrize("args,kwargs", CALLS)
def test_record_constructs_as_the_generated_constructor(args, kwargs):
    assert _outcome(Made, args, dict(kwargs)) == _outcome(MadeGenerated, args, dict(kwargs))


def test_record_is_frozen_has_fresh_factories_and_keeps_fields_and_replace():
    a, b = Made("a"), Made("a")
    assert a.extra == {} and a.extra is not b.extra and a == b and hash(Three(1, 2, 3)) == hash(Three(1, 2, 3))
    for attempt in (lambda: setattr(a, "name", "b"), lambda: delattr(a, "name"), lambda: setattr(a, "new", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            attempt()
    assert [f.name for f in dataclasses.fields(Made)] == ["name", "size", "tags", "extra", "note"]
    c = dataclasses.replace(a, size=3.0)
    assert (c.name, c.size, a.size) == ("a", 3.0, 0.0) and repr(c) == "Made(name='a', size=3.0, tags=(), extra={})"
    assert is_frozen(Made) and is_frozen(MadeGenerated) and not is_frozen(Record)
    assert all("__init__" not in vars(cls) or vars(cls)["__init__"] is vars(Made)["__init__"]
               for cls in (F.Gpu, F.Facts, F.Finding))


def test_record_refuses_what_its_constructor_cannot_do():
    with pytest.raises(TypeError, match="subclass app.model.Record"):
        record(type("Plain", (), {"__annotations__": {"x": "int"}}))
    with pytest.raises(TypeError, match="need @dataclass"):
        record(type("Later", (Record,), {"__annotations__": {"x": "int"}, "__post_init__": lambda self: None}))
    with pytest.raises(TypeError, match="need @dataclass"):
        record(type("Hidden", (Record,), {"__annotations__": {"x": "int"}, "x": field(default=0, init=False)}))
