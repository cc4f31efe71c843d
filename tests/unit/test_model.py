"""The JSON round-trip every stage value relies on (app/model.py)."""
from dataclasses import dataclass, field
from typing import Literal, Optional

import pytest

from app.model import Model, ModelError


@dataclass(frozen=True)
class Inner(Model):
    name: str
    size_mib: float = 0.0


@dataclass(frozen=True)
class Outer(Model):
    items: tuple[Inner, ...] = ()
    pairs: tuple[tuple[str, float], ...] = ()  # fixed-length tuples inside a variable one
    kind: Literal["a", "b"] = "a"
    maybe: Optional[int] = None
    extra: dict[str, str] = field(default_factory=dict)


def test_round_trip_with_fixed_and_variable_tuples():
    v = Outer(items=(Inner("x", 1.5),), pairs=(("420", 102922.24), ("7", 3.0)), kind="b", maybe=3, extra={"k": "v"})
    assert Outer.loads(v.dumps()) == v


def test_ints_are_accepted_for_floats_and_unknown_keys_ignored():
    assert Outer.from_json({"pairs": [["1", 2]], "future_key": 1}).pairs == (("1", 2.0),)


@pytest.mark.parametrize("bad, where", [
    ({"pairs": [["1", 2, 3]]}, "expected 2 items"),
    ({"pairs": [[1, 2.0]]}, "expected str"),
    ({"kind": "c"}, "is not one of"),
    ({"items": [{"size_mib": 1}]}, "missing required key 'name'"),
    ({"maybe": "three"}, "expected an integer"),
])
def test_bad_data_names_where_it_is_wrong(bad, where):
    with pytest.raises(ModelError, match=where):
        Outer.from_json(bad)
