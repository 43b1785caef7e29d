"""A message's participant `name` the target refuses (rule message-name-invalid)."""

from __future__ import annotations

import re
from dataclasses import replace

from normalizer.model import Change, Message
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "message-name-invalid"
_OUTSIDE = re.compile(r"[^a-zA-Z0-9_-]")  # what the vendors' pattern allows


def sanitize_participant_names(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes participant names the target's pattern refuses (rule message-name-invalid,
    params.pattern): each character outside letters, digits, "_" and "-" becomes "_", as
    multi-agent frameworks do for OpenAI ("Moderator Bot" -> "Moderator_Bot"); a name with
    nothing left goes. Tool messages' names are the function's (rewrite_tool_names' job).

    Rejected by: OpenAI "Invalid 'messages[1].name': string does not match pattern. Expected
    a string that matches the pattern '^[a-zA-Z0-9_-]+$'." (microsoft/autogen#4157); Azure
    OpenAI the same (microsoft/semantic-kernel#9340).

    Lossy: the model sees the new name; the change quotes the old one."""
    pattern = profile.param(RULE, "pattern")
    if pattern is None:
        return draft, ()
    fits = re.compile(str(pattern)).fullmatch
    out: list[Message] = []
    changes: list[Change] = []
    for i, message in enumerate(draft.history.messages):
        name = message.extras.get("name") if message.role != "tool" else None
        if not isinstance(name, str) or fits(name):
            out.append(message)
            continue
        new = _OUTSIDE.sub("_", name).strip("_") or None
        if new is not None and not fits(new):
            new = None
        extras = message.extras.merged(name=new) if new else message.extras.without("name")
        out.append(replace(message, extras=extras))
        what = f"renamed to {new!r}" if new else "dropped"
        changes.append(Change("sanitize_participant_names", "sanitize-participant-name",
                              f"the {message.role} message's name {name!r} does not match "
                              f"the target's pattern {pattern!r}: {what}",
                              f"messages[{i}]", lossless=False))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)
