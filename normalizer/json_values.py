"""Frozen JSON values: the immutable, hashable form the neutral model keeps every JSON object
and array in (`JsonMap`, tuples), and the way in and out (`freeze`, `thaw`)."""

from __future__ import annotations

import json
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any

# JSON leaves, which freeze and thaw return as they are: tested by exact type first, so that
# the common value costs no call (subclasses still take the general path).
_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None)})


class JsonMap(Mapping[str, Any]):
    """An immutable, hashable JSON object whose key order is kept (it matters on the wire)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = {
            str(k): v if type(v) in _LEAVES else freeze(v) for k, v in (data or {}).items()}
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # The Mapping mixins would go through __getitem__ and Python-level views: these read the
    # dict directly (renderers and passes call them for every part of a long history).
    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default`."""
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def keys(self) -> KeysView[str]:
        """The keys, in order."""
        return self._data.keys()

    def items(self) -> ItemsView[str, Any]:
        """The (key, value) pairs, in order."""
        return self._data.items()

    def values(self) -> ValuesView[Any]:
        """The values, in order."""
        return self._data.values()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == {k: freeze(v) for k, v in other.items()}
        return NotImplemented

    def __repr__(self) -> str:
        return f"JsonMap({self._data!r})"

    def thaw(self) -> dict[str, Any]:
        """A plain, mutable copy (dicts and lists all the way down)."""
        return {k: v if type(v) in _LEAVES else thaw(v) for k, v in self._data.items()}

    def merged(self, **updates: Any) -> JsonMap:
        """A copy with `updates` set (added at the end when new)."""
        return JsonMap({**self._data, **updates})

    def without(self, *keys: str) -> JsonMap:
        """A copy without `keys`."""
        return JsonMap({k: v for k, v in self._data.items() if k not in keys})


EMPTY = JsonMap()


def value_at(value: Any, path: tuple[str, ...]) -> Any:
    """The value at `path` (keys of nested objects) in a JSON value, or None where a key is
    missing or a step is not an object."""
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def set_at(out: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    """Put `value` at `path` in the plain dict `out`, making the nested objects on the way
    (the writing counterpart of value_at; `out` is changed in place)."""
    for key in path[:-1]:
        out = out.setdefault(key, {})
    out[path[-1]] = value


def freeze(value: Any) -> Any:
    """JSON value -> immutable equivalent (dict -> JsonMap, list -> tuple)."""
    if isinstance(value, JsonMap):
        return value
    if isinstance(value, Mapping):
        return JsonMap(value)
    if isinstance(value, list | tuple):
        return tuple([v if type(v) in _LEAVES else freeze(v) for v in value])
    return value


def thaw(value: Any) -> Any:
    """Inverse of `freeze`: JsonMap -> dict, tuple -> list, recursively."""
    if isinstance(value, JsonMap):
        return value.thaw()
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [v if type(v) in _LEAVES else thaw(v) for v in value]
    return value


class CompactEncoder(json.JSONEncoder):
    """`json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=...)` for JSON
    and frozen values (JsonMap objects, tuples), the same bytes, with the C encoder made
    once: `JSONEncoder.encode` makes a new one on every call, a profiled cost when every
    tool call of a long history is encoded."""

    def __init__(self, *, sort_keys: bool = False) -> None:
        super().__init__(ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys,
                         default=_plain)
        make = json.encoder.c_make_encoder
        # markers None: no circularity check (a frozen value cannot hold itself)
        self._c = None if make is None else make(
            None, _plain, json.encoder.encode_basestring, None, ":", ",", sort_keys, False, True)

    def encode(self, o: Any) -> str:
        """`o` as compact JSON text."""
        if self._c is None:  # an interpreter without the C accelerator: the plain way
            return super().encode(o)
        return "".join(self._c(o, 0))


def _plain(value: Any) -> Any:
    """A JsonMap for the encoder (which writes tuples as lists already)."""
    if isinstance(value, Mapping):
        return value._data if isinstance(value, JsonMap) else dict(value.items())
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
