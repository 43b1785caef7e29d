"""`Normalized.render()` names the model the history was repaired for: the model given to
normalize, else the provider's own default, never another vendor's (before the
twenty-eighth session a Mistral body named gpt-4.1-mini, which Mistral does not serve)."""

from __future__ import annotations

from normalizer import History, Message, Text, normalize

HISTORY = History((Message("user", (Text("hi"),)),))


def test_the_body_names_the_model_the_history_was_repaired_for() -> None:
    body = normalize(HISTORY, "anthropic", model="claude-opus-4-6").render()
    assert body["model"] == "claude-opus-4-6"


def test_without_a_model_the_body_names_the_providers_own_default() -> None:
    assert normalize(HISTORY, "mistral").render()["model"] == "mistral-small-latest"
    assert normalize(HISTORY, "groq").render()["model"] == "llama-3.3-70b-versatile"


def test_a_model_given_to_render_wins() -> None:
    result = normalize(HISTORY, "anthropic", model="claude-opus-4-6")
    assert result.render(model="claude-haiku-4-5")["model"] == "claude-haiku-4-5"
