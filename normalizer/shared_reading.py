"""One reading of a body per `check()` call, shared by the detectors.

Each detector is a small pure function of the body, but many of them need the same reading
(the messages that are objects, their roles, the blocks of each turn, the call blocks):
computed by each, a 100,000-message body was walked a dozen times, and the lists of tuples
each walk built kept the garbage collector busy re-scanning the body (half of check()'s time
on Anthropic bodies). A function decorated with `@shared` is computed once per body while
`one_check()` is open (check() opens it around its detectors) and returns the same object
to every caller; outside it (a detector called alone, in a test) it is simply called.
Values returned by a shared reading are read-only: tuples, never lists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")
# (reading, id(body)) -> (body, value); the body is held so its id is not reused meanwhile.
# A ContextVar, so threads (the emulator's server) each have their own.
_MEMO: ContextVar[dict[tuple[Any, int], tuple[Any, Any]] | None] = ContextVar(
    "check_memo", default=None)


@contextmanager
def one_check() -> Iterator[None]:
    """Within: each `@shared` reading is computed once per body, then forgotten on exit."""
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def shared(read: Callable[[Any], T]) -> Callable[[Any], T]:
    """`read(body)`, computed once per body within `one_check()`."""
    @wraps(read)
    def once(body: Any) -> T:
        memo = _MEMO.get()
        if memo is None:
            return read(body)
        key = (read, id(body))
        hit = memo.get(key)
        if hit is not None and hit[0] is body:
            return hit[1]
        value = read(body)
        memo[key] = (body, value)
        return value
    return once


class Rows:
    """A read-only table kept as columns, read as row tuples (`for i, j, block in rows`).

    A shared reading lives through all of check(), so what it is made of matters: a tuple
    per row (a few hundred thousand at 100,000 messages) outlives the young generations
    and sets off full collections, each of which re-scans the whole body; a handful of
    columns does not, whatever the number of rows.
    """

    __slots__ = ("columns",)

    def __init__(self, *columns: Sequence[Any]) -> None:
        self.columns = columns

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return zip(*self.columns, strict=True)

    def __reversed__(self) -> Iterator[tuple[Any, ...]]:
        return zip(*(reversed(c) for c in self.columns), strict=True)

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def __getitem__(self, k: int) -> tuple[Any, ...]:
        return tuple(c[k] for c in self.columns)

    def between(self, start: int, stop: int) -> Rows:
        """Rows start..stop-1."""
        return Rows(*(c[start:stop] for c in self.columns))
