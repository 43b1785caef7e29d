"""Assistant texts typed as input: a Responses body's assistant item whose content parts
are `input_text` (apps that build every item's content alike), which the API refuses."""

from __future__ import annotations

from dataclasses import replace

from normalizer.json_values import EMPTY
from normalizer.model import Change, Message, Text
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile


def retype_assistant_texts(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes assistant texts of a type the target refuses there (rule
    assistant-content-type, `params.forbidden`): the kept type goes, so the text is sent as
    the assistant's own type (`output_text`).

    Rejected by: OpenAI Responses "Invalid value: 'input_text'. Supported values are:
    'output_text' and 'refusal'." (diegosouzapw/OmniRoute#6932).

    Before: assistant [{type: input_text, text: "Hello."}]
    After:  assistant [{type: output_text, text: "Hello."}]
    Lossless: the text stays; only its wrong type goes.
    """
    forbidden = frozenset(map(str, profile.param("assistant-content-type", "forbidden",
                                                 ("input_text",))))
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        wrong = _wrongly_typed(message, forbidden) if message.role == "assistant" else ()
        if not wrong:
            out.append(message)
            continue
        parts = list(message.parts)
        for j in wrong:
            part = parts[j]
            assert isinstance(part, Text)  # for the type checker: `wrong` holds Texts only
            changes.append(Change("retype_assistant_texts", "retype-assistant-text",
                                  f"sent an assistant text typed {part.extras['type']!r} as "
                                  "the assistant's own text type", f"messages[{i}].parts[{j}]",
                                  lossless=True))
            parts[j] = replace(part, extras=part.extras.without("type"))
        out.append(replace(message, parts=tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _wrongly_typed(message: Message, forbidden: frozenset[str]) -> list[int]:
    """The indexes of `message`'s Texts kept with a type in `forbidden` (a loop that builds
    nothing but its empty list for the usual message: it runs for every assistant one)."""
    found: list[int] = []
    for j, part in enumerate(message.parts):
        if type(part) is Text and part.extras is not EMPTY \
                and part.extras.get("type") in forbidden:
            found.append(j)
    return found
