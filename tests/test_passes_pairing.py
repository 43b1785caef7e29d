"""Pairing and ordering passes, one at a time: the docstrings' before/after examples, the
policies, idempotence, and change entries for everything touched."""

from __future__ import annotations

from hypothesis import given, settings

from normalizer import check, normalize_request
from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.normalize import schedule
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import forget_pairing, pairing
from normalizer.passes.ordering import move_results_next_to_calls, order_results_like_calls
from normalizer.passes.pairing import (
    answer_unanswered_calls,
    dedupe_tool_call_ids,
    drop_orphan_tool_results,
)
from normalizer.profiles import load_profile
from normalizer.testing import damaged_histories

PROFILE = load_profile("openai")
POLICY = Policy()
DROP = Policy(orphan_results="drop", unanswered_calls="drop")


def draft(*messages: Message) -> Draft:
    return Draft(History(messages))


def user(text: str) -> Message:
    return Message("user", (Text(text),))


def calls(*ids: str | None, name: str = "f") -> Message:
    return Message("assistant", tuple(ToolCall(name, {}, i) for i in ids))


def results(*ids: str | None, name: str | None = None) -> Message:
    return Message("tool", tuple(ToolResult(i, f"r-{i}", name=name) for i in ids))


def roles(d: Draft) -> list[str]:
    return [m.role for m in d.history]


def test_orphan_becomes_user_text_after_its_block() -> None:
    start = draft(user("hi"), calls("a"), results("a", "zz"), results("b"))
    out, changes = drop_orphan_tool_results(start, PROFILE, POLICY)
    assert roles(out) == ["user", "assistant", "tool", "user", "user"]
    assert [r.call_id for r in out.history.messages[2].tool_results] == ["a"]
    assert "zz" in out.history.messages[3].text and "r-b" in out.history.messages[4].text
    assert [c.where for c in changes] == ["messages[2].parts[1]", "messages[3].parts[0]"]


def test_duplicate_result_is_an_orphan() -> None:
    out, changes = drop_orphan_tool_results(draft(calls("a"), results("a", "a")), PROFILE, DROP)
    assert len(out.history.messages[1].tool_results) == 1
    assert [c.code for c in changes] == ["drop-orphan-tool-result"]


def test_text_beside_orphans_is_kept_as_user_text() -> None:
    mixed = Message("tool", (ToolResult("x", "lost"), Text("note from the user")))
    out, _ = drop_orphan_tool_results(draft(user("q"), mixed), PROFILE, DROP)
    assert roles(out) == ["user", "user"]
    assert out.history.messages[1].text == "note from the user"


def test_id_less_results_pair_by_name_in_order() -> None:
    start = draft(Message("assistant", (ToolCall("f", {}, None), ToolCall("g", {}, None))),
                  Message("tool", (ToolResult(None, "g!", name="g"),
                                   ToolResult(None, "f!", name="f"))))
    assert drop_orphan_tool_results(start, PROFILE, POLICY) == (start, ())
    assert answer_unanswered_calls(start, PROFILE, POLICY) == (start, ())


def test_synthesized_result_goes_after_the_last_result() -> None:
    block = Message("tool", (ToolResult("a", "ok"), Text("user aside")))
    out, changes = answer_unanswered_calls(draft(calls("a", "b"), block), PROFILE, POLICY)
    parts = out.history.messages[1].parts
    assert [type(p).__name__ for p in parts] == ["ToolResult", "ToolResult", "Text"]
    assert parts[1].text == POLICY.interrupted_text  # type: ignore[union-attr]
    assert changes[0].code == "insert-missing-tool-result" and changes[0].lossless


def test_several_unanswered_turns_each_get_their_answer_in_place() -> None:
    """Blocks are repaired back to front and the new or emptied messages spliced in at the
    end: each answer lands right after its own call turn, and each change names the place
    counting the messages before it as they were."""
    start = draft(user("q"), calls("a"), calls("b"), user("r"), calls("c"))
    out, changes = answer_unanswered_calls(start, PROFILE, POLICY)
    assert roles(out) == ["user", "assistant", "tool", "assistant", "tool", "user",
                          "assistant", "tool"]
    answered = [m.tool_results[0].call_id for m in out.history.messages if m.role == "tool"]
    assert answered == ["a", "b", "c"]
    assert [c.where for c in changes] == [f"messages[{k}] (new tool message)"
                                          for k in (2, 3, 5)]
    out, changes = answer_unanswered_calls(start, PROFILE, DROP)
    assert roles(out) == ["user", "user"] and len(changes) == 3


def test_dropping_every_call_removes_an_otherwise_empty_call_turn() -> None:
    out, changes = answer_unanswered_calls(draft(user("q"), calls("a"), user("r")), PROFILE, DROP)
    assert roles(out) == ["user", "user"]
    assert "removed" in changes[0].what and not changes[0].lossless


def test_move_result_back_and_wedges_after() -> None:
    start = draft(calls("a", "b"), results("a"), user("wedge"), results("b"))
    out, changes = move_results_next_to_calls(start, PROFILE, POLICY)
    assert roles(out) == ["assistant", "tool", "user"]
    assert [r.call_id for r in out.history.messages[1].tool_results] == ["a", "b"]
    assert [(c.code, c.where) for c in changes] == [("move-tool-result", "messages[3].parts[0]")]


def test_move_into_a_new_block_when_none_follows() -> None:
    out, _ = move_results_next_to_calls(draft(calls("a"), user("w"), results("a")), PROFILE,
                                        POLICY)
    assert roles(out) == ["assistant", "tool", "user"]


def test_order_results_like_calls_keeps_slots() -> None:
    start = draft(calls("a", "b"), results("b"), results("a"))
    out, changes = order_results_like_calls(start, PROFILE, POLICY)
    assert [m.tool_results[0].call_id for m in out.history.messages[1:]] == ["a", "b"]
    assert len(changes) == 2 and all(c.lossless for c in changes)


def test_order_results_like_calls_puts_orphans_last_in_their_order() -> None:
    """Results answering no call of the turn keep their order among themselves, after the
    answers (the sort is stable: no position is part of its key)."""
    start = draft(calls("a", "b"), results("x", "b", "y", "a"))
    out, _ = order_results_like_calls(start, PROFILE, POLICY)
    assert [r.call_id for r in out.history.messages[1].tool_results] == ["a", "b", "x", "y"]


def test_dedupe_renames_later_call_and_its_result() -> None:
    start = draft(calls("a"), results("a"), calls("a"), results("a"))
    out, changes = dedupe_tool_call_ids(start, load_profile("anthropic"), POLICY)
    assert out.history.messages[2].tool_calls[0].id == "a_2"
    assert out.history.messages[3].tool_results[0].call_id == "a_2"
    assert out.history.messages[1].tool_results[0].call_id == "a"
    assert dict(out.id_map) == {"a_2": "a"} and changes[0].code == "dedupe-tool-call-id"


def test_dedupe_where_evidence_is_unknown_only_inside_one_turn() -> None:
    """A profile without the rule (OpenAI Chat): ids reused across turns stay (valid for
    some vendors); two calls of one turn sharing an id are renamed, with their results."""
    across = draft(calls("a"), results("a"), calls("a"), results("a"))
    assert dedupe_tool_call_ids(across, load_profile("openai"), POLICY) == (across, ())
    within = draft(calls("a", "a"), results("a", "a"))
    out, changes = dedupe_tool_call_ids(within, load_profile("openai"), POLICY)
    assert [c.id for c in out.history.messages[0].tool_calls] == ["a", "a_2"]
    assert [r.call_id for r in out.history.messages[1].tool_results] == ["a", "a_2"]
    assert [c.code for c in changes] == ["dedupe-tool-call-id"] and changes[0].lossless
    assert dict(out.id_map) == {"a_2": "a"}
    assert "dedupe_tool_call_ids" in schedule(load_profile("openai"))


def test_dedupe_within_one_turn_and_avoids_collisions() -> None:
    start = draft(calls("a", "a"), results("a", "a"), calls("a_2"), results("a_2"))
    out, _ = dedupe_tool_call_ids(start, PROFILE, POLICY)
    assert [c.id for c in out.history.messages[0].tool_calls] == ["a", "a_3"]
    assert [r.call_id for r in out.history.messages[1].tool_results] == ["a", "a_3"]


def test_dedupe_takes_the_smallest_free_suffix_for_each_repeat() -> None:
    """Each repeat of an id goes on from the last suffix it took, and still passes over a
    suffix the history holds (a_3), in every turn after the first."""
    turns = [m for _ in range(4) for m in (calls("a"), results("a"))]
    start = draft(calls("a_3"), results("a_3"), *turns)
    out, _ = dedupe_tool_call_ids(start, load_profile("anthropic"), POLICY)
    assert [m.tool_calls[0].id for m in out.history.messages[::2]] == [
        "a_3", "a", "a_2", "a_4", "a_5"]


def _dedupe_as_first_written(history: History, per_turn: bool) -> list[list[str | None]]:
    """The dedupe walk as first written: every block of the pairing index in order, each
    call's id checked against `seen` (which also takes the fresh ids), results renamed by
    the block's matches; the ids of every part, message by message."""
    messages = list(history.messages)
    taken = {c.id for m in messages for c in m.tool_calls if c.id is not None}
    taken |= {r.call_id for m in messages for r in m.tool_results if r.call_id is not None}
    index = pairing(history.messages)
    seen: set[str] = set()
    for k, (call_at, _) in enumerate(index.blocks):
        if call_at is None:
            continue
        seen = set() if per_turn else seen
        fresh: dict[int, str] = {}
        for c, call in enumerate(messages[call_at].tool_calls):
            if call.id is None:
                continue
            if call.id not in seen:
                seen.add(call.id)
                continue
            n = 2
            while f"{call.id}_{n}" in taken:
                n += 1
            fresh[c] = f"{call.id}_{n}"
            taken.add(fresh[c])
            seen.add(fresh[c])
        if fresh:
            message = messages[call_at]
            new_calls = iter([c.with_id(fresh[k]) if k in fresh else c
                              for k, c in enumerate(message.tool_calls)])
            messages[call_at] = message.with_parts(tuple(
                next(new_calls) if isinstance(p, ToolCall) else p for p in message.parts))
            for (m, p), hit in index.hits(k).items():
                if hit in fresh:
                    parts = list(messages[m].parts)
                    result = parts[p]
                    assert isinstance(result, ToolResult)
                    parts[p] = result.with_call_id(fresh[hit])
                    messages[m] = messages[m].with_parts(tuple(parts))
    return [[p.id if isinstance(p, ToolCall) else p.call_id if isinstance(p, ToolResult)
             else None for p in m.parts] for m in messages]


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(damaged_histories())
def test_dedupe_renames_what_the_walk_as_first_written_renamed(history: History) -> None:
    """dedupe visits only the call turns holding a repeated id (`_repeated_calls`) and
    matches each one's block alone: the same ids everywhere as the walk over every block
    of the pairing index, whether ids must be unique in the history or in a turn."""
    again = History((*history.messages, *history.messages[1:]))  # ids repeated across turns
    for case in (history, again):
        for profile, per_turn in ((load_profile("anthropic"), False), (PROFILE, True)):
            out, _ = dedupe_tool_call_ids(Draft(case), profile, POLICY)
            forget_pairing()
            got = [[p.id if isinstance(p, ToolCall) else p.call_id
                    if isinstance(p, ToolResult) else None for p in m.parts]
                   for m in out.history.messages]
            assert got == _dedupe_as_first_written(case, per_turn)
            forget_pairing()


def test_dedupe_as_first_written_on_ids_that_look_renamed() -> None:
    start = History((calls("a", "a", "a_2"), results("a", "a_2", "a"), calls("a", "a_3"),
                     results("a_3", "a"), calls("a_2", "b", "b"), results("b", "b", "a_2")))
    for profile, per_turn in ((load_profile("anthropic"), False), (PROFILE, True)):
        out, _ = dedupe_tool_call_ids(Draft(start), profile, POLICY)
        forget_pairing()
        got = [[p.id if isinstance(p, ToolCall) else p.call_id for p in m.parts]
               for m in out.history.messages]
        assert got == _dedupe_as_first_written(start, per_turn)
        forget_pairing()


PASSES = (dedupe_tool_call_ids, move_results_next_to_calls, drop_orphan_tool_results,
          answer_unanswered_calls, order_results_like_calls)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(damaged_histories())
def test_each_pass_is_idempotent_and_reports_what_it_changes(history: History) -> None:
    for run in PASSES:
        for policy in (POLICY, DROP):
            once, changes = run(Draft(history), PROFILE, policy)
            assert (once.history != history) <= bool(changes)
            again, more = run(once, PROFILE, policy)
            assert more == () and again == once, run.__name__


def test_id_less_result_moves_home_only_before_the_next_call_turn() -> None:
    start = draft(calls(None), user("wedge"), results(None, name="f"))
    out, changes = move_results_next_to_calls(start, PROFILE, POLICY)
    assert roles(out) == ["assistant", "tool", "user"] and len(changes) == 1
    later = draft(calls(None), user("wedge"), calls("b"), results(None, name="f"))
    assert move_results_next_to_calls(later, PROFILE, POLICY) == (later, ())


def _tool_search(execution: str) -> dict[str, object]:
    # pydantic-ai's recorded tool-search portability request, answered 200 by gpt-5.6
    # (evidence/openai_responses/client-tool-search-output-accepted-gpt-5-6-2026.yaml).
    return {"model": "gpt-5.6", "tools": [{"type": "tool_search"}], "input": [
        {"role": "user", "content": "Find the exchange-rate tool."},
        {"type": "tool_search_call", "call_id": "search_call_1", "execution": execution,
         "status": "completed", "arguments": {"queries": ["exchange rate"]}},
        {"type": "function_call_output", "call_id": "search_call_1",
         "output": "Found one matching tool."},
        {"role": "user", "content": "Acknowledge the tool without calling it."}]}


def test_the_output_of_a_client_tool_search_is_not_an_orphan() -> None:
    body = _tool_search("client")
    assert check(body, "openai_responses") == ()
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.changes == () and out.body["input"] == body["input"]


def test_an_output_for_a_server_side_search_is_still_an_orphan() -> None:
    body = _tool_search("server")
    assert [v.rule for v in check(body, "openai_responses")] == ["orphan-tool-result"]
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert [c.code for c in out.changes] == ["orphan-tool-result-to-text"]
