"""Role, content and tools passes, against small profiles made for the test: the passes read
the rules (and their params) from the profile, never the provider's name."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from normalizer.model import History, Message, Opaque, Text, ToolCall, ToolResult, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes.content import (
    EMPTY_TEXT,
    drop_empty_text_blocks,
    fill_empty_content,
)
from normalizer.passes.conversation_ends import (
    CLOSING_TEXT,
    OPENING_TEXT,
    end_with_allowed_role,
    open_with_user_message,
)
from normalizer.passes.role_order import BRIDGE_TEXT, fix_role_order
from normalizer.passes.roles import merge_consecutive_roles, place_system_messages, wire_role
from normalizer.passes.tools_declared import declare_missing_tools
from normalizer.profiles import Profile, profile_from_mapping

POLICY = Policy()


def profile(protocol: str, *rules: tuple[str, dict[str, Any]]) -> Profile:
    return profile_from_mapping({"provider": "test", "protocol": protocol, "rules": [
        {"id": rule, "forbids": "x", "status": 400, "message": "unknown", "source": "test",
         "last_verified": "2026-11-22", "confidence": "low", "params": params}
        for rule, params in rules]})


def draft(*messages: Message, tools: tuple[ToolSpec, ...] = ()) -> Draft:
    return Draft(History(messages), tools)


def say(role: str, text: str) -> Message:
    return Message(role, (Text(text),))  # type: ignore[arg-type]


CALL = Message("assistant", (ToolCall("f", {}, "a"),))
RESULT = Message("tool", (ToolResult("a", "ok"),))
ROLE_ORDER = profile("openai_chat", ("role-order", {"allowed_after": {
    "system": ["system", "user", "assistant"], "user": ["user", "assistant", "system"],
    "assistant": ["assistant", "user", "tool"], "tool": ["tool", "assistant"]}}))


def roles(d: Draft) -> list[str]:
    return [m.role for m in d.history]


def test_system_messages_merge_into_one_at_the_start() -> None:
    start = draft(say("system", "a"), say("user", "hi"), say("system", "b"))
    out, changes = place_system_messages(start, profile("anthropic"), POLICY)
    assert roles(out) == ["system", "user"]
    assert [p.text for p in out.history.messages[0].parts] == ["a", "b"]  # type: ignore[union-attr]
    assert [(c.code, c.lossless) for c in changes] == [("move-system-message", False)]


def test_a_moved_system_messages_other_parts_go_to_the_start_as_text() -> None:
    # claude-fable-5 takes a role "system" message holding a tool_addition block
    # (evidence/anthropic/system-role-tool-addition-accepted-fable-5-2026-08.yaml); another
    # Claude's top-level `system` takes text blocks only.
    block = {"type": "tool_addition",
             "tool": {"type": "tool_reference", "name": "lookup_refund_policy"}}
    added = Message("system", (Opaque("anthropic", "tool_addition", block),))
    start = draft(say("system", "a"), say("user", "hi"), added)
    out, changes = place_system_messages(start, profile("anthropic"), POLICY)
    assert roles(out) == ["system", "user"]
    first, second = out.history.messages[0].parts
    assert first == Text("a") and isinstance(second, Text)
    assert "lookup_refund_policy" in second.text and "tool_addition" in second.text
    assert [(c.code, c.lossless, c.where) for c in changes] == [
        ("move-system-message", False, "messages[2]"),
        ("system-part-as-text", False, "messages[2].parts[0]")]


def test_merge_tool_turns_for_response_count_only() -> None:
    gemini = profile("gemini", ("function-response-count", {}))
    start = draft(Message("assistant", (ToolCall("f", {}, "a"), ToolCall("f", {}, "b"))),
                  RESULT, Message("tool", (ToolResult("b", "ok"),)), say("user", "next"))
    out, changes = merge_consecutive_roles(start, gemini, POLICY)
    assert roles(out) == ["assistant", "tool", "user"]
    assert len(changes) == 1 and changes[0].lossless


def test_alternation_compares_wire_roles() -> None:
    start = draft(say("user", "q"), CALL, RESULT, say("user", "and?"))
    alternating = profile("anthropic", ("role-alternation", {}))
    out, _ = merge_consecutive_roles(start, alternating, POLICY)
    assert roles(out) == ["user", "assistant", "tool"]  # tool and user are both user turns
    openai_like = profile("openai_chat", ("role-alternation", {}))
    assert merge_consecutive_roles(start, openai_like, POLICY) == (start, ())


def test_text_turn_before_call_turn_merges_for_call_placement() -> None:
    start = draft(say("user", "q"), say("assistant", "let me look"), CALL, RESULT)
    out, _ = merge_consecutive_roles(start, profile("gemini", ("call-turn-placement", {})),
                                     POLICY)
    assert roles(out) == ["user", "assistant", "tool"]
    assert out.history.messages[1].text == "let me look"


def _merged_pairwise(messages: tuple[Message, ...], profile: Profile
                     ) -> tuple[list[Message], list[tuple[str, bool]]]:
    """merge_consecutive_roles as first written: each message merged into the merged
    message before it, a new message per pair; the messages and (what, lossless) per change."""
    out: list[Message] = []
    said: list[tuple[str, bool]] = []
    for cur in messages:
        prev = out[-1] if out else None
        if prev is None or "system" in (prev.role, cur.role):
            out.append(cur)
            continue
        same = prev.role == cur.role
        w = wire_role(profile, prev.role)
        if not ((profile.enforces("function-response-count") and same and cur.role == "tool")
                or (profile.enforces("call-turn-placement") and same
                    and cur.role == "assistant" and cur.tool_calls and not prev.tool_calls)
                or (profile.enforces("role-alternation") and w == wire_role(profile, cur.role)
                    and w != "tool" and not (prev.role == "assistant" and prev.tool_calls))):
            out.append(cur)
            continue
        conflict = any(k in prev.extras and prev.extras[k] != v for k, v in cur.extras.items())
        same_origin = prev.origin == cur.origin
        out[-1] = Message("tool" if "tool" in (prev.role, cur.role) else prev.role,
                          prev.parts + cur.parts,
                          origin=prev.origin if same_origin else (prev.origin or cur.origin),
                          extras=cur.extras.merged(**dict(prev.extras)))
        said.append((f"merged this {cur.role} message into the {prev.role} message before it",
                     not conflict and (same_origin or None in (prev.origin, cur.origin))))
    return out, said


_PARTS = st.sampled_from([Text("t"), ToolCall("f", {}, "a"), ToolResult("a", "ok")])
_MESSAGES = st.builds(lambda role, parts, origin, extras: Message(role, tuple(parts),
                                                                  origin=origin, extras=extras),
                      st.sampled_from(["user", "assistant", "tool", "system"]),
                      st.lists(_PARTS, min_size=1, max_size=2),
                      st.sampled_from([None, "openai", "anthropic"]),
                      st.sampled_from([{}, {"k": 1}, {"k": 2}, {"j": 1}]))
_MERGING = [profile("gemini", ("function-response-count", {}), ("call-turn-placement", {})),
            profile("anthropic", ("role-alternation", {})),
            profile("openai_chat", ("role-alternation", {}), ("call-turn-placement", {}))]


@settings(max_examples=200, deadline=None)
@given(st.lists(_MESSAGES, max_size=12), st.sampled_from(_MERGING))
@example([say("user", "q"), RESULT, say("user", "r")], _MERGING[1])  # user + tool: a tool turn
@example([say("assistant", "a"), CALL, CALL], _MERGING[0])  # nothing after a call turn
@example([RESULT, Message("tool", (ToolResult("b", "ok"),), origin="openai", extras={"k": 1}),
          Message("tool", (ToolResult("c", "ok"),), origin="gemini", extras={"k": 2})],
         _MERGING[0])  # origins and extras that one message cannot hold both of
def test_runs_merge_as_they_did_a_pair_at_a_time(messages: list[Message],
                                                  merging: Profile) -> None:
    """Runs are merged into one growing turn: the same messages and report as merging each
    message into a new merged message, a pair at a time."""
    out, changes = merge_consecutive_roles(draft(*messages), merging, POLICY)
    want, said = _merged_pairwise(tuple(messages), merging)
    assert list(out.history.messages) == want
    assert [(c.what, c.lossless) for c in changes] == said


def test_opening_user_message_is_labelled() -> None:
    start = draft(say("system", "s"), CALL, RESULT)
    out, changes = open_with_user_message(start, profile("gemini", ("call-turn-placement", {})),
                                          POLICY)
    assert roles(out) == ["system", "user", "assistant", "tool"]
    assert out.history.messages[1].text == OPENING_TEXT
    assert changes[0].code == "insert-opening-user-message"
    allowed = profile("openai_chat", ("first-message-role", {"allowed": ["user", "assistant"]}))
    assert open_with_user_message(draft(CALL, RESULT), allowed, POLICY)[1] == ()


def test_role_order_bridges_tool_to_user() -> None:
    out, changes = fix_role_order(draft(say("user", "q"), CALL, RESULT, say("user", "and?")),
                                  ROLE_ORDER, POLICY)
    assert roles(out) == ["user", "assistant", "tool", "assistant", "user"]
    assert out.history.messages[3].text == BRIDGE_TEXT["assistant"]
    assert [c.code for c in changes] == ["insert-bridge-message"]


def test_role_order_splits_text_beside_results() -> None:
    mixed = Message("tool", (ToolResult("a", "ok"), Text("aside")))
    start = draft(say("user", "q"), CALL, mixed, say("system", "be brief"),
                  say("assistant", "done"))
    out, changes = fix_role_order(start, ROLE_ORDER, POLICY)
    assert roles(out) == ["user", "assistant", "tool", "assistant", "user", "system",
                          "assistant"]
    assert [c.code for c in changes] == ["split-tool-message-text", "insert-bridge-message"]


def test_text_beside_results_waits_for_the_end_of_the_answer_block() -> None:
    """Text split off a tool message that more tool messages follow goes after the whole
    run: put right after its own message it cut the next results off from their call turn,
    and the confirming round moved them back, leaving two bridges in a row (Mistral)."""
    from normalizer import normalize
    from normalizer.passes._blocks import pairing

    calls = Message("assistant", (ToolCall("f", {}, "abcdefgh1"), ToolCall("f", {}, "abcdefgh2")))
    first = Message("tool", (ToolResult("abcdefgh1", "1"), Text("note")))
    second = Message("tool", (ToolResult("abcdefgh2", "2"),))
    start = draft(say("user", "q"), calls, first, second, say("user", "and?"))
    out, changes = fix_role_order(start, ROLE_ORDER, POLICY)
    assert roles(out) == ["user", "assistant", "tool", "tool", "assistant", "user", "user"]
    assert [m.text for m in out.history.messages[4:]] == [BRIDGE_TEXT["assistant"], "note",
                                                            "and?"]
    assert pairing(out.history.messages).orphans() == []
    assert [c.code for c in changes] == ["split-tool-message-text", "insert-bridge-message"]
    done = normalize(start.history, "mistral")
    assert "move-tool-result" not in {c.code for c in done.changes}
    assert [m.role for m in done.history.messages].count("assistant") == 2


def test_role_order_lifts_a_system_message_to_where_it_is_accepted() -> None:
    start = draft(say("user", "q"), CALL, RESULT, say("system", "be brief"),
                  say("assistant", "done"))
    out, changes = fix_role_order(start, ROLE_ORDER, POLICY)
    assert roles(out) == ["user", "system", "assistant", "tool", "assistant"]
    assert [(c.code, c.lossless) for c in changes] == [("move-system-message", False)]


def test_last_assistant_becomes_prefix_when_allowed() -> None:
    last_rule = profile("openai_chat", ("last-message-role",
                                        {"allowed": ["user", "tool"], "prefix_ok": True}))
    out, changes = end_with_allowed_role(draft(say("user", "q"), say("assistant", "a")),
                                         last_rule, POLICY)
    assert out.history.messages[-1].extras["prefix"] is True
    assert changes[0].code == "mark-assistant-prefix"
    # No prefix taken at all (Anthropic, Claude 4.6 and later): a labelled user message is
    # added after the assistant message, which stays; the model no longer continues it.
    strict = profile("openai_chat", ("last-message-role", {"allowed": ["user", "tool"]}))
    start = draft(say("user", "q"), say("assistant", "a"))
    out, changes = end_with_allowed_role(start, strict, POLICY)
    assert [(m.role, m.text) for m in out.history.messages] == [
        ("user", "q"), ("assistant", "a"), ("user", CLOSING_TEXT)]
    assert [(c.code, c.where, c.lossless) for c in changes] == [
        ("insert-closing-user-message", "messages[2]", False)]
    assert end_with_allowed_role(out, strict, POLICY) == (out, ())
    # A final assistant message holding calls is not closed (its results are missing), nor
    # a paused server-tool turn (sent back to be continued).
    user_only = profile("anthropic", ("last-message-role", {"allowed": ["user"]}))
    calls = draft(say("user", "q"), CALL)
    assert end_with_allowed_role(calls, user_only, POLICY) == (calls, ())
    paused = draft(say("user", "q"), Message("assistant", (
        Text("Searching."), Opaque("anthropic", "server_tool_use", {"type": "server_tool_use"},
                                   hosted=True))))
    assert end_with_allowed_role(paused, user_only, POLICY) == (paused, ())
    assert end_with_allowed_role(start, user_only, POLICY)[0].history.messages[-1].role == "user"


def test_no_prefix_mark_where_the_profile_refuses_the_field() -> None:
    """A profile that lets a final assistant message stand with `prefix: true` but lists the
    assistant's fields without `prefix` (two rules of a user's or a probe's profile): marking
    it and dropping the mark again went on round after round, and the body ended as it
    began. It is left as is, and a second normalize changes nothing."""
    from normalizer import normalize

    both = profile("openai_chat",
                   ("last-message-role", {"allowed": ["user", "tool"], "prefix_ok": True}),
                   ("unknown-message-field", {"allowed": {"user": ["role", "content"],
                                                          "assistant": ["role", "content"]}}))
    start = draft(say("user", "q"), say("assistant", "a"))
    assert end_with_allowed_role(start, both, POLICY) == (start, ())
    done = normalize(start.history, both)
    assert done.changes == () and normalize(done.history, both).changes == ()
    taken = profile("openai_chat",
                    ("last-message-role", {"allowed": ["user", "tool"], "prefix_ok": True}),
                    ("unknown-message-field", {"allowed": {"assistant": ["role", "content",
                                                                         "prefix"]}}))
    marked, changes = end_with_allowed_role(start, taken, POLICY)
    assert marked.history.messages[-1].extras["prefix"] is True
    assert [c.code for c in changes] == ["mark-assistant-prefix"]


def test_final_unanswered_calls_get_their_results_where_a_tool_message_may_end() -> None:
    """A profile with last-message-role but not the missing-result rule runs no pass that
    answers calls: a request ending on a call turn kept ending there, and the vendor refused
    it. Their results are synthesized, or under the drop policy the calls go."""
    last_rule = profile("openai_chat", ("last-message-role", {"allowed": ["user", "tool"]}))
    start = draft(say("user", "q"), Message("assistant", (ToolCall("f", {}, "c1"),
                                                          ToolCall("g", {}, "c2"))))
    out, changes = end_with_allowed_role(start, last_rule, POLICY)
    assert roles(out) == ["user", "assistant", "tool"]
    assert [(r.call_id, r.name, r.is_error) for r in out.history.messages[-1].tool_results] == [
        ("c1", "f", True), ("c2", "g", True)]
    assert [(c.code, c.where) for c in changes] == [
        ("insert-missing-tool-result", "messages[2] (new tool message)")] * 2
    assert end_with_allowed_role(out, last_rule, POLICY) == (out, ())
    dropped, changes = end_with_allowed_role(start, last_rule, Policy(unanswered_calls="drop"))
    assert roles(dropped) == ["user"]
    assert [(c.code, c.lossless) for c in changes] == [("drop-unanswered-tool-call", False)] * 2


def test_empty_text_parts_dropped_and_empty_messages_filled() -> None:
    anthropic = profile("anthropic")
    start = draft(Message("user", (Text(""),)), Message("assistant", (Text(" "),)),
                  Message("assistant", (Text(""), ToolCall("f", {}, "a"))),
                  Message("tool", (ToolResult("a", ""),)))
    mid, dropped = drop_empty_text_blocks(start, anthropic, POLICY)
    assert [c.where for c in dropped] == ["messages[2].parts[0]"]
    out, filled = fill_empty_content(mid, anthropic, POLICY)
    assert roles(out) == ["user", "assistant", "tool"]
    assert out.history.messages[0].text == EMPTY_TEXT
    assert out.history.messages[2].tool_results[0].text
    assert [c.code for c in filled] == ["fill-empty-content", "drop-empty-message",
                                        "fill-empty-tool-result"]


def test_whitespace_text_beside_a_call_stays() -> None:
    # Anthropic accepts a " " block beside other blocks (recorded, simonw/llm-anthropic;
    # LibreChat-AI/agents#124): only the empty one goes, and a message left with nothing but
    # blank text is fill_empty_content's (the pass never empties a message).
    anthropic = profile("anthropic")
    start = draft(say("user", "q"),
                  Message("assistant", (Text(" "), Text(""), ToolCall("f", {}, "a"))),
                  Message("tool", (ToolResult("a", "r"),)),
                  Message("assistant", (Text(""), Text("\n"))))
    out, dropped = drop_empty_text_blocks(start, anthropic, POLICY)
    assert [c.where for c in dropped] == ["messages[1].parts[1]"]
    assert out.history.messages[1].parts == (Text(" "), ToolCall("f", {}, "a"))
    assert out.history.messages[3] == start.history.messages[3]


def test_declare_missing_tools_only_when_none_declared() -> None:
    start = draft(say("user", "q"), CALL, RESULT)
    out, changes = declare_missing_tools(start, profile("anthropic"), POLICY)
    assert [t.name for t in out.tools] == ["f"] and changes[0].where == "tools"
    declared = draft(say("user", "q"), CALL, RESULT, tools=(ToolSpec("g"),))
    assert declare_missing_tools(declared, profile("anthropic"), POLICY) == (declared, ())
    plain = draft(say("user", "q"))
    assert declare_missing_tools(plain, profile("anthropic"), POLICY) == (plain, ())
