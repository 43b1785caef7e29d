"""Role passes for the two ends of a conversation: a labelled user message where the vendor
wants one to open it (or one at all), and a last message of a role the vendor takes last."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from normalizer.model import Change, Message, Opaque, Text
from normalizer.passes import Draft, Policy
from normalizer.passes.pairing import answer_calls, spliced
from normalizer.passes.roles import leading_systems, wire_roles
from normalizer.profiles import Profile

# Wires whose message list holds the system messages: a system prompt alone fills it.
_SYSTEM_LISTED = ("openai_chat", "openai_responses")
CLOSING_TEXT = ("[continue: the conversation ended with your message above; this note was "
                "added because the model takes no assistant message last]")
EMPTY_TEXT = ("[no user message was sent; this note was added so the request has one: "
              "follow the instructions]")
OPENING_TEXT = ("[conversation continues: the messages before this point are not included; "
                "this note was added so the history starts with a user turn]")


def open_with_user_message(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a history whose first non-system message is of a role the vendor does not accept
    there (`first-message-role`, allowed roles in `params.allowed`, default user), or opens
    with a call turn (`call-turn-placement`). A short user message that says it was added is
    put before it; nothing is removed (dropping the opening assistant turns, as some clients
    do, loses them, and seed 002's "Please continue." filler did not say it was synthetic).
    A history of system messages alone (`conversation-empty`) gets one after them, and so
    does, right after its system messages, one with no user message at all where the
    vendor wants one (`user-message-missing`: DashScope "The input messages do not contain
    elements with the role of user").

    Rejected by: Gemini "Please ensure that function call turn comes immediately after a
    user turn or after a function response turn."; others per their profiles.

    Before: [system "s", assistant(call_1), tool(result call_1)]
    After:  [system "s", user "[conversation continues: …]", assistant(call_1), tool(…)]
    Lossless (one labelled message added).
    """
    messages = draft.history.messages
    lead = leading_systems(messages)
    if profile.enforces("user-message-missing") \
            and not any(m.role == "user" for m in messages):
        # DashScope wants one somewhere: it says the history starts mid-conversation, or,
        # where nothing follows the system messages, that none was sent.
        return _with_user_message(draft, lead,
                                  OPENING_TEXT if lead < len(messages) else EMPTY_TEXT,
                                  "added a user message: the history held none, and the "
                                  "target wants one")
    if lead == len(messages):  # no conversation at all: a system prompt alone, or nothing
        return _opened_empty(draft, profile)
    if not _bad_opening(messages[lead], profile):
        return draft, ()
    return _with_user_message(draft, lead, OPENING_TEXT,
                              "added a user message saying the history starts "
                              f"mid-conversation, before the opening {messages[lead].role} "
                              "message")


def _with_user_message(draft: Draft, at: int, text: str,
                       what: str) -> tuple[Draft, tuple[Change, ...]]:
    """`draft` with a user message saying `text` put at `at`, and the change saying `what`."""
    messages = draft.history.messages
    history = replace(draft.history, messages=(*messages[:at], Message("user", (Text(text),)),
                                               *messages[at:]))
    return replace(draft, history=history), (Change(
        "open_with_user_message", "insert-opening-user-message", what, f"messages[{at}]",
        lossless=True),)


def _opened_empty(draft: Draft, profile: Profile) -> tuple[Draft, tuple[Change, ...]]:
    """A history with nothing but system messages (on Chat and Responses, where those fill
    the list: no message at all), for a vendor that wants a turn to answer (rule
    conversation-empty): a labelled user message goes after the system prompt, which stays
    an instruction."""
    messages = draft.history.messages
    listed = messages and profile.protocol in _SYSTEM_LISTED  # the system prompt fills it
    if listed or not profile.enforces("conversation-empty"):
        return draft, ()
    return _with_user_message(draft, len(messages), EMPTY_TEXT,
                              "added a user message saying none was sent: the history holds "
                              "no message besides the system prompt")


def _bad_opening(first: Message, profile: Profile) -> bool:
    if profile.enforces("call-turn-placement") and first.role == "assistant" and first.tool_calls:
        return True
    allowed = profile.param("first-message-role", "allowed", ("user",))
    return profile.enforces("first-message-role") and first.role not in tuple(allowed)


def end_with_allowed_role(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a last message of a role the vendor does not accept last (`last-message-role`,
    the copy that holds for the model, `params.allowed`). When the vendor lets a final
    assistant message stand as a prefix to continue (`params.prefix_ok`), it is marked so
    (`prefix: true`). Where it takes no prefix at all, a short user message that says it was
    added is put after it, as open_with_user_message does at the start: the assistant
    message is kept (clients that delete it lose its text). Lossy, said: the model answers
    after the message instead of continuing it. A paused server-tool turn (its last part a
    hosted call or result, sent back to be continued) is left as is.

    A final assistant message with calls, where a tool message may end the request, gets
    their results, saying the calls were interrupted, or (policy drop) loses them, as
    answer_unanswered_calls would do: a profile without its rule does not run it.

    Rejected by: Mistral "Expected last role User or Tool (or Assistant with prefix True) for
    serving but got {role}" (its profile); Anthropic, Claude 4.6 and later, "This model does
    not support assistant message prefill. The conversation must end with a user message."
    (smallmain/vscode-unify-chat-provider#249, Claude Opus 4.8).

    Before: [user "Write a haiku", assistant "Autumn moon"]
    After:  the same, the assistant message with extras {"prefix": true}
    Lossless (the model is asked to continue the assistant text, which is what a request
    ending in an assistant message means). Not marked where the profile also refuses a
    `prefix` field on assistant messages (unknown-message-field): left as is then.
    """
    messages = draft.history.messages
    rule = profile.copy_for("last-message-role", policy.model or profile.default_model)
    if rule is None:
        return draft, ()
    allowed = tuple(rule.params.get("allowed") or ())
    least = int(rule.params.get("min_messages", 1) or 1)
    if len(messages) < least or not messages or wire_roles(messages[-1], profile)[-1] in allowed:
        return draft, ()
    messages, changes = _systems_not_last(messages, allowed)
    last = messages[-1]
    if last.role == "assistant" and last.tool_calls and "tool" in allowed:
        # Calls nobody answered (a profile without the missing-result rule has no pass that
        # answers them), dealt with as answer_unanswered_calls deals with them.
        work, at = list(messages), len(messages) - 1
        added: dict[int, Message] = {}
        emptied: set[int] = set()
        changes = (*changes, *answer_calls(work, (at, range(at + 1, at + 1)),
                                           list(range(len(last.tool_calls))), policy, added,
                                           emptied, by="end_with_allowed_role"))
        messages = tuple(spliced(work, added, emptied))
        if not messages or wire_roles(messages[-1], profile)[-1] in allowed:
            return replace(draft, history=replace(draft.history, messages=messages)), changes
        last = messages[-1]
    prefix_ok = bool(rule.params.get("prefix_ok", False))
    if (last.role == "assistant" and not last.tool_calls and not prefix_ok
            and "user" in allowed and not _paused_server_turn(last)):
        closing = Message("user", (Text(CLOSING_TEXT),))
        change = Change("end_with_allowed_role", "insert-closing-user-message",
                        "added a user message asking to continue after the final assistant "
                        "message: the model takes no assistant message last (no prefill), so "
                        "it answers after that message instead of continuing it",
                        f"messages[{len(messages)}]", lossless=False)
        history = replace(draft.history, messages=(*messages, closing))
        return replace(draft, history=history), (*changes, change)
    if (last.role != "assistant" or last.tool_calls or last.extras.get("prefix") is True
            or not prefix_ok or not _prefix_field_taken(profile)):
        return replace(draft, history=replace(draft.history, messages=messages)), changes
    marked = replace(last, extras=last.extras.merged(prefix=True))
    change = Change("end_with_allowed_role", "mark-assistant-prefix",
                    "marked the final assistant message as a prefix to continue",
                    f"messages[{len(messages) - 1}]", lossless=True)
    history = replace(draft.history, messages=(*messages[:-1], marked))
    return replace(draft, history=history), (*changes, change)


def _paused_server_turn(message: Message) -> bool:
    """Whether `message` ends with server-side tool activity: Anthropic's paused turn
    (stop_reason pause_turn), which the app sends back for the model to go on with."""
    last = message.parts[-1] if message.parts else None
    return isinstance(last, Opaque) and last.hosted


def _prefix_field_taken(profile: Profile) -> bool:
    """Whether an assistant message may carry `prefix`: not where the profile's
    unknown-message-field lists the assistant's fields without it (drop_unknown_message_fields
    would take the mark off again, round after round, and the body would end as it began)."""
    allowed = profile.param("unknown-message-field", "allowed", {}) or {}
    fields = allowed.get("assistant") if isinstance(allowed, Mapping) else None
    return fields is None or "prefix" in fields


def _systems_not_last(messages: tuple[Message, ...],
                      allowed: tuple[str, ...]) -> tuple[tuple[Message, ...], tuple[Change, ...]]:
    """Trailing system messages, where the vendor does not accept one last, move to just
    before the last other message (lossy: a little of their position is lost)."""
    tail = len(messages)
    while tail > 0 and messages[tail - 1].role == "system":
        tail -= 1
    if "system" in allowed or tail in (0, len(messages)):
        return messages, ()
    moved = messages[tail:]
    changes = tuple(Change("end_with_allowed_role", "move-system-message",
                           "moved a trailing system message before the last message",
                           f"messages[{m}]", lossless=False) for m in range(tail, len(messages)))
    return (*messages[:tail - 1], *moved, messages[tail - 1]), changes
