"""Tool-call ids across a vendor switch: ids the target rejects, and calls with no id at all.

Both passes keep calls and results consistent (one map, applied to both), are deterministic
(hash-based, never time-based) and record new -> original in `Draft.id_map`, so the caller
can map the vendor's response back to the ids it knows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from normalizer.ids import Constraint, call_id_for, compose, id_map
from normalizer.json_values import CompactEncoder
from normalizer.model import Change, History, JsonMap, Message, Part, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import picker, same_pairing, tools_end
from normalizer.passes._known_ids import known_ids, remember_ids, remembered_ids
from normalizer.passes.pairing import ORPHAN_RULES
from normalizer.profiles import Profile

PartFn = Callable[[int, int, Part], tuple[Part, tuple[Change, ...]]]


def id_constraint(profile: Profile) -> Constraint:
    """What the target accepts as a tool-call id, from its profile rules' params."""
    return Constraint(pattern=profile.param("tool-call-id-pattern", "pattern"),
                      max_length=profile.param("tool-call-id-too-long", "max_length"))


def map_parts(history: History, fn: PartFn,
              calls_only: bool = False) -> tuple[History, tuple[Change, ...]]:
    """Apply `fn(message_index, part_index, part)` to every part; unchanged messages are
    shared with the input (nothing is mutated). `calls_only`: `fn` changes only calls and
    results, so messages holding neither are passed over."""
    messages: list[Message] = []
    changes: list[Change] = []
    for i, message in enumerate(history.messages):
        if calls_only and not message.tool_calls and not message.tool_results:
            messages.append(message)
            continue
        parts: list[Part] = []
        for j, part in enumerate(message.parts):
            new, found = fn(i, j, part)
            parts.append(new)
            changes.extend(found)
        same = all(a is b for a, b in zip(parts, message.parts, strict=True))
        messages.append(message if same else message.with_parts(tuple(parts)))
    return replace(history, messages=tuple(messages)), tuple(changes)


def _call_ids(history: History) -> dict[str, None]:
    """Every call and result id, once each, in order of first appearance."""
    ids: dict[str, None] = {}
    for message in history.messages:
        calls, results = message.tool_calls, message.tool_results
        if not results:  # calls only (or nothing): the same ids in the same order
            for call in calls:
                if call.id is not None:
                    ids[call.id] = None
            continue
        if not calls:
            for result in results:
                if result.call_id is not None:
                    ids[result.call_id] = None
            continue
        _mixed_ids(message, ids)
    return ids


def _mixed_ids(message: Message, ids: dict[str, None]) -> None:
    """A message with both calls and results: their ids in part order."""
    for part in message.parts:
        if isinstance(part, ToolCall) and part.id is not None:
            ids[part.id] = None
        elif isinstance(part, ToolResult) and part.call_id is not None:
            ids[part.call_id] = None


def rewrite_tool_call_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool-call ids the target rejects (rules tool-call-id-too-long, tool-call-id-pattern).

    Mistral: "Tool call id was toolu_… but must be a-z, A-Z, 0-9, with a length of 9."; OpenAI:
    "string too long. Expected a string with maximum length 40"; Anthropic: "…tool_use.id:
    String should match pattern '^[a-zA-Z0-9_-]+$'". Each rejected id gets one replacement
    (readable if possible, else a SHA-256 digest), used in its calls and results alike:
    `toolu_01A…` -> `Ab3kX9q2Z` for Mistral. Lossless: `Draft.id_map` maps it back."""
    rule = id_constraint(profile)
    if not rule.active:
        return draft, ()
    messages, accepts = draft.history.messages, rule.acceptor()
    known = remembered_ids(messages)  # assign's, when it ran right before (OpenAI)
    if (all(map(accepts, known)) if known is not None
            else _all_accepted(messages, accepts)):  # the common case
        return draft, ()
    renames = id_map(_call_ids(draft.history), rule)
    if not renames:
        return draft, ()
    history, changes = _rename_ids(draft.history, renames)
    return replace(draft, history=history,
                   id_map=JsonMap(compose(draft.id_map, renames))), changes


def _all_accepted(messages: Sequence[Message], accepts: Callable[[str], bool]) -> bool:
    """Whether `accepts` takes every call and result id of `messages`: each asked where it
    is (ids appear twice, in a call and its result), which at 100,000 messages costs half
    of first collecting them in a set, and stops at the first id refused."""
    for message in messages:
        for call in message.tool_calls:
            if call.id is not None and not accepts(call.id):
                return False
        for result in message.tool_results:
            if result.call_id is not None and not accepts(result.call_id):
                return False
    return True


def _rename_ids(history: History, renames: dict[str, str]) -> tuple[History, tuple[Change, ...]]:
    """`renames` applied to every call and result, with a change each; the messages with
    no renamed id are shared with the input. This is `map_parts` without a function call
    per part, which cost twice as much: Mistral renames nearly every id of a history."""
    messages = list(history.messages)
    changes: list[Change] = []
    pairs: list[tuple[Message, Message]] = []  # (old, new): see `same_pairing`
    said: dict[str, str] = {}  # old id -> the changes' text after what was renamed
    for i, message in enumerate(messages):
        if not message.tool_calls and not message.tool_results:
            continue
        parts: list[Part] | None = None  # made at the first renamed part
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolCall) and part.id in renames:
                old = part.id
                copy: Part = part.with_id(renames[old])
                what = "tool call id "
            elif isinstance(part, ToolResult) and part.call_id in renames:
                old = part.call_id
                copy = part.with_call_id(renames[old])
                what = "tool result call_id "
            else:
                continue
            if parts is None:
                parts = list(message.parts)
            parts[j] = copy
            text = said.get(old)
            if text is None:  # once per id: it is said for its call and its results
                text = said[old] = _RENAMED.format(old, renames[old])
            changes.append(Change("rewrite_tool_call_ids", "rewrite-tool-call-id", what + text,
                                  f"messages[{i}].parts[{j}]", True))
        if parts is not None:
            messages[i] = message.with_renamed_parts(tuple(parts))
            pairs.append((message, messages[i]))
    same_pairing(pairs)
    return replace(history, messages=tuple(messages)), tuple(changes)


_RENAMED = "{!r} -> {!r} (the target rejects the original)"


def _call_key(call: ToolCall, occurrence: int) -> str:
    """Name, canonical arguments and how many identical id-less calls came before: a repeated
    identical call gets a different key, so a different id (seed 002's collision)."""
    return f"{_call_stem(call)}{occurrence}"


def _call_stem(call: ToolCall) -> str:
    """The key without its occurrence: name and canonical arguments."""
    args = call.arguments if isinstance(call.arguments, str) else _CANONICAL.encode(
        call.arguments)
    return f"{call.name}\x00{args}\x00"


_CANONICAL = CompactEncoder(sort_keys=True)


def assign_missing_call_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes calls and results without ids (rule tool-call-id-missing) for targets that need
    them; Gemini may send functionCall and functionResponse parts with no id. The vendor's
    text is the profile's. Each id-less call gets an id from SHA-256(name, arguments,
    occurrence), never from a clock, so it is stable across runs and stays unique when the
    same call repeats. Id-less results in the tool turns right after the call turn are
    paired with the calls still unanswered there: same name first, in order.
    Before: call get_weather(id=None), result get_weather(call_id=None). After: both
    `call_…`. Lossless: `Draft.id_map` maps each new id to null (there was none)."""
    if not profile.enforces("tool-call-id-missing"):
        return draft, ()
    idless_calls, idless_results = _idless(draft.history.messages)
    if not idless_calls and not idless_results:
        return draft, ()
    messages = list(draft.history.messages)
    taken = known_ids(draft.history.messages, mine=True)
    seen: dict[str, int] = {}
    assigned: dict[str, None] = {}
    changes: list[Change] = []
    rule = id_constraint(profile)  # read once, not per call turn
    # Only the call turns with something to do, in order (not every message of the history).
    for i in sorted(idless_calls.union([r - 1 for r in idless_results])):
        message = messages[i]
        if message.role != "assistant" or not message.tool_calls:
            continue
        if i in idless_calls:  # else _name_calls renames nothing
            messages[i], found, new_ids = _name_calls(i, message, rule, taken, seen)
            changes.extend(found)
            assigned.update(dict.fromkeys(new_ids))
        if i + 1 in idless_results:  # else _pair_results finds no id-less result to pair
            changes.extend(_pair_results(messages, i))
    if idless_results and not any(map(profile.enforces, ORPHAN_RULES)):
        # No pass of this profile turns a result without a call into text, and the target
        # takes such a result: one left without an id needs an id of its own.
        found, new_ids = _name_unpaired_results(messages, sorted(idless_results), rule, taken)
        changes.extend(found)
        assigned.update(dict.fromkeys(new_ids))
    if not changes:
        return draft, ()
    history = replace(draft.history, messages=tuple(messages))
    remember_ids(history.messages, taken)  # the ids it had and the ones given
    return replace(draft, history=history,
                   id_map=JsonMap({**draft.id_map, **assigned})), tuple(changes)


def _idless(messages: tuple[Message, ...]) -> tuple[set[int], set[int]]:
    """The indexes of the messages holding an id-less call, and of the first message of
    each run of tool messages holding an id-less result somewhere in the run."""
    calls: set[int] = set()
    results: set[int] = set()
    run_start = 0
    for i, message in enumerate(messages):  # the messages' cached calls and results
        role = message.role
        if role != "tool":
            run_start = i + 1
            if role == "assistant":
                for call in message.tool_calls:  # a loop, not any(): no generator per message
                    if call.id is None:
                        calls.add(i)
                        break
            continue
        for result in message.tool_results:
            if result.call_id is None:
                results.add(run_start)
                break
    return calls, results


def _name_calls(
    i: int, message: Message, rule: Constraint, taken: set[str], seen: dict[str, int]
) -> tuple[Message, list[Change], list[str]]:
    parts = list(message.parts)
    changes: list[Change] = []
    new_ids: list[str] = []
    for j, part in enumerate(parts):
        if not isinstance(part, ToolCall) or part.id is not None:
            continue
        new, occurrence = _next_id(_call_stem(part), seen, rule, taken, new_ids)
        parts[j] = part.with_id(new)
        changes.append(Change("assign_missing_call_ids", "assign-tool-call-id",
                              f"call {part.name!r} had no id; assigned {new!r} "
                              f"(hash of name, arguments and occurrence {occurrence})",
                              f"messages[{i}].parts[{j}]", True))
    return (message.with_renamed_parts(tuple(parts)) if changes else message), changes, new_ids


def _next_id(stem: str, seen: dict[str, int], rule: Constraint, taken: set[str],
             new_ids: list[str]) -> tuple[str, int]:
    """A new id for the next occurrence of `stem` (SHA-256 of the stem and how many came
    before it: the same call or result again gets another id), kept in `taken` and
    `new_ids`; and that occurrence."""
    occurrence = seen.get(stem, 0)
    seen[stem] = occurrence + 1
    new = call_id_for(f"{stem}{occurrence}", rule, taken)
    taken.add(new)
    new_ids.append(new)
    return new, occurrence


def _name_unpaired_results(messages: list[Message], runs: list[int], rule: Constraint,
                           taken: set[str]) -> tuple[list[Change], list[str]]:
    """Give each result still without an id, in the tool runs starting at `runs`, an id from
    SHA-256(name, content, occurrence), as `_name_calls` does for calls."""
    changes: list[Change] = []
    new_ids: list[str] = []
    seen: dict[str, int] = {}
    for start in runs:
        for k in range(start, tools_end(messages, start)):
            message = messages[k]
            parts: list[Part] | None = None
            for j, part in enumerate(message.parts):
                if not isinstance(part, ToolResult) or part.call_id is not None:
                    continue
                new, _ = _next_id(f"result\x00{part.name or ''}\x00{part.text}\x00", seen, rule,
                                  taken, new_ids)
                if parts is None:
                    parts = list(message.parts)
                parts[j] = part.with_call_id(new)
                changes.append(Change("assign_missing_call_ids", "assign-tool-result-id",
                                      f"result {part.name or ''!r} had no call id and no call to "
                                      f"pair with; assigned {new!r} (the target takes a result "
                                      "without its call, not one without an id)",
                                      f"messages[{k}].parts[{j}]", True))
            if parts is not None:
                messages[k] = message.with_renamed_parts(tuple(parts))
    return changes, new_ids


def _pair_results(messages: list[Message], i: int) -> list[Change]:
    """Give id-less results in the tool messages right after call turn `i` the ids of the
    calls still unanswered there: same name first, else the next one in order."""
    end = tools_end(messages, i + 1)
    answered = {r.call_id for m in messages[i + 1:end] for r in m.tool_results}
    open_calls = [c for c in messages[i].tool_calls if c.id not in answered]
    take = picker([c.name for c in open_calls])
    left = len(open_calls)
    changes: list[Change] = []
    for k in range(i + 1, end):
        message = messages[k]
        parts: list[Part] | None = None  # copied at the first paired result
        for j, part in enumerate(message.parts):
            if not left:
                break
            if not isinstance(part, ToolResult) or part.call_id is not None:
                continue
            name = part.name
            chosen = take(name)
            if chosen is None:
                continue
            match, left = open_calls[chosen], left - 1
            if parts is None:
                parts = list(message.parts)
            parts[j] = part.with_call_id(match.id)
            changes.append(Change("assign_missing_call_ids", "pair-tool-result-id",
                                  f"result {name or ''!r} had no call id; paired with call "
                                  f"{match.id!r} by name and position",
                                  f"messages[{k}].parts[{j}]", True))
        if parts is not None:
            messages[k] = message.with_renamed_parts(tuple(parts))
    return changes
