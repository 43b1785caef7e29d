"""SDK refusals are summarised into a form that survives upgrades of pydantic and the SDKs."""

from __future__ import annotations

import pydantic
import pytest
from google import genai
from google.genai import types

from conformance.sdk_refusals import summarize


def _refusal() -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as caught:
        types.Content.model_validate({"role": "user", "parts": [{"text": 5, "nope": 1}]})
    return caught.value


def test_a_pydantic_refusal_keeps_sdk_fields_and_kinds_but_no_version_or_input() -> None:
    text = summarize(_refusal(), sdk="google-genai")
    assert text.startswith("google-genai refused to send: ValidationError, 2 field errors: ")
    assert "parts[0].text (string_type)" in text and "parts[0].nope (extra_forbidden)" in text
    assert "errors.pydantic.dev" not in text and "input_value" not in text
    assert pydantic.VERSION not in text


def test_the_summary_is_the_same_whatever_the_input_values() -> None:
    with pytest.raises(pydantic.ValidationError) as other:
        types.Content.model_validate({"role": "user", "parts": [{"text": 6, "nope": 2}]})
    assert summarize(other.value) == summarize(_refusal())


def test_many_fields_are_counted_not_all_listed() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        types.Content.model_validate({"parts": [{"text": i, f"x{i}": 1} for i in range(9)]})
    text = summarize(caught.value)
    assert text.count("(") == 6 and text.endswith("more")


def test_the_sdk_is_read_off_the_traceback_when_not_given() -> None:
    client = genai.Client(api_key="placeholder", http_options=types.HttpOptions(
        base_url="http://127.0.0.1:9", retry_options=types.HttpRetryOptions(attempts=1)))
    with pytest.raises(pydantic.ValidationError) as caught:  # refused before any connection
        client.models.generate_content(model="m", contents=[{"parts": [{"text": 5}]}])
    assert summarize(caught.value).startswith("google-genai refused to send: ValidationError")


def test_other_exceptions_give_their_type_and_first_line() -> None:
    assert summarize(ValueError("bad value\nsecond line")) == \
        "the SDK refused to send: ValueError: bad value"
