"""The call and result ids of the last message tuple an id pass worked out, per thread.

Three passes need every id of a history in a row (dedupe_tool_call_ids and
assign_missing_call_ids to pick new ids that collide with none, rewrite_tool_call_ids to
tell that every id is accepted), and each walk of a 100,000-message history costs ~50 ms.
A pass that changed ids knows the ids of the tuple it hands on (the set it kept to avoid
collisions: dedupe gathers them in the walk that finds the repeated ones), so it leaves
that set here for the next one. A tuple and its messages never
change, so identity is a safe key; the set is exact, never a superset.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from normalizer.model import Message

_LAST = threading.local()


def id_set(messages: Sequence[Message]) -> set[str]:
    """Every call and result id of `messages`, walked."""
    ids = {c.id for m in messages for c in m.tool_calls}
    ids.update(r.call_id for m in messages for r in m.tool_results)
    ids.discard(None)  # type: ignore[arg-type]
    return ids  # type: ignore[return-value]


def known_ids(messages: tuple[Message, ...], *, mine: bool = False) -> set[str]:
    """`id_set(messages)`, from memory when the last pass left it for this very tuple. The
    remembered set is shared: pass `mine=True` to get a set of your own to add to."""
    last: tuple[tuple[Message, ...], set[str]] | None = getattr(_LAST, "ids", None)
    if last is not None and last[0] is messages:
        return set(last[1]) if mine else last[1]
    return id_set(messages)


def remembered_ids(messages: tuple[Message, ...]) -> set[str] | None:
    """The ids the last pass left for this very tuple, if it did (not to be changed)."""
    last: tuple[tuple[Message, ...], set[str]] | None = getattr(_LAST, "ids", None)
    return last[1] if last is not None and last[0] is messages else None


def remember_ids(messages: tuple[Message, ...], ids: set[str]) -> None:
    """Keep `ids`, which must be exactly `id_set(messages)` and not change again, for the
    next pass that asks about `messages`."""
    _LAST.ids = (messages, ids)


def forget_ids() -> None:
    """Drop this thread's remembered ids (and the tuple they belong to)."""
    _LAST.ids = None
