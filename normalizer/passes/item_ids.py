"""Responses item ids given twice: the same `fc_…`, `rs_…`, `msg_…` or `ws_…` id on two input
items (a turn replayed twice, calls copied with their item id), which the API refuses. The
item ids ride in extras: a call's, a result's and a reasoning item's own `id`, a role
message's `id`, and an assistant message item's `item.id` on its first text; a hosted tool
item kept verbatim (an Opaque part: web_search_call, ...) has its id in its data."""

from __future__ import annotations

from dataclasses import replace

from normalizer.crossing import opaque_text
from normalizer.json_values import EMPTY
from normalizer.model import (
    Change,
    JsonMap,
    Message,
    Opaque,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
)
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

_PASS = "drop_refused_item_ids"
# The parts that hold an item id in extras: True where it is their own `id` (a call's, a
# result's, a reasoning item's), False where it is in their `item` fields (an assistant
# message item's first text).
HOLDS_ID: dict[type, bool] = {ToolCall: True, ToolResult: True, Thinking: True, Text: False}


def drop_refused_item_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes Responses input items whose id an earlier item already has (rule
    duplicate-tool-call-id, as the Responses API words it) or whose id is longer than the
    target takes (rule item-id-too-long, params.max_length: another vendor's Responses ids,
    xAI's 83-character web_search_call ids): the item loses its id and is sent by value. A
    hosted tool item (web_search_call, ...) cannot go without its id (the API's schema
    requires one), so it is sent as text, as another vendor would get it. Call ids are
    `dedupe_tool_call_ids`' business.

    Rejected by: OpenAI Responses "Duplicate item found with id fc_…. Remove duplicate
    items from your input and try again." (openai/openai-agents-python#1789; vercel/ai#7883
    for an rs_ id); "Invalid 'input[17].id': string too long. Expected a string with maximum
    length 64, but got a string with length 83 instead." (Wei-Shaw/sub2api#7484).

    Before: function_call {id: fc_1, call_id: call_1}, function_call {id: fc_1, call_id: call_2}
    After:  function_call {id: fc_1, call_id: call_1}, function_call {call_id: call_2}
    Lossless: the item is all there, by value; the first keeps the id. A hosted item as
    text is lossy (its content is all there, as text, not as the item).
    """
    messages = draft.history.messages
    cap = profile.param("item-id-too-long", "max_length") \
        if profile.enforces("item-id-too-long") else None
    if profile.protocol != "openai_responses" or not _to_fix(messages, cap):
        return draft, ()
    seen: set[str] = set()
    changes: list[Change] = []
    out = [_without_refused(message, i, seen, changes, cap)
           for i, message in enumerate(messages)]
    if not changes:  # only non-hosted items written back verbatim repeat an id: theirs stay
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _to_fix(messages: tuple[Message, ...], cap: int | None) -> bool:
    """Whether any item id comes twice or is longer than `cap`: one read of each message,
    building nothing (most messages and parts share the one empty extras map, and long
    histories hold no repeat)."""
    seen: set[str] = set()
    longest = cap if cap is not None else 1 << 30
    for message in messages:
        if message.extras is not EMPTY:
            item_id = _item_id(message.extras, message.role != "assistant")
            if item_id is not None:
                if item_id in seen or len(item_id) > longest:
                    return True
                seen.add(item_id)
        for part in message.parts:
            own = HOLDS_ID.get(type(part))
            if own is not None:
                extras = part.extras  # type: ignore[union-attr]
                item_id = None if extras is EMPTY else _item_id(extras, own)
            else:
                item_id = _opaque_id(part) if type(part) is Opaque else None  # type: ignore[arg-type]
            if item_id is not None:
                if item_id in seen or len(item_id) > longest:
                    return True
                seen.add(item_id)
    return False


def detach_from_reasoning(part: Part, reasoning_id: str, pass_name: str,
                          where: str) -> tuple[Part, Change | None]:
    """`part`, which followed reasoning item `reasoning_id` in its turn, without its item id
    now that the reasoning is not sent: OpenAI pairs an item sent by id with the reasoning
    item it was produced after and refuses it alone ("Item 'fc_…' of type 'function_call' was
    provided without its required 'reasoning' item: 'rs_…'.", cline/cline#12242; a 'message'
    item likewise on Azure, openai/openai-agents-python#3771). Sent by value, there is no pair
    to demand. A hosted
    item cannot go without its id (the API's schema requires one): it goes as text."""
    if isinstance(part, Opaque):
        item_id = _opaque_id(part)
        if item_id is None or not part.hosted:
            return part, None
        return Text(opaque_text(part)), Change(
            pass_name, "item-without-reasoning-as-text",
            f"sent the {part.kind} item {item_id!r} as text: its reasoning item "
            f"{reasoning_id!r} is not sent, the item cannot go without its id, and by id it "
            "needs the reasoning", where, lossless=False)
    own = HOLDS_ID.get(type(part))
    if own is None or isinstance(part, Thinking) or part.extras is EMPTY:  # type: ignore[union-attr]
        return part, None
    extras = part.extras  # type: ignore[union-attr]
    item_id = _item_id(extras, own)
    if item_id is None:
        return part, None
    kept = with_item_fields(extras, own, item_fields(extras, own).without("id"))
    whose = f" of call {part.name!r} ({part.id!r})" if isinstance(part, ToolCall) else ""
    return replace(part, extras=kept), Change(  # type: ignore[arg-type]
        pass_name, "drop-item-id-with-reasoning",
        f"removed item id {item_id!r}{whose}: its reasoning item {reasoning_id!r} is not "
        "sent, and by id the item needs it (the item goes by value)", where, lossless=True)


def reasoning_item_id(part: Thinking) -> str | None:
    """A reasoning item's own id (`rs_…`), if it was given one."""
    return None if part.extras is EMPTY else _item_id(part.extras, True)


def _opaque_id(part: Opaque) -> str | None:
    found = part.data.get("id") if part.slot == "item" else None
    return found if isinstance(found, str) else None


def item_fields(extras: JsonMap, own: bool) -> JsonMap:
    """The item's own fields in a part's `extras`: the extras themselves when `own` (a
    call's, a result's, a reasoning item's), else its `item` fields (an assistant message
    item's, on its first text)."""
    if own:
        return extras
    item = extras.get("item")
    return item if isinstance(item, JsonMap) else EMPTY


def with_item_fields(extras: JsonMap, own: bool, fields: JsonMap) -> JsonMap:
    """`extras` with the item's own fields (`item_fields`) replaced by `fields`."""
    return fields if own else JsonMap({**extras, "item": fields})


def _item_id(extras: JsonMap, own: bool) -> str | None:
    """The item id in `extras`: its own `id` when `own`, else its `item` fields' `id`."""
    found = item_fields(extras, own).get("id")
    return found if isinstance(found, str) else None


def _without_refused(message: Message, i: int, seen: set[str], changes: list[Change],
                     cap: int | None) -> Message:
    """`message` with the item ids `seen` already holds, and those longer than `cap`,
    removed (each named in `changes`); the ids it keeps are added to `seen`."""
    extras = message.extras
    if extras is not EMPTY:
        extras = _unseen(extras, message.role != "assistant", seen, f"messages[{i}]", changes,
                         cap)
    parts = list(message.parts)
    for j, part in enumerate(parts):
        parts[j] = _part_unseen(part, seen, f"messages[{i}].parts[{j}]", changes, cap)
    if extras is message.extras and all(a is b for a, b in zip(parts, message.parts,
                                                                  strict=True)):
        return message
    return replace(message, parts=tuple(parts), extras=extras)


def _part_unseen(part: Part, seen: set[str], where: str, changes: list[Change],
                 cap: int | None) -> Part:
    if isinstance(part, Opaque):
        item_id = _opaque_id(part)
        if item_id is None:
            return part
        if cap is not None and len(item_id) > cap and part.hosted:
            changes.append(Change(_PASS, "long-item-as-text",
                                  f"sent the {part.kind} item {item_id!r} as text: its id "
                                  f"has {len(item_id)} characters, the target takes at most "
                                  f"{cap}, and the item cannot go without it", where,
                                  lossless=False))
            return Text(opaque_text(part))
        if item_id in seen and part.hosted:
            changes.append(Change(_PASS, "duplicate-item-as-text",
                                  f"sent the {part.kind} item {item_id!r} as text: an earlier "
                                  "input item has its id, which the item cannot go without",
                                  where, lossless=False))
            return Text(opaque_text(part))
        # Written back verbatim: its id stays (a later item loses it). Another kind kept
        # verbatim (an item_reference) keeps a repeated id: what it needs is not known.
        seen.add(item_id)
        return part
    own = HOLDS_ID.get(type(part))
    if own is None or part.extras is EMPTY:  # type: ignore[union-attr]
        return part
    extras = _unseen(part.extras, own, seen, where, changes, cap)  # type: ignore[union-attr]
    return part if extras is part.extras else replace(part, extras=extras)  # type: ignore[union-attr]


def _unseen(extras: JsonMap, own: bool, seen: set[str], where: str,
            changes: list[Change], cap: int | None) -> JsonMap:
    """`extras` without an item id `seen` holds or longer than `cap`: its own `id` when
    `own` (a role message's, a call's, a result's, a reasoning item's), else the `id` of
    its `item` fields (an assistant message item's, on its first text or on a message
    without parts)."""
    item_id = _item_id(extras, own)
    if item_id is None:
        return extras
    if cap is not None and len(item_id) > cap:
        changes.append(Change(_PASS, "drop-long-item-id",
                              f"removed item id {item_id!r}: {len(item_id)} characters, the "
                              f"target takes at most {cap} (the item goes by value)", where,
                              lossless=True))
    elif item_id not in seen:
        seen.add(item_id)
        return extras
    else:
        changes.append(Change(_PASS, "drop-duplicate-item-id",
                              f"removed item id {item_id!r}, which an earlier input item has "
                              "(the item goes by value)", where, lossless=True))
    return with_item_fields(extras, own, item_fields(extras, own).without("id"))
