"""The speed work serialises frozen JSON values directly (no thawed copy first): the bytes
must be those of `json.dumps(thaw(value), ...)`, which is what the code did before; and its
cheap copies of frozen parts must be `dataclasses.replace` of the one field."""

from __future__ import annotations

import dataclasses
import inspect
import json

import pytest

from normalizer.model import Change, JsonMap, Message, Part, Text, ToolCall, ToolResult, thaw
from normalizer.passes.ids import _CANONICAL
from normalizer.wire._openai_common import arguments_to_wire

VALUE = JsonMap({"z": 1.5, "a": [1, {"y": "é", "b": None, "c": [True, 2e300, -0.0]}],
                 "m": {"k": ("x", {"q": 1})}, "\u2603": "snow", "": {}, "l": []})


def test_arguments_render_as_dumping_the_thawed_value() -> None:
    assert arguments_to_wire(VALUE) == json.dumps(thaw(VALUE), ensure_ascii=False,
                                                  separators=(",", ":"))
    assert arguments_to_wire("not json") == "not json"


def test_call_keys_serialise_as_dumping_the_thawed_value_sorted() -> None:
    assert _CANONICAL.encode(VALUE) == json.dumps(thaw(VALUE), sort_keys=True,
                                                  ensure_ascii=False, separators=(",", ":"))


def test_with_id_and_with_call_id_are_replace_of_that_one_field() -> None:
    call = ToolCall("f", {"a": [1]}, "x", {"k": 1}, wire_arguments='{"a": [1]}')
    result = ToolResult("x", (Text("t"),), True, "f", {"k": 2}, {"v": [1]})
    extras = JsonMap({"k": 1, "s": "sig"})
    for before, after, changed, value in (
            (call, call.with_id("y"), "id", "y"),
            (call, call.with_extras(extras), "extras", extras),
            (result, result.with_call_id("y"), "call_id", "y")):
        for f in dataclasses.fields(before):  # every field, compared or not
            want = value if f.name == changed else getattr(before, f.name)
            assert getattr(after, f.name) == want, f.name
        assert after == dataclasses.replace(before, **{changed: value})


def test_with_parts_is_replace_of_the_parts() -> None:
    message = Message("assistant", (Text("a"),), origin="gemini", extras={"k": 1})
    after = message.with_parts((Text("b"),))
    for f in dataclasses.fields(message):
        if not f.name.startswith("_"):  # the cached calls and results are made again
            want = (Text("b"),) if f.name == "parts" else getattr(message, f.name)
            assert getattr(after, f.name) == want, f.name
    assert after == dataclasses.replace(message, parts=(Text("b"),))


@pytest.mark.parametrize("parts", [
    (ToolCall("f", {}, "a"),),
    (ToolCall("f", {}, "a"), ToolCall("g", {}, "b")),
    (ToolResult("a", "ok"),),
    (Text("x"), ToolCall("f", {}, "a")),
    (Text("x"), ToolCall("f", {}, "a"), ToolResult("b", "ok")),
    (Text("x"),),
    (),
], ids=["one-call", "calls", "one-result", "text-and-call", "mixed", "text", "empty"])
@pytest.mark.parametrize("asked", [True, False], ids=["caches-filled", "caches-empty"])
def test_with_renamed_parts_is_with_parts_and_its_caches_are_right(
        parts: tuple[Part, ...], asked: bool) -> None:
    message = Message("assistant", parts, origin="gemini", extras={"k": 1})
    if asked:
        assert message.tool_calls is not None
    renamed = tuple(p.with_id(p.id + "2") if isinstance(p, ToolCall)
                    else p.with_call_id("z") if isinstance(p, ToolResult) else p
                    for p in parts)
    after = message.with_renamed_parts(renamed)
    assert after == message.with_parts(renamed)
    assert after.origin == "gemini" and after.extras == {"k": 1}
    assert after.tool_calls == tuple(p for p in renamed if isinstance(p, ToolCall))
    assert after.tool_results == tuple(p for p in renamed if isinstance(p, ToolResult))


def test_change_is_made_as_the_dataclass_would_make_it() -> None:
    """Change's __init__ is `slot_init`'s, not the generated one: same parameters, same
    fields, still frozen."""
    made = Change("p", "c", "w", "m", lossless=False)
    assert [f.name for f in dataclasses.fields(Change)] == list(
        inspect.signature(Change).parameters)
    assert (made.pass_name, made.code, made.what, made.where, made.lossless) == (
        "p", "c", "w", "m", False)
    assert made == Change(pass_name="p", code="c", what="w", where="m", lossless=False)
    assert dataclasses.replace(made, lossless=True).lossless is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.what = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Change("p", "c", "w", "m")  # type: ignore[call-arg]


def test_parsed_arguments_render_back_as_sent_without_parsing_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A parsed call's arguments remember the string they came from (`WireArguments`): while
    the call still holds that string, render writes it back byte for byte without parsing it
    again; arguments changed by a pass, or a string put there by hand, are checked by
    parsing as before."""
    from normalizer.wire import _openai_common as common
    from normalizer.wire import parse, render

    sent = '{ "city":"Paris" ,  "days": [1, 2] }'
    body = {"model": "m", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": sent}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}
    history = parse(body, "openai_chat")
    call = history.messages[1].tool_calls[0]
    assert isinstance(call.arguments, common.WireArguments) and call.wire_arguments is sent
    assert call.arguments == JsonMap({"city": "Paris", "days": [1, 2]})
    parsed: list[str] = []
    real = common.arguments_from_wire

    def counted(raw: object, where: str) -> object:
        parsed.append(str(raw))
        return real(raw, where)

    monkeypatch.setattr(common, "arguments_from_wire", counted)
    again = render(history, "openai_chat")["messages"][1]["tool_calls"][0]["function"]
    assert again["arguments"] == sent and parsed == []
    changed = dataclasses.replace(call, arguments=JsonMap({"city": "Lyon"}))
    assert common.call_arguments(changed, "a") == '{"city":"Lyon"}' and parsed == [sent]
    by_hand = dataclasses.replace(call, wire_arguments='{"city":"Paris","days":[1,2]}')
    assert common.call_arguments(by_hand, "a") == '{"city":"Paris","days":[1,2]}'
    assert len(parsed) == 2
