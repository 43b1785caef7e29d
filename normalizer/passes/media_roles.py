"""Media in a turn whose role the target does not let carry it: an image an assistant
produced (Gemini's image models answer with inlineData, an app replays a DALL-E picture)
goes to OpenAI Chat or Anthropic, which take images from the user only."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Media, Message, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import tools_end
from normalizer.profiles import Profile

RULE = "media-role-unsupported"


def move_media_to_user_turn(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes media in a message whose role may not carry them (rule media-role-unsupported:
    params.roles, the roles that may; params.kinds, the media kinds it speaks of). They move
    to a user message right after that message, after its tool results where it made calls,
    labelled with the role they came from; a message left with nothing says where they went.
    Lossy, said: the model now sees the media on the user's side of the conversation. A
    tool message's media are the crossing pass's (`media-moved-beside-results`).

    Rejected by: OpenAI "Invalid 'messages[2]'. Image URLs are only allowed for messages with
    role 'user', but this message with role 'assistant' contains an image URL."
    (openai/openai-node#1030); Anthropic "'image' blocks are not permitted within assistant
    turns" (SEMOSS/Semoss#2323).

    Before: user "Draw a cat", assistant [text "Here it is.", image], user "Describe it"
    After:  user "Draw a cat", assistant "Here it is.",
            user [text "[image from the assistant's turn above]", image], user "Describe it"
    """
    rule = profile.copy_for(RULE, policy.model)
    if rule is None:
        return draft, ()
    roles = {str(r) for r in rule.params.get("roles") or ("user",)}
    kinds = {str(k) for k in rule.params.get("kinds") or ("image",)}
    messages, skipped = draft.history.messages, roles | {"tool"}
    if not _any_movable(messages, skipped, kinds):
        return draft, ()
    out: list[Message] = []
    changes: list[Change] = []
    pending: list[tuple[int, Message]] = []  # (index after which it goes, the user message)
    for i, message in enumerate(messages):
        moved = _movable(message, kinds) if message.role not in skipped else ()
        if moved:
            out.append(_without(message, moved))
            after = tools_end(messages, i + 1) - 1 if message.tool_calls else i
            label = Text(f"[{_named(moved)} from the {message.role}'s turn above]")
            pending.append((after, Message("user", (label, *moved))))
            changes.append(Change("move_media_to_user_turn", "move-media-to-user-turn",
                                  f"{_named(moved)} in the {message.role}'s message moved to "
                                  f"a user message after it: the target takes "
                                  f"{' and '.join(k + 's' for k in sorted(kinds))} from "
                                  f"{' and '.join(sorted(roles))} messages only",
                                  f"messages[{i}]", False))
        else:
            out.append(message)
        while pending and pending[0][0] <= i:
            out.append(pending.pop(0)[1])
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _any_movable(messages: tuple[Message, ...], skipped: set[str], kinds: set[str]) -> bool:
    """Whether a message of a role not in `skipped` holds media of `kinds`: loops, not
    any() over tuples, since this runs on every message of every history (most hold none)."""
    for message in messages:
        if message.role in skipped:
            continue
        for part in message.parts:
            if type(part) is Media and part.kind in kinds:
                return True
    return False


def _movable(message: Message, kinds: set[str]) -> tuple[Media, ...]:
    return tuple(p for p in message.parts if isinstance(p, Media) and p.kind in kinds)


def _without(message: Message, moved: tuple[Media, ...]) -> Message:
    """`message` without `moved`; one left with nothing says where they went, so the turn
    stays (a call turn keeps its calls)."""
    kept: tuple[Part, ...] = tuple(p for p in message.parts if not any(p is m for m in moved))
    if not kept:
        kept = (Text(f"[{_named(moved)}: in the next message]"),)
    return message.with_parts(kept)


def _named(media: tuple[Media, ...]) -> str:
    kinds = "/".join(sorted({m.kind for m in media}))
    return kinds if len(media) == 1 else f"{len(media)} {kinds}s"
