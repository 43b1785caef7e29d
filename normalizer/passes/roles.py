"""Role passes: system messages where the protocol has room for them, same-role neighbours
merged where the vendor needs alternation, and a conversation that opens the way the vendor
requires."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from normalizer.crossing import media_placeholder, opaque_text
from normalizer.model import ROLES, Change, JsonMap, Media, Message, Opaque, Part, Role, Text
from normalizer.passes import Draft, Policy
from normalizer.passes.pairing import answer_calls, spliced
from normalizer.profiles import Profile

# The role each neutral role takes on the wire, where it differs: Anthropic and Gemini send
# tool results inside a user turn, so a tool message next to a user message is two turns of
# the same role there. (The protocol is part of the profile, not the provider's name.)
_WIRE_ROLE: dict[str, dict[str, str]] = {
    "anthropic": {"tool": "user"},
    "gemini": {"tool": "user"},
}

# Wires whose message list holds the system messages: a system prompt alone fills it.
_SYSTEM_LISTED = ("openai_chat", "openai_responses")
CLOSING_TEXT = ("[continue: the conversation ended with your message above; this note was "
                "added because the model takes no assistant message last]")
EMPTY_TEXT = ("[no user message was sent; this note was added so the request has one: "
              "follow the instructions]")
OPENING_TEXT = ("[conversation continues: the messages before this point are not included; "
                "this note was added so the history starts with a user turn]")


def wire_role(profile: Profile, role: Role) -> str:
    """The role name the profile's protocol writes for a neutral role."""
    return _WIRE_ROLE.get(profile.protocol, {}).get(role, role)


def wire_roles(message: Message, profile: Profile) -> tuple[str, ...]:
    """The wire roles a message renders as: OpenAI-style protocols send one `tool` message
    per result, then the text of the turn as a user message."""
    role = wire_role(profile, message.role)
    if role != "tool":
        return (role,)
    texts = ("user",) if any(beside_results(p) for p in message.parts) else ()
    return ("tool",) * max(1, len(message.tool_results)) + texts


def beside_results(part: Part) -> bool:
    """A part of a tool turn that OpenAI-style protocols send as a user message after the
    results: text, and media (and a protocol's own content parts) the crossing pass moved
    out of a result because the target has no media inside one."""
    return isinstance(part, Text | Media) or (isinstance(part, Opaque) and part.slot == "part")


def place_system_messages(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes system messages where the protocol has no place for them: Anthropic's `system`,
    Gemini's `systemInstruction` and Responses' `instructions` are one value before all
    messages. Every system message is merged, parts in order, into one system message at
    the start, so its instructions keep their authority.

    Rejected by: Anthropic "role 'system' is not supported on this model" (since 2026-05;
    before, 'messages: Unexpected role "system". …'), save for the models that take
    mid-conversation system messages (its profile).

    Before: [system "be brief", user "hi", system "answer in French", assistant "salut"]
    After:  [system ("be brief", "answer in French"), user "hi", assistant "salut"]
    Lossless for system messages that were already at the start; lossy for later ones (the
    point in the conversation where the instruction was given is lost). The place at the
    start takes text only (Anthropic's `system` is a string or text blocks): another part
    of a moved message (claude-fable-5's `tool_addition` block, sent to another Claude)
    goes as text describing it, with a change of its own (system-part-as-text, lossy).
    """
    messages = draft.history.messages
    systems = [m for m, msg in enumerate(messages) if msg.role == "system"]
    if len(systems) < 2 and systems in ([], [0]):
        return draft, ()
    lead = _leading_systems(messages)
    parts: list[Part] = []
    texted: list[Change] = []
    for m in systems:
        for j, part in enumerate(messages[m].parts):
            if m >= lead and not isinstance(part, Text):
                part = Text(_described(part))
                texted.append(Change("place_system_messages", "system-part-as-text",
                                     "a non-text part of a system message moved to the start, "
                                     "where only text goes; sent as text describing it",
                                     f"messages[{m}].parts[{j}]", lossless=False))
            parts.append(part)
    merged = replace(messages[systems[0]], parts=tuple(parts))
    rest = tuple(msg for msg in messages if msg.role != "system")
    changes = tuple(Change("place_system_messages",
                           "merge-system-messages" if m < lead else "move-system-message",
                           "merged this system message into the one system message at the "
                           "start" + ("" if m < lead else f" (it was at position {m})"),
                           f"messages[{m}]", lossless=m < lead) for m in systems[1:])
    if systems[0] != 0:
        changes = (Change("place_system_messages", "move-system-message",
                          f"moved the system message at position {systems[0]} to the start",
                          f"messages[{systems[0]}]", lossless=False), *changes)
    history = replace(draft.history, messages=(merged, *rest))
    return replace(draft, history=history), (*changes, *texted)


def _described(part: Part) -> str:
    """A system message's non-text part as text: a protocol's own block as its JSON, media
    as the placeholder the crossing pass writes."""
    if isinstance(part, Media):
        return media_placeholder(part)
    if isinstance(part, Opaque):
        return opaque_text(part)
    return f"[{type(part).__name__.lower()} part]"


def _leading_systems(messages: Sequence[Message]) -> int:
    lead = 0
    while lead < len(messages) and messages[lead].role == "system":
        lead += 1
    return lead


def merge_consecutive_roles(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes neighbouring messages that the vendor wants as one turn: same-role neighbours
    where it requires alternation (`role-alternation`, compared as wire roles, so a tool turn
    and a user turn are both user turns for Anthropic and Gemini); the results of one call
    turn spread over several turns (`function-response-count`: Gemini wants them in one);
    an assistant text turn right before a call turn (`call-turn-placement`).

    Rejected by: Gemini "Please ensure that the number of function response parts is equal
    to the number of function call parts of the function call turn." and "Please ensure
    that function call turn comes immediately after a user turn or after a function response
    turn."; others per their profiles.

    Before: [assistant(call_1, call_2), tool(result call_1), tool(result call_2)]
    After:  [assistant(call_1, call_2), tool(result call_1, result call_2)]
    Lossless (parts are kept in order) unless the two messages had different origins or
    conflicting extras, which one message cannot hold.
    """
    messages = draft.history.messages
    out: list[Message] = []
    changes: list[Change] = []
    rules = _MergeRules.of(profile)  # read once, not per pair of messages
    turn: _Turn | None = None  # the last message out while others are merged into it
    for m, message in enumerate(messages):
        if turn is None:
            if not out or not _must_merge(out[-1], message, rules):
                out.append(message)
                continue
            first = out.pop()
            turn = _Turn(first.role, bool(first.tool_calls), first.origin, first.extras,
                         list(first.parts))
        elif not _must_merge(turn, message, rules):
            out.append(turn.made())
            out.append(message)
            turn = None
            continue
        into = turn.role
        lossless = turn.take(message)
        changes.append(Change("merge_consecutive_roles", "merge-consecutive-messages",
                              f"merged this {message.role} message into the "
                              f"{into} message before it", f"messages[{m}]", lossless=lossless))
    if not changes:
        return draft, ()
    if turn is not None:
        out.append(turn.made())
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


@dataclass(slots=True)
class _Turn:
    """A message that others are being merged into. Mutable, and local to one pass: the
    parts grow in place, where merging a run of k messages a pair at a time made k messages,
    each copying and sorting all the parts before it (the square of a long run)."""

    role: str
    tool_calls: bool  # whether it holds any (read as a message's tuple of them is)
    origin: str | None
    extras: JsonMap
    parts: list[Part]

    def take(self, second: Message) -> bool:
        """`second` merged in after the parts so far; whether nothing was lost: one message
        cannot hold two origins, nor two values of one extra."""
        conflict = any(k in self.extras and self.extras[k] != v
                       for k, v in second.extras.items())
        lossless = not conflict and (self.origin == second.origin
                                     or None in (self.origin, second.origin))
        if self.origin != second.origin:
            self.origin = self.origin or second.origin
        self.extras = second.extras.merged(**dict(self.extras))
        if second.role == "tool":
            self.role = "tool"
        self.tool_calls = self.tool_calls or bool(second.tool_calls)
        self.parts.extend(second.parts)
        return lossless

    def made(self) -> Message:
        return Message(self.role, tuple(self.parts), origin=self.origin, extras=self.extras)


@dataclass(frozen=True, slots=True)
class _MergeRules:
    """What `_must_merge` reads from the profile."""

    response_count: bool
    call_placement: bool
    alternation: bool
    wire: Mapping[str, str]

    @classmethod
    def of(cls, profile: Profile) -> _MergeRules:
        return cls(profile.enforces("function-response-count"),
                   profile.enforces("call-turn-placement"),
                   profile.enforces("role-alternation"),
                   {role: wire_role(profile, role) for role in ROLES})


def _must_merge(prev: Message | _Turn, cur: Message, rules: _MergeRules) -> bool:
    if "system" in (prev.role, cur.role):
        return False
    if rules.response_count and prev.role == cur.role == "tool":
        return True
    if (rules.call_placement and prev.role == cur.role == "assistant"
            and bool(cur.tool_calls) and not prev.tool_calls):
        return True
    if not rules.alternation:
        return False
    wire = rules.wire[prev.role]
    # Consecutive wire `tool` messages are how OpenAI-style protocols carry parallel results.
    # A call turn must stay the last of its merged turn, so nothing is merged after it.
    return wire == rules.wire[cur.role] and wire != "tool" and not (
        prev.role == "assistant" and prev.tool_calls)


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
    lead = _leading_systems(messages)
    if profile.enforces("user-message-missing") \
            and not any(m.role == "user" for m in messages):
        return _with_a_user_message(draft, lead)
    if lead == len(messages):  # no conversation at all: a system prompt alone, or nothing
        return _opened_empty(draft, profile)
    if not _bad_opening(messages[lead], profile):
        return draft, ()
    opening = Message("user", (Text(OPENING_TEXT),))
    history = replace(draft.history, messages=(*messages[:lead], opening, *messages[lead:]))
    change = Change("open_with_user_message", "insert-opening-user-message",
                    f"added a user message saying the history starts mid-conversation, before "
                    f"the opening {messages[lead].role} message", f"messages[{lead}]",
                    lossless=True)
    return replace(draft, history=history), (change,)


def _with_a_user_message(draft: Draft, lead: int) -> tuple[Draft, tuple[Change, ...]]:
    """A history with no user message, for a vendor that wants one somewhere (rule
    user-message-missing, DashScope): a labelled one goes after the leading system
    messages, saying the history starts mid-conversation, or, where nothing follows them,
    that none was sent."""
    messages = draft.history.messages
    text = OPENING_TEXT if lead < len(messages) else EMPTY_TEXT
    history = replace(draft.history, messages=(*messages[:lead],
                                               Message("user", (Text(text),)),
                                               *messages[lead:]))
    change = Change("open_with_user_message", "insert-opening-user-message",
                    "added a user message: the history held none, and the target wants one",
                    f"messages[{lead}]", lossless=True)
    return replace(draft, history=history), (change,)


def _opened_empty(draft: Draft, profile: Profile) -> tuple[Draft, tuple[Change, ...]]:
    """A history with nothing but system messages (on Chat and Responses, where those fill
    the list: no message at all), for a vendor that wants a turn to answer (rule
    conversation-empty): a labelled user message goes after the system prompt, which stays
    an instruction."""
    messages = draft.history.messages
    listed = messages and profile.protocol in _SYSTEM_LISTED  # the system prompt fills it
    if listed or not profile.enforces("conversation-empty"):
        return draft, ()
    history = replace(draft.history, messages=(*messages, Message("user", (Text(EMPTY_TEXT),))))
    change = Change("open_with_user_message", "insert-opening-user-message",
                    "added a user message saying none was sent: the history holds no message "
                    "besides the system prompt", f"messages[{len(messages)}]", lossless=True)
    return replace(draft, history=history), (change,)


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
