"""Hypothesis strategies of histories the Anthropic and Gemini wire formats can represent,
i.e. exactly the histories for which `parse(render(h)) == h` must hold.

`sdk_valid=True` narrows each strategy to histories whose rendered body the vendor's SDK
types accept (no string arguments, no missing ids, no system message after the first,
signatures present, ...); `sdk_valid=False` adds the faithful-but-broken shapes render
must still emit losslessly (tests capture what the unmodified SDKs send with
tests/loopback.py). Test-only.
"""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import strategies as st

from normalizer.model import History, Message, Part, Text, Thinking, ToolCall, ToolResult

TEXT = st.text(max_size=12)
IDS = st.text(alphabet="abcXYZ019_-", min_size=1, max_size=16)
NAMES = st.text(alphabet="abcdefXYZ_", min_size=1, max_size=10)
KEYS = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | TEXT
# Two levels of nesting cover every container shape; st.recursive costs far more per draw.
JSON = SCALARS | st.lists(SCALARS, max_size=2) | st.dictionaries(KEYS, SCALARS, max_size=2)
OBJECTS = st.dictionaries(KEYS, JSON, max_size=3)


def _arguments(sdk_valid: bool) -> st.SearchStrategy[Any]:
    # A non-object arguments string is kept verbatim by parse; the SDK types forbid it.
    return OBJECTS if sdk_valid else OBJECTS | st.text(max_size=10)


def _history(
    system: st.SearchStrategy[Message],
    turns: st.SearchStrategy[Message],
    sdk_valid: bool,
) -> st.SearchStrategy[History]:
    @st.composite
    def build(draw: st.DrawFn) -> History:
        first = [draw(system)] if draw(st.booleans()) else []
        rest = draw(st.lists(turns, max_size=6))
        if not sdk_valid and draw(st.booleans()):
            # A system message after the first is emitted in the turn list, faithfully.
            at = draw(st.integers(0, len(rest)))
            rest.insert(at, _plain_extras(draw(system)))
        return History(tuple(first + rest))

    return build()


def _plain_extras(message: Message) -> Message:
    return Message(message.role, message.parts)


def _tool_turn(results: st.SearchStrategy[ToolResult],
               texts: st.SearchStrategy[Text]) -> st.SearchStrategy[Message]:
    """A tool message: at least one result (that is what marks the turn), texts beside."""
    def turn(first: ToolResult, rest: list[Part], at: int) -> Message:
        return Message("tool", (*rest[:at], first, *rest[at:]))

    return st.builds(turn, results, st.lists(results | texts, max_size=3), st.integers(0, 3))


# ---------------------------------------------------------------- Anthropic

CACHE = st.sampled_from([{}, {"cache_control": {"type": "ephemeral"}}])
ANTHROPIC_TEXT = st.builds(Text, TEXT, extras=CACHE)


def _anthropic_thinking(sdk_valid: bool) -> st.SearchStrategy[Thinking]:
    signature = IDS if sdk_valid else st.none() | IDS
    plain = st.builds(Thinking, TEXT, signature=signature, vendor=st.just("anthropic"))
    redacted = st.builds(Thinking, st.just(""), signature=IDS, vendor=st.just("anthropic"),
                         redacted=st.just(True))
    return plain | redacted


def _anthropic_result(sdk_valid: bool) -> st.SearchStrategy[ToolResult]:
    call_id = IDS if sdk_valid else st.none() | IDS
    content = TEXT | st.lists(ANTHROPIC_TEXT, max_size=2).map(tuple)
    return st.builds(ToolResult, call_id, content, is_error=st.booleans(), extras=CACHE)


def anthropic_histories(sdk_valid: bool = False) -> st.SearchStrategy[History]:
    texts = st.lists(ANTHROPIC_TEXT, max_size=3).map(tuple)
    call_id = IDS if sdk_valid else st.none() | IDS
    calls = st.builds(ToolCall, NAMES, _arguments(sdk_valid), id=call_id, extras=CACHE)
    assistant_part: st.SearchStrategy[Part] = (ANTHROPIC_TEXT | calls
                                               | _anthropic_thinking(sdk_valid))
    turns = st.one_of(
        texts.map(lambda ps: Message("user", ps)),
        st.lists(assistant_part, max_size=4).map(lambda ps: Message("assistant", tuple(ps))),
        _tool_turn(_anthropic_result(sdk_valid), ANTHROPIC_TEXT),
    )
    return _history(texts.map(lambda ps: Message("system", ps)), turns, sdk_valid)


# ---------------------------------------------------------------- Gemini

# Gemini signatures are bytes, base64 on the wire; google-genai re-encodes what it is given
# as URL-safe base64 ("+A==" goes out as "-A=="), so generate that spelling.
SIGNATURES = st.binary(min_size=1, max_size=12).map(
    lambda b: base64.urlsafe_b64encode(b).decode())
SIGNED = st.just({}) | SIGNATURES.map(lambda s: {"thought_signature": s})
GEMINI_TEXT = st.builds(Text, TEXT, extras=SIGNED)



def _gemini_result(sdk_valid: bool) -> st.SearchStrategy[ToolResult]:
    call_id = st.none() | IDS
    name = NAMES if sdk_valid else st.none() | NAMES
    output = st.builds(ToolResult, call_id, TEXT, is_error=st.booleans(), name=name)
    # A response that is not {"output": str} / {"error": str} is kept whole as the value.
    other = OBJECTS.filter(lambda r: not _is_plain_response(r))
    kept = st.builds(ToolResult, call_id, st.just(""), name=name, value=other)
    return output | kept


def _is_plain_response(response: dict[str, Any]) -> bool:
    return len(response) == 1 and next(iter(response)) in ("output", "error") \
        and isinstance(next(iter(response.values())), str)


def gemini_histories(sdk_valid: bool = False) -> st.SearchStrategy[History]:
    parts = st.lists(GEMINI_TEXT, max_size=3).map(tuple)
    calls = st.builds(ToolCall, NAMES, _arguments(sdk_valid), id=st.none() | IDS,
                      extras=SIGNED)
    thinking = st.builds(Thinking, TEXT, signature=st.none() | SIGNATURES,
                         vendor=st.just("gemini"))
    assistant_part: st.SearchStrategy[Part] = GEMINI_TEXT | calls | thinking
    turns = st.one_of(
        parts.map(lambda ps: Message("user", ps)),
        st.lists(assistant_part, max_size=4).map(lambda ps: Message("assistant", tuple(ps))),
        _tool_turn(_gemini_result(sdk_valid), GEMINI_TEXT),
    )
    role = st.sampled_from([{}, {"role": "user"}])
    system = st.builds(Message, st.just("system"), parts, extras=role)
    return _history(system, turns, sdk_valid)


# ---------------------------------------------------------------- arbitrary bodies


def wire_soup(keys: list[str], top: str) -> st.SearchStrategy[dict[str, Any]]:
    """JSON bodies built from a protocol's own key names at every level, with values of any
    type: malformed in every way a pasted body can be, so parse must either read them or
    raise WireFormatError."""
    values = st.recursive(
        SCALARS | st.sampled_from(keys),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(keys), inner,
                                                                     max_size=4),
        max_leaves=12)
    return st.fixed_dictionaries({top: st.lists(values, max_size=3)},
                                 optional={k: values for k in keys[:4]})


