"""Role passes: system messages where the protocol has room for them, and same-role
neighbours merged where the vendor needs alternation (how a conversation opens and ends:
passes/conversation_ends.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from normalizer.crossing import media_placeholder, opaque_text
from normalizer.model import ROLES, Change, JsonMap, Media, Message, Opaque, Part, Role, Text
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

# The role each neutral role takes on the wire, where it differs: Anthropic and Gemini send
# tool results inside a user turn, so a tool message next to a user message is two turns of
# the same role there. (The protocol is part of the profile, not the provider's name.)
_WIRE_ROLE: dict[str, dict[str, str]] = {
    "anthropic": {"tool": "user"},
    "gemini": {"tool": "user"},
}



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
    lead = leading_systems(messages)
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


def leading_systems(messages: Sequence[Message]) -> int:
    """How many system messages open `messages`."""
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
