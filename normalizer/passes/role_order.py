"""`fix_role_order`: a role right after one the vendor does not accept before it is moved,
split or bridged (`role-order`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from normalizer.model import ROLES, Change, Message, Text
from normalizer.passes import Draft, Policy
from normalizer.passes.roles import beside_results, wire_role, wire_roles
from normalizer.profiles import Profile

BRIDGE_TEXT: dict[str, str] = {
    "assistant": "[no assistant reply was recorded here]",
    "user": "[no user message was recorded here]",
}


def fix_role_order(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a role right after a role the vendor does not accept before it
    (`role-order`, `params.allowed_after`: previous wire role -> roles allowed next). Text
    beside results in a tool message is split into a user message of its own, put after the
    run of tool messages it was in; a system message the vendor does not accept where it is
    moves back to where it is accepted; then a short labelled assistant (or user) message
    is put between two roles when one of those roles bridges them. Nothing is removed.

    Rejected by: Mistral "Unexpected role '{role}' after role '{previous}'" (its profile).

    Before: [assistant(call_1), tool(result call_1), user "and Rome?"]
    After:  [assistant(call_1), tool(result call_1),
             assistant "[no assistant reply was recorded here]", user "and Rome?"]
    Lossless (a labelled message is added).
    """
    table = profile.param("role-order", "allowed_after", {}) or {}
    known = {r for allowed in table.values() for r in allowed}

    def bad(before: str, now: str) -> bool:
        return before in table and now in known and now not in table[before]

    out: list[Message] = []
    changes: list[Change] = []
    split = bad("tool", "user")
    # What `bad` and `wire_roles` answer, looked up: this loop visits every message, and in
    # the confirming round usually finds nothing.
    wrong = {(before, now) for before in table for now in known if bad(before, now)}
    plain = {role: wire_role(profile, role) for role in ROLES}
    last = ""  # the wire role the previous piece ends with (read once per piece)

    def put(piece: Message, m: int) -> None:
        nonlocal last
        first = plain[piece.role]
        wires = (first,) if first != "tool" else wire_roles(piece, profile)
        if out and (last, wires[0]) in wrong:
            _add_bridge(out, changes, _bridge(last, wires[0], bad), piece.role, m)
        out.append(piece)
        last = wires[-1]

    messages = _lift_systems(draft.history.messages, profile, bad, changes)
    held: list[tuple[Message, int]] = []  # see `_held`
    for m, message in enumerate(messages):
        role = message.role
        if held and role != "tool":
            _flush(held, put)
        first = plain[role]
        if (first != "tool" and (role != "tool" or not split)) or (
                role == "tool" and len(message.tool_results) == len(message.parts)):
            # The common cases, spelled out (what `put` does with a piece whose wire roles
            # all are `first`): a message that stays whole as one wire role, and a tool
            # message of results only (nothing beside them to split off or send as a user
            # message): every message of a long history comes here.
            if out and (last, first) in wrong:
                _add_bridge(out, changes, _bridge(last, first, bad), role, m)
            out.append(message)
            last = first
            continue
        pieces = [message] if not split or role != "tool" \
            else _split_text(message, m, split, changes)
        put(pieces[0], m)
        held.extend(_held(pieces[1:], m, messages, put))
    _flush(held, put)
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _held(rest: list[Message], m: int, messages: Sequence[Message],
          put: Callable[[Message, int], None]) -> list[tuple[Message, int]]:
    """The text split off tool message `m` (`rest`) put now, or held when more tool messages
    follow: put right after its own message, it would cut the results after it off from
    their call turn (the next round would move them back, around the bridges), so it waits
    for the end of the run."""
    if m + 1 < len(messages) and messages[m + 1].role == "tool":
        return [(piece, m) for piece in rest]
    for piece in rest:
        put(piece, m)
    return []


def _flush(held: list[tuple[Message, int]], put: Callable[[Message, int], None]) -> None:
    """Put the held pieces, in order, and forget them."""
    for piece, at in held:
        put(piece, at)
    held.clear()


def _add_bridge(out: list[Message], changes: list[Change], bridge: str | None, role: str,
                m: int) -> None:
    """The labelled `bridge` message (if a role bridges the two) before message `m`."""
    if bridge is None:
        return
    out.append(Message(bridge, (Text(BRIDGE_TEXT[bridge]),)))
    changes.append(Change("fix_role_order", "insert-bridge-message",
                          f"added a labelled {bridge} message before this {role} message",
                          f"messages[{m}]", True))


def _lift_systems(messages: Sequence[Message], profile: Profile,
                  bad: Callable[[str, str], bool], changes: list[Change]) -> list[Message]:
    """A system message the vendor does not accept where it is moves back to the latest
    earlier place where it is accepted (usually right after the current user message)."""
    out: list[Message] = []
    for m, message in enumerate(messages):
        if message.role != "system" or not out or not bad(
                wire_roles(out[-1], profile)[-1], "system"):
            out.append(message)
            continue
        at = next((j for j in range(len(out), -1, -1) if _fits(out, j, profile, bad)), None)
        if at is None:
            out.append(message)
            continue
        out.insert(at, message)
        changes.append(Change("fix_role_order", "move-system-message",
                              f"moved this system message back {len(out) - 1 - at} message(s), "
                              "to where the provider accepts a system message",
                              f"messages[{m}]", lossless=False))
    return out


def _fits(out: list[Message], at: int, profile: Profile, bad: Callable[[str, str], bool]) -> bool:
    before_ok = at == 0 or not bad(wire_roles(out[at - 1], profile)[-1], "system")
    after_ok = at == len(out) or not bad("system", wire_roles(out[at], profile)[0])
    return before_ok and after_ok


def _split_text(message: Message, m: int, split: bool, changes: list[Change]) -> list[Message]:
    if not split or message.role != "tool":  # before reading the parts
        return [message]
    texts = tuple(p for p in message.parts if beside_results(p))
    if not texts or len(texts) == len(message.parts):
        return [message]
    changes.append(Change("fix_role_order", "split-tool-message-text",
                          "moved the text and media beside the results into a user message "
                          "of its own", f"messages[{m}]", lossless=True))
    rest = tuple(p for p in message.parts if not beside_results(p))
    return [replace(message, parts=rest), Message("user", texts)]


def _bridge(before: str, now: str, bad: Callable[[str, str], bool]) -> str | None:
    return next((r for r in ("assistant", "user") if not bad(before, r) and not bad(r, now)),
                None)
