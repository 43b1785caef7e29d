"""Pairing and ordering passes, one at a time: the docstrings' before/after examples, the
policies, idempotence, and change entries for everything touched."""

from __future__ import annotations

from hypothesis import given, settings

from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
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


def test_dedupe_renames_later_call_and_its_result() -> None:
    start = draft(calls("a"), results("a"), calls("a"), results("a"))
    out, changes = dedupe_tool_call_ids(start, PROFILE, POLICY)
    assert out.history.messages[2].tool_calls[0].id == "a_2"
    assert out.history.messages[3].tool_results[0].call_id == "a_2"
    assert out.history.messages[1].tool_results[0].call_id == "a"
    assert dict(out.id_map) == {"a_2": "a"} and changes[0].code == "dedupe-tool-call-id"


def test_dedupe_within_one_turn_and_avoids_collisions() -> None:
    start = draft(calls("a", "a"), results("a", "a"), calls("a_2"), results("a_2"))
    out, _ = dedupe_tool_call_ids(start, PROFILE, POLICY)
    assert [c.id for c in out.history.messages[0].tool_calls] == ["a", "a_3"]
    assert [r.call_id for r in out.history.messages[1].tool_results] == ["a", "a_3"]


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
