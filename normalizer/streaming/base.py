"""What the four protocol assemblers share: the origin, the event counter, the problem list,
and `feed` (count the event, turn an SDK object into JSON, run the protocol's handler with
any shape error kept as a malformed-event problem)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer.streaming.result import StreamProblem, StreamResult, as_event, guarded


class BaseAssembler:
    """Subclasses set `protocol` and implement `_handle(event, where)` and `result()`."""

    protocol: str = ""

    def __init__(self, *, origin: str | None = None) -> None:
        self._origin = origin
        self._count = 0
        self._problems: list[StreamProblem] = []

    def feed(self, event: Any) -> None:
        """Take the next event of the stream (a dict or an SDK event object)."""
        where = f"events[{self._count}]"
        self._count += 1
        guarded(self._problems, where, self._handle, as_event(event))

    def _handle(self, event: Mapping[str, Any], where: str) -> None:
        raise NotImplementedError

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""
        raise NotImplementedError
