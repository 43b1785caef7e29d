"""Pairing passes: every tool call answered once, every tool result answering a call.

A *call turn* is an assistant message holding tool calls; its *answer block* is the run of
tool messages right after it. Results pair with calls of the call turn right before their
block: by id, or (for Gemini calls without ids) by tool name in order. The block queries
(shared with `ordering.py`) are in `_blocks.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from normalizer.model import Change, Message, Opaque, Part, Text, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import (
    Block,
    Slot,
    answers,
    block_matches,
    describe_result,
    pairing,
    tools_end,
    with_parts,
)
from normalizer.passes._known_ids import id_set, remember_ids
from normalizer.profiles import Profile
from normalizer.protocols import output_answers

# The rules drop_orphan_tool_results fixes: a profile enforcing none of them takes a result
# whose call is not right before it (assign_missing_call_ids reads this too).
ORPHAN_RULES = ("orphan-tool-result", "function-response-count", "tool-result-count-mismatch",
                "duplicate-tool-result", "tool-result-id-mismatch")


def drop_orphan_tool_results(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool results whose call is not in the call turn right before them (orphans), and
    second results for a call already answered.

    Rejected by: OpenAI "Invalid parameter: messages with role 'tool' must be a response to a
    preceeding message with 'tool_calls'."; Anthropic "unexpected `tool_use_id` found in
    `tool_result` blocks"; Gemini "Please ensure that function response turn comes
    immediately after a function call turn." — see the profiles' texts.

    Before: [user "hi", tool(result call_9)]        (no call call_9 anywhere before)
    After (policy keep-as-text, lossless but for structure):
            [user "hi", user "[result for call call_9 with no matching call right before it] 18C"]
    After (policy drop, lossy): [user "hi"]

    Runs after `move_results_next_to_calls`, so a result that can be moved home is moved,
    not dropped. Never removes a message holding user text: a tool message left without
    results keeps its text as a user message.
    """
    messages = draft.history.messages
    orphans = {slot for slot in pairing(messages).orphans()
               if not _answers_item(messages, slot)}
    if not orphans:
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    spill: list[Message] = []  # text that cannot stay in the block goes right after it
    touched = {m for m, _ in orphans}
    for m, message in enumerate(messages):
        if m not in touched and not spill and (
                message.role != "tool" or message.tool_results):
            out.append(message)  # nothing to split, nothing to spill: shared as it is
            continue
        kept, texts = _split(message, m, orphans, policy, changes)
        if message.role == "tool" and not any(isinstance(p, ToolResult) for p in kept):
            texts = [p for p in kept if isinstance(p, Text)] + texts
            kept = []
        if kept or message.role != "tool":
            out.append(with_parts(message, kept))
        if texts:
            spill.append(Message("user", tuple(texts)))
        if spill and not (m + 1 < len(messages) and messages[m + 1].role == "tool"):
            out.extend(spill)
            spill = []
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _answers_item(messages: tuple[Message, ...], slot: Slot) -> bool:
    """Whether the result at `slot`, which answers no call, answers an item kept verbatim in
    the turn right before its tool run whose output the vendor takes as a tool result (a
    Responses tool_search_call the client executes: `protocols.output_answers`)."""
    m, p = slot
    result = messages[m].parts[p]
    while m > 0 and messages[m - 1].role == "tool":
        m -= 1
    return m > 0 and isinstance(result, ToolResult) and any(
        isinstance(part, Opaque) and output_answers(part.data) == result.call_id
        for part in messages[m - 1].parts)


def _split(message: Message, m: int, orphans: set[Slot], policy: Policy,
           changes: list[Change]) -> tuple[list[Part], list[Text]]:
    """The parts that stay, and the orphans' texts (keep-as-text) that go after the block."""
    kept: list[Part] = []
    texts: list[Text] = []
    for p, part in enumerate(message.parts):
        if (m, p) not in orphans:
            kept.append(part)
            continue
        assert isinstance(part, ToolResult)
        changes.append(_orphan_change(part, f"messages[{m}].parts[{p}]", policy))
        if policy.orphan_results == "keep-as-text":
            texts.append(Text(orphan_text(part)))
    return kept, texts


def orphan_text(result: ToolResult) -> str:
    """The text an orphan result becomes under the keep-as-text policy."""
    flag = " (error)" if result.is_error else ""
    return f"[{describe_result(result)}{flag} with no matching call right before it] {result.text}"


def _orphan_change(result: ToolResult, where: str, policy: Policy) -> Change:
    if policy.orphan_results == "keep-as-text":
        return Change("drop_orphan_tool_results", "orphan-tool-result-to-text",
                      f"turned the orphan {describe_result(result)} into user text", where,
                      lossless=not result.extras)
    return Change("drop_orphan_tool_results", "drop-orphan-tool-result",
                  f"dropped the orphan {describe_result(result)}", where, lossless=False)


def answer_unanswered_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool calls that have no result in the answer block right after their call turn
    (a stream broke, a window cut the results off, the app never ran the tool).

    Rejected by: OpenAI "An assistant message with 'tool_calls' must be followed by tool
    messages responding to each 'tool_call_id'. …"; Anthropic "`tool_use` ids were found
    without `tool_result` blocks immediately after"; Gemini "Please ensure that the number of
    function response parts is equal to the number of function call parts of the function
    call turn." — see the profiles' texts.

    Before: [assistant(call_1, call_2), tool(result call_1)]
    After (policy synthesize, lossless: nothing removed, one result added that says so):
            [assistant(call_1, call_2), tool(result call_1, result call_2 "[tool call
             interrupted: no result was recorded for this call]" is_error)]
    After (policy drop, lossy): [assistant(call_1), tool(result call_1)]

    Runs after `move_results_next_to_calls`, so a result found later in the history is
    moved home rather than replaced by a synthesized one.
    """
    index = pairing(draft.history.messages)
    messages = list(draft.history.messages)
    changes: list[Change] = []
    added: dict[int, Message] = {}  # a new tool message, after the message of its index
    emptied: set[int] = set()  # call turns left with nothing
    # back to front, as the report has always named places: each change's indexes count the
    # messages before it as they were (the blocks ahead are untouched: blocks share no
    # message), and the messages added or removed are spliced in once at the end
    for block, found in zip(reversed(index.blocks), reversed(index.matches), strict=True):
        call_at = block[0]
        if call_at is None or found is None:  # a settled block answers every call
            continue
        calls = messages[call_at].tool_calls
        answered = {hit for hit in answers(found) if hit is not None}
        if len(answered) == len(calls):
            continue
        missing = [c for c in range(len(calls)) if c not in answered]
        if not missing:
            continue
        changes.extend(answer_calls(messages, block, missing, policy, added, emptied))
    if not changes:
        return draft, ()
    if added or emptied:
        messages = spliced(messages, added, emptied)
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), tuple(
        reversed(changes))


def spliced(messages: list[Message], added: dict[int, Message], emptied: set[int]
            ) -> list[Message]:
    """`messages` without those at `emptied` and with each of `added` right after its index,
    in one walk: an insert or a delete per block shifts the rest of the list each time, which
    grows with the square of a long history's length."""
    out: list[Message] = []
    for i, message in enumerate(messages):
        if i not in emptied:
            out.append(message)
        if i in added:
            out.append(added[i])
    return out


def answer_calls(messages: list[Message], block: Block, missing: list[int], policy: Policy,
                 added: dict[int, Message], emptied: set[int],
                 by: str = "answer_unanswered_calls") -> list[Change]:
    """The block's unanswered calls at `missing` (indexes among its call turn's calls) dealt
    with as the policy says: results synthesized into the block (a new tool message goes in
    `added`, after the call turn's index) or the calls dropped (a call turn left with
    nothing goes in `emptied`); `spliced` puts those in. `by`: the pass that reports it."""
    if policy.unanswered_calls == "synthesize":
        return _synthesize(messages, block, missing, policy, added, by)
    assert block[0] is not None
    return _drop_calls(messages, block[0], missing, emptied, by)


def _synthesize(messages: list[Message], block: Block, missing: list[int],
                policy: Policy, added: dict[int, Message], by: str) -> list[Change]:
    call_at, tools = block
    assert call_at is not None
    calls = messages[call_at].tool_calls
    made = tuple(ToolResult(calls[c].id, policy.interrupted_text, is_error=True,
                            name=calls[c].name) for c in missing)
    if tools:
        last = tools[-1]
        parts = messages[last].parts
        # after the last result: text that followed the results stays last in the turn
        cut = max((p for p, part in enumerate(parts) if isinstance(part, ToolResult)),
                  default=len(parts) - 1) + 1
        messages[last] = replace(messages[last], parts=parts[:cut] + made + parts[cut:])
        where = f"messages[{last}]"
    else:
        added[call_at] = Message("tool", made)
        where = f"messages[{call_at + 1}] (new tool message)"
    return [Change(by, "insert-missing-tool-result",
                   f"synthesized a result for unanswered call {calls[c].id or '(no id)'} "
                   f"of {calls[c].name}, saying the call was interrupted", where, lossless=True)
            for c in missing]


def _drop_calls(messages: list[Message], at: int, missing: list[int],
                emptied: set[int], by: str) -> list[Change]:
    message = messages[at]
    calls = message.tool_calls
    call_slots = [p for p, part in enumerate(message.parts) if isinstance(part, ToolCall)]
    gone = {call_slots[c] for c in missing}
    parts = tuple(part for p, part in enumerate(message.parts) if p not in gone)
    empty = not parts
    if empty:
        emptied.add(at)
    else:
        messages[at] = replace(message, parts=parts)
    tail = " (the message held nothing else and was removed)" if empty else ""
    return [Change(by, "drop-unanswered-tool-call",
                   f"dropped unanswered call {calls[c].id or '(no id)'} of {calls[c].name}"
                   + tail, f"messages[{at}].parts[{call_slots[c]}]", lossless=False)
            for c in missing]


def dedupe_tool_call_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes two tool calls with the same id (hash-based ids of repeated identical Gemini
    calls, replayed turns). The second and later calls get `<id>_<n>` (the smallest n that
    collides with nothing in the history), and so do the results that answer them in their
    answer block, in order; `id_map` maps each new id back to the original.

    Where the profile enforces duplicate-tool-call-id, ids are made unique across the whole
    history. Where the profile says nothing about it (the vendor's behaviour is unknown),
    only duplicates inside one turn are renamed: a result cannot tell which of two calls of
    one turn it answers, while ids reused across turns are valid for some vendors (OpenAI
    Responses histories replay them). A profile listing the rule with `enforced: false`
    (the vendor accepts duplicates) gets nothing.

    Rejected by: Anthropic "`tool_use` ids must be unique" — see the profiles' texts.

    Before: [assistant(call a), tool(result a), assistant(call a), tool(result a)]
    After:  [assistant(call a), tool(result a), assistant(call a_2), tool(result a_2)]
    Lossless (reversible through id_map).
    """
    per_turn = not profile.enforces("duplicate-tool-call-id")
    repeated, taken = _repeated_calls(draft.history.messages, per_turn)
    if not repeated:
        return draft, ()
    messages = list(draft.history.messages)
    renames: dict[str, str] = {}
    changes: list[Change] = []
    tried: dict[str, int] = {}  # id -> the n its last `<id>_<n>` took: all below are taken
    # Only the call turns with a repeated id, in order, each with its own block's matches
    # (blocks share no message, so they still hold after the earlier turns' renames).
    for call_at, repeats in repeated.items():
        fresh = _fresh_ids(messages[call_at].tool_calls, repeats, taken, tried)
        block = (call_at, range(call_at + 1, tools_end(messages, call_at + 1)))
        changes.extend(_rename_block(messages, call_at, block_matches(messages, block), fresh,
                                     renames))
    id_map = draft.id_map.merged(**{new: draft.id_map.get(old, old)
                                    for new, old in renames.items()})
    history = replace(draft.history, messages=tuple(messages))
    remember_ids(history.messages, taken)  # the ids it had and the fresh ones
    return replace(draft, history=history, id_map=id_map), tuple(changes)


def _repeated_calls(messages: tuple[Message, ...], per_turn: bool
                    ) -> tuple[dict[int, list[int]], set[str]]:
    """Call turn index -> the indexes (among its calls) of the calls whose id an earlier
    call already has: anywhere before, or (`per_turn`) earlier in the same turn. The fresh
    ids given to them collide with no id of the history, so they cannot make a later call
    a repeat: the original ids alone decide, in one walk. And, where there is a repeat,
    every call and result id of the history (`id_set`), the ids a fresh one must miss:
    gathered from the first repeat on in the same walk (`_gathering`), since a second walk
    of a 100,000-message history cost ~50 ms; empty where there is none (most histories,
    and every confirming round), which then costs no set."""
    seen: set[str] = set()
    found: dict[int, list[int]] = {}
    for i, message in enumerate(messages):
        if message.role != "assistant" or not message.tool_calls:
            continue  # asked here, not in a call per message: most messages are no call turn
        repeats, seen = _repeats(message.tool_calls, seen, per_turn)
        if repeats:
            found[i] = repeats
            return found, _gathering(messages, i, per_turn, seen, found)
    return found, set()


def _repeats(calls: tuple[ToolCall, ...], seen: set[str], per_turn: bool
             ) -> tuple[list[int], set[str]]:
    """The indexes of a call turn's calls whose id is in `seen` (the ids before it: a new
    set for each turn when `per_turn`) or earlier in the turn, and the set the next turn goes
    on with, the others' ids added."""
    if per_turn:
        seen = set()
    found: list[int] = []
    for c, call in enumerate(calls):
        cid = call.id
        if cid is None:
            continue
        if cid in seen:
            found.append(c)
        else:
            seen.add(cid)
    return found, seen


def _gathering(messages: tuple[Message, ...], first: int, per_turn: bool, seen: set[str],
               found: dict[int, list[int]]) -> set[str]:
    """`_repeated_calls` from the message after `first` (its first repeat) on, adding to
    `found`, and gathering every id: those up to `first` read again, the rest as it goes."""
    every: set[str | None] = set(id_set(messages[:first + 1]))
    for i in range(first + 1, len(messages)):
        message = messages[i]
        for result in message.tool_results:
            every.add(result.call_id)
        calls = message.tool_calls
        for call in calls:
            every.add(call.id)
        if message.role != "assistant" or not calls:
            continue
        repeats, seen = _repeats(calls, seen, per_turn)
        if repeats:
            found[i] = repeats
    every.discard(None)
    return every  # type: ignore[return-value]


def _fresh_ids(calls: Sequence[ToolCall], repeats: list[int], taken: set[str],
               tried: dict[str, int]) -> dict[int, str]:
    """Call index -> new id for each repeated call: `<id>_<n>`, the smallest n free. The
    search for an id goes on from where its last one ended (`tried`): an id repeated
    thousands of times would otherwise try every n taken before, for each repeat."""
    fresh: dict[int, str] = {}
    for c in repeats:
        old = calls[c].id
        assert old is not None
        n = tried.get(old, 1) + 1
        while f"{old}_{n}" in taken:
            n += 1
        tried[old] = n
        fresh[c] = f"{old}_{n}"
        taken.add(fresh[c])
    return fresh


def _rename_block(messages: list[Message], at: int, hits: dict[Slot, int | None],
                  fresh: dict[int, str], renames: dict[str, str]) -> list[Change]:
    """The block of the call turn at `at`; `hits`: its matches before renaming (by the
    old ids)."""
    message = messages[at]
    call_slots = [p for p, part in enumerate(message.parts) if isinstance(part, ToolCall)]
    parts = list(message.parts)
    changes: list[Change] = []
    for c, new in fresh.items():
        call = parts[call_slots[c]]
        assert isinstance(call, ToolCall) and call.id is not None
        parts[call_slots[c]] = replace(call, id=new)
        renames[new] = call.id
        changes.append(Change("dedupe_tool_call_ids", "dedupe-tool-call-id",
                              f"renamed duplicate call id {call.id} to {new} in its call and "
                              "result", f"messages[{at}].parts[{call_slots[c]}]", lossless=True))
    messages[at] = replace(message, parts=tuple(parts))
    for (m, p), hit in hits.items():
        if hit in fresh:
            result = messages[m].parts[p]
            assert isinstance(result, ToolResult)
            new_parts = list(messages[m].parts)
            new_parts[p] = replace(result, call_id=fresh[hit])
            messages[m] = replace(messages[m], parts=tuple(new_parts))
    return changes
