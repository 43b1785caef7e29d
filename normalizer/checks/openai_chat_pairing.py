"""Detectors for how tool calls and tool messages pair up in an OpenAI Chat body.

A *call block* is an assistant message with `tool_calls` plus the run of `tool` messages
right after it (see openai_chat_walk.call_blocks). Vendors differ in what they compare
(position or ids); the rule's params say which.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import (
    Calls,
    call_blocks,
    calls,
    entries,
    owners,
    param,
    result_ids,
    roles,
)
from normalizer.profiles import Rule

Body = Mapping[str, Any]


def orphan_tool_result(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A tool message not answering the calls before it. params.by: `position` (the run of
    tool messages does not follow an assistant message with tool_calls; OpenAI's wording)
    or `id` (also: its tool_call_id is not one of those calls; mistral-common's check)."""
    by_id = param(rule.params, "by", "position") == "id"
    rids, owner_of, table = result_ids(body), owners(body), calls(body)
    known: dict[int, Collection[str | None]] = {}
    for i, kind in enumerate(roles(body)):
        if kind != "tool":
            continue
        owner = owner_of[i]
        rid = rids[i]
        unmatched = owner is not None and by_id and rid not in _ids_of(table, owner, known)
        if owner is None or unmatched:
            yield _result_finding(i, rid)


def tool_result_id_mismatch(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A tool message that does follow an assistant message with tool_calls, but whose
    tool_call_id is none of that message's call ids (a message with no id is left to
    tool-call-id-missing)."""
    rids, table = result_ids(body), calls(body)
    known: dict[int, Collection[str | None]] = {}
    for i, owner in enumerate(owners(body)):
        rid = rids[i] if owner is not None else None
        if owner is None or rid is None:  # no id at all is tool-call-id-missing
            continue
        if rid not in _ids_of(table, owner, known):
            yield _result_finding(i, rid)


def _ids_of(table: Calls, owner: int, known: dict[int, Collection[str | None]]
            ) -> Collection[str | None]:
    """The call ids of message `owner`, read once per message for all of its tool messages,
    as a set where there are many: a turn of k calls answered by k tool messages, each
    scanning the k ids, grows with k squared."""
    ids = known.get(owner)
    if ids is None:
        ids = known[owner] = table.ids_of(owner)
        if len(ids) > 16:
            ids = known[owner] = frozenset(ids)
    return ids


def _result_finding(index: int, rid: str | None) -> Finding:
    return Finding(location=f"messages[{index}]", fields={"index": index, "id": rid})


def missing_tool_result(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Calls whose ids no tool message of their block answers (a message wedged between
    calls and results ends the block). params.at_end (default true): also when the
    call message is the last message."""
    at_end = bool(param(rule.params, "at_end", True))
    total, rids = len(entries(body)), result_ids(body)
    for block in call_blocks(body):
        if block.end == total and not block.results and not at_end:
            continue
        answered = {rids[k] for k in block.results}
        missing = [cid for cid in block.call_ids if cid not in answered]
        if missing:
            yield Finding(location=f"messages[{block.index}]",
                          fields={"index": block.index, "ids": ", ".join(missing),
                                  "next_index": block.end})


def duplicate_tool_result(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A second tool message for the same call id within one block."""
    rids = result_ids(body)
    for block in call_blocks(body):
        seen: dict[str, int] = {}  # id -> index of its first result (OpenAI names both)
        for k in block.results:
            rid = rids[k]
            if rid is not None and rid in seen:
                found = _result_finding(k, rid)
                yield Finding(found.location, {**found.fields, "first": seen[rid]})
            if rid is not None:
                seen.setdefault(rid, k)


def duplicate_tool_call_id(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A call id used twice. params.scope: `message` (within one assistant message) or
    `history` (anywhere in the request; the default)."""
    per_message = param(rule.params, "scope", "history") == "message"
    kinds, table = roles(body), calls(body)
    seen: set[str] = set()
    last = -1
    for (i, j, _), cid in zip(table.rows, table.ids, strict=True):
        if kinds[i] != "assistant":
            continue
        if per_message and i != last:
            seen, last = set(), i
        if cid is not None and cid in seen:
            yield Finding(location=f"messages[{i}].tool_calls[{j}].id",
                          fields={"index": i, "call": j, "id": cid})
        if cid is not None:
            seen.add(cid)


def tool_results_out_of_order(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Results of a block in another order than its calls (only ids that are answered
    once are compared, so missing and duplicate results are left to their own rules)."""
    rids = result_ids(body)
    for block in call_blocks(body):
        order = {cid: n for n, cid in enumerate(block.call_ids)}
        got = [(k, rids[k]) for k in block.results if rids[k] in order]
        ids = [rid for _, rid in got]
        if len(set(ids)) != len(ids):
            continue
        for (k, rid), (_, prev) in zip(got[1:], got, strict=False):
            if order[rid] < order[prev]:
                yield Finding(location=f"messages[{k}]",
                              fields={"index": k, "id": rid,
                                      "ids": ", ".join(block.call_ids)})
                break


def tool_result_count_mismatch(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A block with not as many tool messages as calls."""
    for block in call_blocks(body):
        if len(block.results) != len(block.calls):
            yield Finding(location=f"messages[{block.index}]",
                          fields={"index": block.index, "calls": len(block.calls),
                                  "results": len(block.results)})
