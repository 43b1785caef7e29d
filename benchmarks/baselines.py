"""The other tools the normalize benchmark compares with, on the same inputs, and what their
output breaks.

Each tool is a `Tool`: `prepare(history, provider, budget)` turns a neutral history into the tool's
own input (not timed: a user of the tool already holds messages in its format), `run` is the
timed call, and `body(output, raw_body, provider)` turns the output back into a request body
for `normalizer.check`. LangChain and turnsafe are imported lazily, so the benchmark runs
without them and says "not installed".

- `naive slice`: the system prompt and the last `budget` messages, as the seed's window did.
- `trim_messages`: langchain-core's, `strategy="last"`, `token_counter=len` (a budget of
  messages), `include_system=True`; once as is and once with `start_on="human"`, which
  trim_messages' reference says to set for a valid chat history
  (reference.langchain.com/python/langchain-core/messages/utils/trim_messages).
- `turnsafe`: `repair` then `fit` (its documented order: fit rejects an invalid history),
  `counter=lambda m: 1` (a budget of messages).
- `normalize`: `normalize(history, provider, budget=budget)` then `render`.

LangChain holds OpenAI-format messages; its output for Anthropic is rendered the way a
LangChain app's would be: back to OpenAI dicts, parsed, and rendered faithfully for Anthropic.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from histories import TOOLS

from normalizer import History, parse, render
from normalizer.normalize import normalize
from normalizer.profiles import load_profile

Body = dict[str, Any]
# Which protocols each tool can take (turnsafe: OpenAI Chat and Anthropic dicts only).
COMPARED = ("openai", "anthropic")


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    needs: str  # the module that must be importable, or "" for none
    prepare: Callable[[History, str, int], Any]
    run: Callable[[Any], Any]
    body: Callable[[Any, Body, str], Body]

    @property
    def installed(self) -> bool:
        return not self.needs or available(self.needs)


def available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def version(module: str) -> str:
    """The installed distribution's version, or "not installed"."""
    try:
        return metadata.version(module.replace("_", "-"))
    except metadata.PackageNotFoundError:
        return "not installed"


def raw_body(history: History, provider: str) -> Body:
    return render(history, load_profile(provider).protocol, tools=TOOLS)


def _with_messages(raw: Body, messages: list[Any]) -> Body:
    return {**raw, "messages": messages}


# --- naive slice ---

def _slice_prepare(history: History, provider: str, budget: int) -> tuple[History, str]:
    lead = tuple(m for m in history.messages[:1] if m.role == "system")
    rest = history.messages[len(lead):]
    return History((*lead, *rest[max(0, len(rest) - budget + len(lead)):])), provider


def _slice_body(out: tuple[History, str], raw: Body, provider: str) -> Body:
    return raw_body(out[0], out[1])


# --- langchain-core trim_messages ---

def _lc_prepare(history: History, provider: str, budget: int,
                start_on: str | None = None) -> tuple[Any, dict[str, Any]]:
    from langchain_core.messages import convert_to_messages
    messages = render(history, "openai_chat", tools=TOOLS)["messages"]
    options = {"max_tokens": budget, "token_counter": len, "strategy": "last",
               "include_system": True, "start_on": start_on}
    return convert_to_messages(messages), options


def _lc_run(prepared: tuple[Any, dict[str, Any]]) -> Any:
    from langchain_core.messages import trim_messages
    messages, options = prepared
    return trim_messages(messages, **options)


def _lc_body(out: Any, raw: Body, provider: str) -> Body:
    from langchain_core.messages import convert_to_openai_messages
    chat = {"model": "gpt-4o-mini", "messages": convert_to_openai_messages(out),
            "tools": render(History(), "openai_chat", tools=TOOLS)["tools"]}
    protocol = load_profile(provider).protocol
    if protocol == "openai_chat":
        return chat
    # LangChain turns an assistant's missing content into "": a faithful render would send
    # that as an empty text block, which LangChain's Anthropic integration does not (our
    # reading of it), so it is dropped here to count only what trimming did.
    chat["messages"] = [{**m, "content": None} if m.get("role") == "assistant"
                        and m.get("content") == "" else m for m in chat["messages"]]
    return render(parse(chat, "openai_chat"), protocol, tools=TOOLS)


# --- turnsafe ---

def _ts_prepare(history: History, provider: str, budget: int) -> tuple[list[Any], str, int]:
    return raw_body(history, provider)["messages"], provider, budget


def _ts_run(prepared: tuple[list[Any], str, int]) -> list[Any]:
    import turnsafe
    messages, provider, budget = prepared
    repaired = turnsafe.repair(messages, provider)
    return turnsafe.fit(repaired, budget, provider, counter=lambda message: 1)


def _ts_body(out: list[Any], raw: Body, provider: str) -> Body:
    return _with_messages(raw, out)


# --- normalize ---

def _nz_prepare(history: History, provider: str, budget: int) -> tuple[History, str, int]:
    return history, provider, budget


def _nz_run(prepared: tuple[History, str, int]) -> Body:
    history, provider, budget = prepared
    return normalize(history, provider, tools=TOOLS, budget=budget).render()


def _nz_body(out: Body, raw: Body, provider: str) -> Body:
    return out


def _identity(prepared: Any) -> Any:
    return prepared


TOOLS_COMPARED: tuple[Tool, ...] = (
    Tool("naive slice", "", _slice_prepare, _identity, _slice_body),
    Tool("trim_messages", "langchain_core", _lc_prepare, _lc_run, _lc_body),
    Tool("trim_messages start_on=human", "langchain_core",
         lambda h, p, b: _lc_prepare(h, p, b, "human"), _lc_run, _lc_body),
    Tool("turnsafe repair+fit", "turnsafe", _ts_prepare, _ts_run, _ts_body),
    Tool("normalize(budget)+render", "", _nz_prepare, _nz_run, _nz_body),
)


