"""The compiled skeleton test (normalizer/skeleton_fits.py) decides exactly what the
interpreted one (skeleton._fits) decides, on values built near each protocol's skeleton
with random deviations (wrong types, booleans for integers, missing required keys, extra
keys, tuples, non-dict mappings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from conformance.emulator.shape import SCHEMAS
from normalizer.skeleton import (
    BOOL,
    HISTORY,
    INT,
    Arr,
    ByType,
    Obj,
    OneOf,
    Scalar,
    Spec,
    _fits,
)
from normalizer.skeleton_fits import fits


def _nodes(spec: Spec) -> list[Spec]:
    """The spec and every spec inside it (each is also tested alone, at full strength)."""
    inner: list[Spec] = []
    if isinstance(spec, OneOf):
        inner = list(spec.options)
    elif isinstance(spec, Arr):
        inner = [spec.item]
    elif isinstance(spec, Obj):
        inner = list(spec.fields.values())
    elif isinstance(spec, ByType):
        inner = [*spec.cases.values(), spec.default]
    return [spec, *(n for sub in inner for n in _nodes(sub))]


SPECS: tuple[Spec, ...] = tuple({id(n): n for top in (*HISTORY.values(), *SCHEMAS.values())
                                 for n in _nodes(top)}.values())
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False),
                   st.text(max_size=3))
ANY_JSON = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["type", "x", "role"]),
                                                 inner, max_size=3)), max_leaves=6)


class _Frozen(Mapping[str, Any]):
    """A mapping that is not a dict (check() takes any Mapping)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Any:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _typed(drawn: tuple[Any, str]) -> Any:
    value, kind = drawn
    return {**value, "type": kind} if isinstance(value, dict) else value


# One strategy per (spec, depth): `near` weights the shaped branch twice, and building it
# twice at every level made the strategy tree exponential in depth (1.4 s per collection).
_NEAR: dict[tuple[int, int], st.SearchStrategy[Any]] = {}


def near(spec: Spec, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values that mostly follow `spec`, sometimes not."""
    if depth >= 8:
        return ANY_JSON
    key = (id(spec), depth)
    if key not in _NEAR:
        shaped = _shaped(spec, depth)
        _NEAR[key] = st.one_of(shaped, shaped, ANY_JSON)
    return _NEAR[key]


def _shaped(spec: Spec, depth: int) -> st.SearchStrategy[Any]:
    if isinstance(spec, OneOf):
        return st.one_of(*(near(o, depth + 1) for o in spec.options))
    if isinstance(spec, ByType):  # each case's shape, under its own type or another's
        kinds = st.sampled_from([*spec.cases, "other"])
        return st.one_of(*(st.tuples(near(o, depth + 1), kinds).map(_typed)
                           for o in (*spec.cases.values(), spec.default)))
    if isinstance(spec, Arr):
        items = st.lists(near(spec.item, depth + 1), max_size=3)
        return st.one_of(items, items.map(tuple))
    if isinstance(spec, Obj):
        keys = [*spec.required, *spec.fields]
        body = st.fixed_dictionaries({}, optional={
            k: near(spec.fields[k], depth + 1) if k in spec.fields else ANY_JSON
            for k in keys}) if keys else st.dictionaries(st.text(max_size=2), ANY_JSON,
                                                          max_size=2)
        return st.one_of(body, body.map(_Frozen))
    assert isinstance(spec, Scalar)
    return st.one_of(LEAVES, st.sampled_from([True, False, 1, "s", None]))


# CI depth: 25 examples reach every line and branch of skeleton.py and skeleton_fits.py that
# 50 did (coverage, 2026-11-23); the thorough depth draws 100 anew (tests/sizing.py).
@settings(max_examples=examples(25, 100), deadline=None)
@given(st.tuples(*(near(spec) for spec in SPECS)))
def test_compiled_fits_agrees_with_the_interpreted_skeleton(values: tuple[Any, ...]) -> None:
    for spec, value in zip(SPECS, values, strict=True):
        assert fits(value, spec) is _fits(value, spec)


def test_every_builtin_spec_accepts_a_valid_body() -> None:
    assert fits({"messages": [{"role": "user", "content": "hi"}]}, HISTORY["openai_chat"])
    assert not fits({"messages": [{"role": 3}]}, HISTORY["openai_chat"])
    assert not fits({"messages": [{"role": "user", "content": True}]}, HISTORY["anthropic"])
    assert not fits(True, INT) and fits(3, INT) and fits(True, BOOL)
    # a Responses item is checked by the case its type names (ByType)
    assert not fits({"input": [{"type": "function_call", "arguments": 3}]},
                    HISTORY["openai_responses"])
    assert fits({"input": [{"type": "tool_search_call", "arguments": 3}]},
                HISTORY["openai_responses"])
