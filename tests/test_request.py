"""`normalize_request` on what a body leaves out or sets to nothing (normalizer/request.py):
what comes back for the same protocol, and what is said when it crosses."""

from __future__ import annotations

from normalizer import check, load_profile, normalize_request


def test_a_body_that_names_no_model_gets_one_said_or_none_for_a_stored_prompt() -> None:
    # dd-trace-py's recorded Responses body (tests/data/real_requests/openai_responses/
    # stored-prompt-no-input.yaml, answered 200 by o4-mini): a stored prompt, no model, no
    # input. For Responses it goes back as sent (a model written here would override the
    # prompt's); for another protocol the target's default is named, with a change.
    body = {"prompt": {"id": "pmpt_1", "version": "2"}}
    same = normalize_request(body, "openai_responses", "openai_responses")
    assert same.body == body and same.changes == ()
    chat = normalize_request(body, "openai_responses", "openai")
    assert chat.body["model"] == load_profile("openai").default_model
    # The stored prompt has no Chat counterpart: the messages list would be empty, which
    # OpenAI refuses (conversation-empty), so a labelled user message is added.
    assert [c.code for c in chat.changes] == ["drop-option", "add-model",
                                              "insert-opening-user-message"]
    given = normalize_request(body, "openai_responses", "openai_responses", model="gpt-5")
    assert given.body["model"] == "gpt-5" and given.changes == ()
    gemini = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    out = normalize_request(gemini, "gemini", "anthropic")
    assert out.body["model"] == load_profile("anthropic").default_model
    assert [c.code for c in out.changes] == ["add-model"]
    assert "model" not in normalize_request(gemini, "gemini", "gemini").body


def test_tools_null_comes_back_for_the_same_protocol_and_is_dropped_said_across() -> None:
    # crewAI's recorded body (test_custom_llm_implementation, answered 200 by OpenAI) sends
    # `tools: null`; it came back without `tools` and nothing said so.
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": None}
    for provider in ("openai", "mistral", "groq"):
        out = normalize_request(body, "openai_chat", provider)
        assert out.body == body and out.changes == (), provider
    across = normalize_request(body, "openai_chat", "anthropic")
    assert "tools" not in across.body
    dropped = [c for c in across.changes if c.where == "tools"]
    assert [(c.code, c.lossless) for c in dropped] == [("drop-option", True)]


def test_an_empty_tools_list_is_left_out_where_it_is_refused_and_kept_elsewhere() -> None:
    # DeepSeek: "Invalid 'tools': empty array. ..." (glowingjade/obsidian-smart-composer#398);
    # before, the same-protocol path copied the empty list back as it came.
    body = {"model": "deepseek-chat", "tools": [], "messages": [{"role": "user", "content": "hi"}]}
    assert [v.rule for v in check(body, "deepseek")] == ["empty-tools"]
    out = normalize_request(body, "openai_chat", "deepseek")
    assert "tools" not in out.body and check(out.body, "deepseek") == ()
    assert [(c.code, c.lossless) for c in out.changes] == [("drop-empty-tools", True)]
    kept = normalize_request(body, "openai_chat", "groq")  # Groq was not seen refusing it
    assert kept.body == body and kept.changes == ()
    across = normalize_request(body, "openai_chat", "anthropic")
    assert "tools" not in across.body
    assert [(c.code, c.lossless) for c in across.changes if c.where == "tools"] == [
        ("drop-option", True)]


def test_tools_null_is_left_out_said_where_it_was_not_seen_accepted() -> None:
    # Anthropic answers 400 to `tools: null` (run-llama/llama_index#17928, which sends the
    # empty list instead); only OpenAI Chat was seen taking it.
    body = {"model": "claude-haiku-4-5", "max_tokens": 10, "tools": None,
            "messages": [{"role": "user", "content": "hi"}]}
    out = normalize_request(body, "anthropic", "anthropic")
    assert "tools" not in out.body
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("drop-option", "tools", True)]


def test_the_steps_after_normalize_read_the_days_copy_of_a_rule() -> None:
    # Groq's response-format-with-tools has two copies by date: json_object only until
    # 2025-11-05, json_object and json_schema since. A built-in tool is handled after
    # normalize, from the profile the request is repaired with.
    body = {"model": "openai/gpt-oss-20b", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "browser_search"}],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "x", "schema": {"type": "object"}}}}
    today = normalize_request(body, "openai_chat", "groq", on="2026-11-29")
    assert "response_format" not in today.body
    assert [c.code for c in today.changes] == ["drop-json-response-type"]
    assert check(today.body, "groq", on="2026-11-29") == ()
    before = normalize_request(body, "openai_chat", "groq", on="2025-06-01")
    assert before.body["response_format"] == body["response_format"] and before.changes == ()
    assert check(before.body, "groq", on="2025-06-01") == ()
