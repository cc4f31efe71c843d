"""JSON round-trip for the frozen dataclasses that flow between stages.

Every stage value (Facts, Recommendation, Plan, Verification, Diagnosis) subclasses
`Model`: `to_json()` gives plain JSON-able data, `from_json(data)` rebuilds it, checking
types loosely (unknown keys are ignored, missing keys take their defaults), so a newer
file still loads in an older wizard and the other way round.
"""
from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from typing import TYPE_CHECKING, Any, Callable, TypeVar, get_args, get_origin, get_type_hints

from app import fileio

T = TypeVar("T", bound="Model")
R = TypeVar("R", bound=type)
_HINTS: dict[type, dict[str, Any]] = {}


class ModelError(ValueError):
    """Data that cannot be turned into the model it should describe."""


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        module = sys.modules.get(cls.__module__)
        h = get_type_hints(cls, vars(module) if module else None)
        _HINTS[cls] = h
    return h


def to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    return value


def _build(tp: Any, data: Any, where: str) -> Any:
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _build(a, data, where)
            except ModelError as e:
                errors.append(str(e))
        raise ModelError(errors[0] if errors else f"{where}: unexpected value {data!r}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ModelError(f"{where}: {data!r} is not one of {get_args(tp)}")
        return data
    if origin in (tuple, list):
        if not isinstance(data, (list, tuple)):
            raise ModelError(f"{where}: expected a list, got {type(data).__name__}")
        args = get_args(tp)
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):  # tuple[str, float]: fixed
            if len(data) != len(args):
                raise ModelError(f"{where}: expected {len(args)} items, got {len(data)}")
            return tuple(_build(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
        item = args[0] if args else Any
        out = [_build(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return tuple(out) if origin is tuple else out
    if origin is dict:
        if not isinstance(data, dict):
            raise ModelError(f"{where}: expected an object, got {type(data).__name__}")
        args = get_args(tp)
        vt = args[1] if len(args) == 2 else Any
        return {str(k): _build(vt, v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ModelError(f"{where}: expected an object for {tp.__name__}, got {type(data).__name__}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = _build(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ModelError(f"{where}: missing required key {f.name!r}")
        return tp(**kwargs)
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ModelError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ModelError(f"{where}: expected an integer, got {data!r}")
        return data
    if tp in (str, bool):
        if not isinstance(data, tp):
            raise ModelError(f"{where}: expected {tp.__name__}, got {data!r}")
        return data
    return data


_COMPARED: dict[type, tuple[str, ...]] = {}
_HASHED: dict[type, tuple[str, ...]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _names(cache: dict[type, tuple[str, ...]], cls: type, flag: str) -> tuple[str, ...]:
    names = cache.get(cls)
    if names is None:
        fs = dataclasses.fields(cls)
        if flag == "hash":  # hash=None (the default) follows compare, as the generated __hash__ does
            names = tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash))
        else:
            names = tuple(f.name for f in fs if getattr(f, flag))
        cache[cls] = names
    return names


class Record:
    """Equality, hash and repr of an @record class (or a dataclass declared `eq=False, repr=False`), written once
    here instead of generated per class: each generated method is a source text compiled when its module is
    imported (issue 24). The behaviour is the generated one's: equal only to an instance of the same class whose
    compared fields are equal, the hash of the compared fields (a frozen class; a dict field makes it
    unhashable, as before), `Name(field=value, ...)`."""

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _names(_COMPARED, self.__class__, "compare")
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _names(_HASHED, self.__class__, "hash")))

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in _names(_SHOWN, self.__class__, "repr"))
        return f"{self.__class__.__qualname__}({shown})"


def _record_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """The constructor of every @record class: the generated one's arguments, defaults and TypeErrors."""
    cls = self.__class__
    spec = cls.__dict__["_record_fields"]
    if len(args) > len(spec) or (kwargs and not kwargs.keys() <= cls.__dict__["_record_names"]):
        _record_call_error(cls, spec, args, kwargs)
    put = object.__setattr__
    for i, (name, default, factory) in enumerate(spec):
        if i < len(args):
            if name in kwargs:
                raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for argument '{name}'")
            value = args[i]
        elif name in kwargs:
            value = kwargs[name]
        elif default is not dataclasses.MISSING:
            value = default
        elif factory is not dataclasses.MISSING:
            value = factory()
        else:
            _record_call_error(cls, spec, args, kwargs)
        put(self, name, value)


def _record_call_error(cls: type, spec: tuple[tuple[str, Any, Any], ...], args: tuple, kwargs: dict[str, Any]) -> None:
    """The TypeError CPython gives for a generated constructor called so (too many positional arguments, an unknown
    keyword, or the required fields that are missing), in its words."""
    where = f"{cls.__qualname__}.__init__()"
    required = [n for n, d, f in spec if d is dataclasses.MISSING and f is dataclasses.MISSING]
    if len(args) > len(spec):
        took = f"{len(spec) + 1}" if len(required) == len(spec) else f"from {len(required) + 1} to {len(spec) + 1}"
        raise TypeError(f"{where} takes {took} positional arguments but {len(args) + 1} were given")
    names = [n for n, _, _ in spec]
    for k in kwargs:
        if k not in names:
            raise TypeError(f"{where} got an unexpected keyword argument '{k}'")
    missing = [f"'{n}'" for n in required if n not in kwargs and names.index(n) >= len(args)]
    said = missing[0] if len(missing) == 1 else (" and ".join(missing) if len(missing) == 2
                                                  else ", ".join(missing[:-1]) + ", and " + missing[-1])
    s = "" if len(missing) == 1 else "s"
    raise TypeError(f"{where} missing {len(missing)} required positional argument{s}: {said}")


def _record_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field '{name}'")


def _record_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field '{name}'")


if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:  # a type checker's marker only
        return lambda f: f


@dataclass_transform(frozen_default=True, eq_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: R) -> R:
    """A frozen dataclass whose methods are written once here, not generated: `@record` is
    `@dataclass(frozen=True)` for the Facts classes and the other values detection builds (issue 24). Each
    generated method is a source text compiled when its module is imported: three per frozen class (the
    constructor, setattr, delattr), 1.2 ms a class where this costs 0.2 (the fields, `dataclasses.fields()` and
    `replace()` as before). Equality, hash and repr come from Record (subclass it); the constructor takes the
    fields in order, by position or name, with their defaults and factories, and answers the generated one's
    TypeErrors; assigning or deleting a field raises FrozenInstanceError. No __post_init__, InitVar or
    init=False field: a class that needs them uses @dataclass."""
    if not issubclass(cls, Record):
        raise TypeError(f"@record {cls.__qualname__}: subclass app.model.Record (equality, hash and repr)")
    made: Any = dataclasses.dataclass(cls, init=False, eq=False, repr=False)  # the fields; no method compiled
    fields = dataclasses.fields(made)
    if hasattr(made, "__post_init__") or any(not f.init or f.kw_only is True for f in fields):
        raise TypeError(f"@record {cls.__qualname__}: __post_init__, init=False or kw_only fields need @dataclass")
    made._record_fields = tuple((f.name, f.default, f.default_factory) for f in fields)
    made._record_names = frozenset(f.name for f in fields)
    made.__init__ = _record_init
    made.__setattr__ = _record_setattr
    made.__delattr__ = _record_delattr
    return cls


def is_frozen(cls: type) -> bool:
    """A frozen dataclass: @dataclass(frozen=True) or @record."""
    return dataclasses.is_dataclass(cls) and (cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                                              or "_record_fields" in cls.__dict__)


class Model(Record):
    """Mixin for frozen dataclasses: to_json / from_json / dumps / loads. Those made with @record
    (Facts and its parts) take equality, hash and repr from Record; the others generate their own."""

    def to_json(self) -> dict[str, Any]:
        return to_plain(self)

    @classmethod
    def from_json(cls: type[T], data: Any) -> T:
        return _build(cls, data, cls.__name__)

    def dumps(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False, sort_keys=False)

    @classmethod
    def loads(cls: type[T], text: str) -> T:
        try:
            data = fileio.loads(text)
        except json.JSONDecodeError as e:
            raise ModelError(f"not valid JSON: {e}") from None
        return cls.from_json(data)

    def replace(self: T, **changes: Any) -> T:
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]
