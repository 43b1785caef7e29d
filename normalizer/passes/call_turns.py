"""A call turn with more parallel calls than the target takes in one message."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Message, Opaque, Part, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import tools_end, wire_call
from normalizer.profiles import Profile

RULE = "too-many-tool-calls"
NAME = "split_large_call_turns"


def split_large_call_turns(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an assistant turn with more tool calls than the target takes in one message
    (rule too-many-tool-calls, params.max_items): the turn becomes turns of at most that
    many calls, in their order, each followed by the results of its own calls, taken from
    the tool messages right after the turn (their order kept). The first turn keeps the
    turn's text and reasoning. Lossless: every call and result is sent, in a few more
    messages.

    Rejected by: OpenAI "Invalid 'messages[2].tool_calls': array too long. Expected an array
    with maximum length 128, but got an array with length 200 instead." (openai/openai-dotnet#317).

    Before: assistant [200 calls], tool [200 results]. After: assistant [calls 1-128],
    tool [their results], assistant [calls 129-200], tool [their results].
    """
    del policy
    param = profile.param(RULE, "max_items")
    if param is None:
        return draft, ()
    limit = int(param)
    messages = draft.history.messages
    # A message of no more parts than the limit cannot hold more calls: the common case,
    # read off its length alone.
    if all(len(m.parts) <= limit or _calls(m) <= limit for m in messages):
        return draft, ()
    out: list[Message] = []
    changes: list[Change] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        count = 0 if len(message.parts) <= limit else _calls(message)
        if count <= limit:
            out.append(message)
            i += 1
            continue
        end = tools_end(messages, i + 1)
        turns = _split(message, messages[i + 1:end], limit)
        changes.append(Change(NAME, "split-call-turn", f"split an assistant turn of {count} "
                              f"tool calls into {len(turns)} turns of at most {limit} (the "
                              f"target takes at most {limit} in one message), each followed "
                              "by its own calls' results", f"messages[{i}]", lossless=True))
        for turn, answers in turns:
            out.append(turn)
            out.extend(answers)
        i = end
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _calls(message: Message) -> int:
    """How many entries the message's Chat `tool_calls` list would have."""
    if message.role != "assistant":
        return 0
    return sum(1 for part in message.parts if wire_call(part))


def _split(message: Message, block: tuple[Message, ...],
           limit: int) -> list[tuple[Message, list[Message]]]:
    """The turns `message` becomes, each with the tool messages answering it. A result whose
    call is not among the turn's (or that has no id), and any other part of a tool message,
    stays with the first turn."""
    chunks: list[list[Part]] = [[]]
    chunk_of: dict[str, int] = {}
    taken = 0  # calls in the last chunk
    for part in message.parts:
        if not wire_call(part):
            chunks[0].append(part)
            continue
        if taken == limit:
            chunks.append([])
            taken = 0
        chunks[-1].append(part)
        taken += 1
        call_id = part.id if isinstance(part, ToolCall) else _verbatim_id(part)
        if isinstance(call_id, str):
            chunk_of.setdefault(call_id, len(chunks) - 1)
    answers: list[list[Message]] = [[] for _ in chunks]
    for tool in block:  # one walk: each tool message's parts, grouped by chunk in order
        groups: dict[int, list[Part]] = {}
        for part in tool.parts:
            groups.setdefault(_chunk(part, chunk_of), []).append(part)
        for k, parts in groups.items():
            answers[k].append(tool if len(groups) == 1 else tool.with_parts(tuple(parts)))
    return [(message.with_parts(tuple(parts)), answers[k]) for k, parts in enumerate(chunks)]


def _verbatim_id(part: Part) -> object:
    """The id of a call kept verbatim (its wire object's `id`)."""
    return part.data.get("id") if isinstance(part, Opaque) else None


def _chunk(part: Part, chunk_of: dict[str, int]) -> int:
    if isinstance(part, ToolResult) and part.call_id is not None:
        return chunk_of.get(part.call_id, 0)
    return 0
