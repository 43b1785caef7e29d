"""Running a schedule of passes in rounds until one changes nothing, with the confirming
rounds skipping what they can prove unchanged.

A *local* pass decides message by message whether it has anything to do: it finds nothing
to do in a history exactly when it finds nothing to do in each of its messages alone (with
the same profile, policy, tools and options, whatever the id and name maps); and it is
idempotent (it finds nothing to do in its own output). Repairs made one message at a time
are local (fill_empty_content), and so are repairs whose need is read off each message
although the repair itself is global (rewrite_tool_call_ids: nothing to do unless some id
is rejected). tests/test_pass_rounds.py checks both properties for every pass marked local.

So after a local pass has run, every message of its output is settled for it. In a later
round it need only look at the messages other passes made since (new objects: messages
never change, so identity says "the same message"; looking at a few settled ones too is
harmless), and only where the draft's other fields
are still the same objects. Where those few messages give it nothing to do, the whole
history gives it nothing to do, and the pass is skipped; otherwise it runs as usual, so its
changes (and their places) are exactly what the plain round reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from normalizer.model import Change, History, Message
from normalizer.passes._stretches import stretches
from normalizer.passes.draft import Draft, Pass, Policy
from normalizer.profiles import Profile


@dataclass(frozen=True, slots=True)
class Settled:
    """The messages a local pass last left settled (kept alive, so that their ids stay
    theirs) and the other draft fields it read them with."""

    messages: tuple[Message, ...]
    context: tuple[object, ...]


def _context(draft: Draft) -> tuple[object, ...]:
    # Not the id and name maps: passes extend them but never read them to decide whether
    # there is something to do (tests/test_pass_rounds.py checks), and the id passes
    # extend them before most local passes run.
    return (draft.tools, draft.options, draft.history.extras)


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return all(x is y for x, y in zip(a, b, strict=True))


def _settle(draft: Draft, last: Settled | None) -> Settled:
    """What `draft` settles; `last` again where it is for the same messages and fields (the
    passes that change nothing hand on the same tuple: one id set serves them all)."""
    messages, context = draft.history.messages, _context(draft)
    if last is not None and last.messages is messages and _same(last.context, context):
        return last
    return Settled(messages, context)


class _Ids:
    """The ids of the messages of each tuple asked about, as a list and (where asked) a
    set, each made once per tuple: several local passes compare with one settled tuple,
    and one tuple with several settled ones. Holds the tuples, so that their ids stay
    theirs."""

    def __init__(self) -> None:
        self._lists: dict[int, tuple[tuple[Message, ...], list[int]]] = {}
        self._sets: dict[int, tuple[tuple[Message, ...], set[int]]] = {}

    def listed(self, messages: tuple[Message, ...]) -> list[int]:
        """The id of each message, in order."""
        hit = self._lists.get(id(messages))
        if hit is None or hit[0] is not messages:
            hit = self._lists[id(messages)] = (messages, list(map(id, messages)))
        return hit[1]

    def held(self, messages: tuple[Message, ...]) -> set[int]:
        """The ids of the messages, as a set."""
        hit = self._sets.get(id(messages))
        if hit is None or hit[0] is not messages:
            hit = self._sets[id(messages)] = (messages, set(self.listed(messages)))
        return hit[1]


def _nothing_new(run: Pass, draft: Draft, profile: Profile, policy: Policy,
                 settled: Settled | None, fresh: dict[int, tuple[Settled, tuple[Message, ...],
                                                              tuple[Message, ...]]],
                 ids: _Ids) -> bool:
    """Whether local pass `run` provably finds nothing to do in `draft`. `fresh` remembers,
    per settled set, the messages found new in the last tuple (local passes in a row that
    change nothing share their settled set and their tuple: one filtering serves them)."""
    if settled is None or not _same(settled.context, _context(draft)):
        return False
    messages = draft.history.messages
    if settled.messages is messages:
        return True
    known = fresh.get(id(settled))
    if known is not None and known[0] is settled and known[1] is messages:
        new = known[2]
    else:
        new = _not_in(messages, settled.messages, ids)
        fresh[id(settled)] = (settled, messages, new)
    if not new:
        return True
    sub = replace(draft, history=History(new, draft.history.extras))
    return not run(sub, profile, policy)[1]


def _not_in(messages: tuple[Message, ...], settled: tuple[Message, ...], ids: _Ids
            ) -> tuple[Message, ...]:
    """The messages of `messages` that `settled` does not hold, in order, and perhaps a few it
    does (`stretches` may pass over one): those give the pass nothing to do, so looking at
    them again changes no verdict. A set of every settled message's id, asked for each
    message, cost more per message at 100,000 messages than at 10,000 (cache misses)."""
    found = stretches(ids.listed(messages), ids.listed(settled))
    if found is None:  # most messages are new: the set is the cheaper way
        held = ids.held(settled)
        return tuple([m for m in messages if id(m) not in held])
    new: list[Message] = []
    at = 0
    for start, end, _ in found:
        new.extend(messages[at:start])
        at = end
    new.extend(messages[at:])
    return tuple(new)


def run_rounds(draft: Draft, profile: Profile, policy: Policy,
               steps: Sequence[tuple[Pass, bool]],
               max_rounds: int) -> tuple[Draft, list[Change]]:
    """Run `steps` (each a pass and whether it is local) in order, round after round, until a
    round changes nothing or `max_rounds` have run; the draft and every change, in order."""
    changes: list[Change] = []
    settled: dict[int, Settled] = {}
    last: Settled | None = None
    fresh: dict[int, tuple[Settled, tuple[Message, ...], tuple[Message, ...]]] = {}
    ids = _Ids()
    for _ in range(max_rounds):
        found: list[Change] = []
        for k, (run, local) in enumerate(steps):
            if local and _nothing_new(run, draft, profile, policy, settled.get(k), fresh,
                                      ids):
                settled[k] = last = _settle(draft, last)
                continue
            draft, made = run(draft, profile, policy)
            found.extend(made)
            if local:
                settled[k] = last = _settle(draft, last)
        changes.extend(found)
        if not found:
            break
    return draft, changes
