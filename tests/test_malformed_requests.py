"""A malformed request body gets a clear error (WireFormatError naming the place and what was
expected), never a TypeError or AttributeError from deep inside; a part whose media fields
hold something other than strings is no media (kept verbatim, as a shape the model does not
know). The cases below are what a mutation fuzz of the scenario corpus's bodies found."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from glued import glued
from mutations import mutated
from sizing import examples

from normalizer import check, normalize_request, parse, render
from normalizer.errors import NormalizerError, WireFormatError
from normalizer.model import Media, Opaque
from normalizer.profiles import PROVIDERS, load_profile

USER = {"role": "user", "content": "Hi"}


@pytest.mark.parametrize(("protocol", "body", "where", "expected"), [
    ("gemini", {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], "tools": [[]]},
     "tools[0]", "expected an object, got an array"),
    ("gemini", {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
                "tools": [{"functionDeclarations": True}]},
     "tools[0].functionDeclarations", "expected an array, got a boolean"),
    ("openai_chat", {"messages": [USER], "tools": [
        {"type": "function", "function": {"name": "f", "parameters": [1]}}]},
     "tools[0].function.parameters", "expected a JSON Schema object, got an array"),
    ("anthropic", {"messages": [USER], "tools": [{"name": ["f"], "input_schema": {}}]},
     "tools[0].name", "expected a string, got an array"),
])
def test_a_malformed_declaration_is_named(protocol: str, body: dict[str, Any], where: str,
                                          expected: str) -> None:
    with pytest.raises(WireFormatError) as info:
        normalize_request(body, protocol, "openai")
    assert (info.value.where, info.value.problem) == (where, expected)


def test_a_part_type_that_is_not_a_string_is_named() -> None:
    body = {"messages": [USER, {"role": "assistant", "content": [
        {"type": "text", "text": "Hello"}, {"type": [None], "text": "there"}]}]}
    with pytest.raises(WireFormatError) as info:
        parse(body, "openai_chat")
    assert info.value.where == "messages[1].content[1].type"


@pytest.mark.parametrize(("protocol", "message"), [
    ("anthropic", {"role": "user", "content": [
        {"type": "image", "source": {"type": ["url"], "url": "https://x/a.png"}}]}),
    ("gemini", {"role": "user", "parts": [
        {"fileData": {"mimeType": "image/png", "fileUri": ["gs://b/a.png"]}}]}),
    ("gemini", {"role": "user", "parts": [{"inlineData": {"mimeType": 7, "data": "aGk="}}]}),
])
def test_media_fields_that_are_not_strings_make_no_media(protocol: str,
                                                         message: dict[str, Any]) -> None:
    key = "contents" if protocol == "gemini" else "messages"
    body = {key: [message]}
    (part,) = parse(body, protocol).messages[0].parts
    assert isinstance(part, Opaque) and not isinstance(part, Media)
    for provider in ("openai", "anthropic", "gemini"):
        normalize_request(body, protocol, provider)  # repaired or refused, never a crash


@pytest.mark.parametrize("protocol", ["openai_chat", "openai_responses", "anthropic", "gemini"])
def test_mutated_bodies_get_a_clear_error_or_an_answer(protocol: str) -> None:
    rng = random.Random(protocol)
    providers = [p for p in PROVIDERS if load_profile(p).protocol == protocol]
    for seed in range(examples(12, 200)):
        history, tools, _, _ = glued(seed, 4)
        body = json.loads(json.dumps(render(history, protocol, tools=tools, model="m")))
        for _ in range(4):
            bad = mutated(body, rng)
            with contextlib.suppress(NormalizerError):
                parse(bad, protocol)
            with contextlib.suppress(NormalizerError):
                check(bad, rng.choice(providers))
            with contextlib.suppress(NormalizerError):
                normalize_request(bad, protocol, rng.choice(PROVIDERS))
