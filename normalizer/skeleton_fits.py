"""`fits(value, spec)`: whether a body fits a skeleton (normalizer.skeleton), with the spec
compiled once into nested closures.

check() runs the skeleton test on every body before any detector, so at 100,000 messages it
visits about a million values; interpreting the spec at each value (isinstance dispatch on
the spec's class, a generator per object) was the largest single cost of check() on
OpenAI-shaped bodies. The compiled form decides the same thing (`_fits` in skeleton.py is
the reference, and tests/test_skeleton_fits.py compares them), and reads an object by its
own keys (a few) instead of by the spec's field list (up to fourteen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from typing import Any

from normalizer.skeleton import NULL, Arr, ByType, Obj, OneOf, Scalar, Spec

Fits = Callable[[Any], bool]
# id(spec) -> (spec, compiled): the spec is held so its id cannot be reused while cached.
_COMPILED: dict[int, tuple[Spec, Fits]] = {}
_CACHE_LIMIT = 256  # specs are module constants; the cap only guards against a caller
# that builds a fresh spec per call


def fits(value: Any, spec: Spec) -> bool:
    """Whether `value` fits `spec` (exactly what skeleton._fits says)."""
    hit = _COMPILED.get(id(spec))
    if hit is None or hit[0] is not spec:
        if len(_COMPILED) >= _CACHE_LIMIT:
            _COMPILED.clear()
        hit = _COMPILED[id(spec)] = (spec, compile_spec(spec))
    return hit[1](value)


def compile_spec(spec: Spec) -> Fits:
    """The spec as one function of a value."""
    if isinstance(spec, OneOf):
        if NULL in spec.options:  # `x or null`: null asked first, by identity
            rest = tuple(compile_spec(o) for o in spec.options if o != NULL)
            return _or_null(_one_of(rest)) if rest else (lambda value: value is None)
        return _one_of(tuple(compile_spec(option) for option in spec.options))
    if isinstance(spec, Arr):
        return _array(compile_spec(spec.item))
    if isinstance(spec, Obj):
        strings = frozenset(name for name, sub in spec.fields.items()
                            if isinstance(sub, Scalar) and sub.types == (str,))
        return _object(spec.required, strings, {name: compile_spec(sub)
                                                for name, sub in spec.fields.items()
                                                if name not in strings})
    if isinstance(spec, ByType):
        return _by_type({kind: compile_spec(case) for kind, case in spec.cases.items()},
                        compile_spec(spec.default))
    return _scalar(spec.types)


def _scalar(types: tuple[type, ...]) -> Fits:
    if types == (str,):
        return lambda value: type(value) is str or isinstance(value, str)
    if bool in types:
        return lambda value: isinstance(value, types)
    # JSON true is not an integer
    return lambda value: isinstance(value, types) and not isinstance(value, bool)


def _array(item: Fits) -> Fits:
    def fits_array(value: Any) -> bool:
        if type(value) is not list and not isinstance(value, list | tuple):
            return False
        return all(map(item, value))
    return fits_array


def _object(required: tuple[str, ...], strings: frozenset[str],
            fields: dict[str, Fits]) -> Fits:
    """`strings`: the fields that must be strings, tested in the loop itself (most fields
    of a body are: a function call each was a fifth of the skeleton test); `fields`: the
    others' compiled specs."""
    if not required and not strings and not fields:  # any object (tools, inline data)
        return lambda value: type(value) is dict or isinstance(value, Mapping)

    def fits_object(value: Any) -> bool:
        # dict first: the abc check of Mapping is the slow path, and bodies are dicts
        if type(value) is not dict and not isinstance(value, Mapping):
            return False
        for name in required:
            if name not in value:
                return False
        for name, item in value.items():
            if name in strings:
                if type(item) is not str and not isinstance(item, str):
                    return False
                continue
            check = fields.get(name)
            if check is not None and not check(item):
                return False
        return True
    return fits_object


def _by_type(cases: dict[str, Fits], default: Fits) -> Fits:
    def fits_by_type(value: Any) -> bool:  # as ByType.pick: the case its `type` names
        kind = value.get("type") if type(value) is dict or isinstance(value, Mapping) \
            else None  # dict first, as in fits_object
        return (cases.get(kind, default) if isinstance(kind, str) else default)(value)
    return fits_by_type


def _one_of(options: tuple[Fits, ...]) -> Fits:
    # a chain of `or`s: no generator per value (options are two or three)
    return reduce(_either, options[1:], options[0]) if options else lambda value: False


def _or_null(other: Fits) -> Fits:
    return lambda value: value is None or other(value)


def _either(first: Fits, second: Fits) -> Fits:
    return lambda value: first(value) or second(value)
