"""Deterministic, realistic, damaged histories for the benchmarks.

`history(n, seed)` builds a neutral History of exactly `n` messages from `random.Random(seed)`
(no Hypothesis at run time, so the same `n` and seed give the same bytes on every machine):
a system prompt, then episodes of a user turn, zero to three assistant call turns with 1-4
parallel calls each (their results in one tool message, as `parse(..., "openai_chat")`
groups consecutive tool messages), and an assistant reply.

Assistant turns come from several vendors (`origin`), carry that vendor's id shapes
(OpenAI `call_…`, Anthropic `toolu_01…`, Mistral 9 alphanumerics, Gemini none) and
sometimes its thinking with a signature. A few episodes are damaged the way real histories
break, at the rates in `DAMAGE_RATES`: an orphan result, a missing result, results out of
order, a message wedged between a call and its results, a reused call id, an empty message,
a system message mid-conversation. `damage_counts` says how many of each a history holds.
"""

from __future__ import annotations

import base64
import random
import uuid
from collections import Counter
from collections.abc import Callable

from normalizer.model import History, Message, Text, Thinking, ToolCall, ToolResult, ToolSpec

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("get_weather", "Current weather for a city.",
             {"type": "object", "properties": {"city": {"type": "string"}},
              "required": ["city"]}),
    ToolSpec("search_docs", "Full-text search in the team's documents.",
             {"type": "object", "properties": {"query": {"type": "string"},
                                               "limit": {"type": "integer"}},
              "required": ["query"]}),
    ToolSpec("run_sql", "Run a read-only SQL query.",
             {"type": "object", "properties": {"sql": {"type": "string"}},
              "required": ["sql"]}),
)
ORIGINS = ("openai", "anthropic", "gemini", "mistral", "deepseek")
# Share of episodes that get each damage: about one episode in eight is damaged somehow.
DAMAGE_RATES: dict[str, float] = {
    "orphan": 0.03, "missing_result": 0.04, "out_of_order": 0.04, "wedged": 0.03,
    "duplicate_id": 0.01, "empty": 0.01, "mid_system": 0.005,
}
THINKING_RATE = 0.25
SEED = 20261122
_WORDS = ("the", "report", "for", "Paris", "and", "Rome", "please", "check", "latest",
          "numbers", "why", "is", "it", "slower", "than", "last", "week", "show", "me", "a",
          "summary", "of", "orders", "table", "weather", "docs", "deploy", "failed", "on",
          "Tuesday", "because", "quota", "limit", "was", "reached", "ok", "thanks", "42")
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = rng.choices(_WORDS, k=rng.randint(low, high))
    return " ".join(words).capitalize() + "."


def _token(rng: random.Random, length: int) -> str:
    return "".join(rng.choices(_ALNUM, k=length))


def call_id(rng: random.Random, origin: str, gemini_ids: bool = False) -> str | None:
    """An id shaped like the origin vendor's own. Gemini sends none; with `gemini_ids`, a
    uuid4-shaped one, as SDK wrappers (LangChain's) assign so OpenAI-format stores can hold it."""
    if origin == "gemini":
        made = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        return made if gemini_ids else None
    if origin == "anthropic":
        return "toolu_01" + _token(rng, 22)
    if origin == "mistral":
        return _token(rng, 9)
    return "call_" + _token(rng, 24)


def _arguments(rng: random.Random, name: str) -> dict[str, object]:
    if name == "get_weather":
        return {"city": rng.choice(("Paris", "Rome", "Oslo", "Lima", "Kyoto"))}
    if name == "search_docs":
        return {"query": _sentence(rng, 2, 6), "limit": rng.randint(1, 20)}
    return {"sql": f"SELECT * FROM orders WHERE id > {rng.randint(1, 10_000)} LIMIT 10"}


def _signature(rng: random.Random, origin: str) -> str:
    """Opaque base64 shaped like the vendor's: Anthropic's decode to a blob starting with
    byte 0x12 (they start with "E"), as normalizer/profiles/anthropic.yaml describes."""
    head = b"\x12" if origin == "anthropic" else b"\x0a"
    return base64.b64encode(head + rng.randbytes(47)).decode()


def _thinking(rng: random.Random, origin: str) -> Thinking:
    return Thinking(_sentence(rng, 8, 30), signature=_signature(rng, origin), vendor=origin)


def _call_turn(rng: random.Random, origin: str, gemini_ids: bool) -> list[Message]:
    """An assistant message with 1-4 parallel calls, then one tool message with the results."""
    calls = []
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(TOOLS).name
        calls.append(ToolCall(name, _arguments(rng, name), call_id(rng, origin, gemini_ids)))
    lead = (_thinking(rng, origin),) if rng.random() < THINKING_RATE else ()
    intro = (Text(_sentence(rng, 3, 12)),) if rng.random() < 0.4 else ()
    results = tuple(ToolResult(c.id, f'{{"ok": true, "rows": {rng.randint(0, 99)}, "note": '
                                     f'"{_sentence(rng, 5, 25)}"}}', name=c.name)
                    for c in calls)
    return [Message("assistant", (*lead, *intro, *calls), origin=origin),
            Message("tool", results)]


def _episode(rng: random.Random, gemini_ids: bool) -> list[Message]:
    origin = rng.choice(ORIGINS)
    messages = [Message("user", (Text(_sentence(rng, 4, 30)),))]
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        messages.extend(_call_turn(rng, origin, gemini_ids))
    messages.append(Message("assistant", (Text(_sentence(rng, 10, 60)),), origin=origin))
    return messages


def _turn_at(messages: list[Message]) -> int | None:
    """Index of the first assistant call turn followed by its tool message, if any."""
    for i, message in enumerate(messages[:-1]):
        if message.tool_calls and messages[i + 1].role == "tool":
            return i
    return None


def _with_results(messages: list[Message], at: int, results: tuple[ToolResult, ...]
                  ) -> list[Message]:
    return [*messages[:at + 1], Message("tool", results), *messages[at + 2:]]


def _orphan(rng: random.Random, ep: list[Message]) -> list[Message]:
    stray = ToolResult("call_" + _token(rng, 24), '{"ok": false}', name="run_sql")
    return [*ep[:-1], Message("tool", (stray,)), ep[-1]]


def _missing_result(rng: random.Random, ep: list[Message]) -> list[Message]:
    at = _turn_at(ep)
    if at is None:
        return ep
    results = ep[at + 1].tool_results
    if len(results) == 1:
        return [*ep[:at + 1], *ep[at + 2:]]
    return _with_results(ep, at, results[:-1])


def _out_of_order(rng: random.Random, ep: list[Message]) -> list[Message]:
    at = _turn_at(ep)
    if at is None or len(ep[at + 1].tool_results) < 2:
        return ep
    return _with_results(ep, at, tuple(reversed(ep[at + 1].tool_results)))


def _wedged(rng: random.Random, ep: list[Message]) -> list[Message]:
    at = _turn_at(ep)
    if at is None:
        return ep
    wedge = Message("user", (Text(_sentence(rng, 2, 8)),))
    return [*ep[:at + 1], wedge, *ep[at + 1:]]


def _duplicate_id(rng: random.Random, ep: list[Message]) -> list[Message]:
    at = _turn_at(ep)
    if at is None or len(ep[at].tool_calls) < 2 or ep[at].tool_calls[0].id is None:
        return ep
    first = ep[at].tool_calls[0].id
    parts = tuple(ToolCall(p.name, p.arguments, first) if isinstance(p, ToolCall) else p
                  for p in ep[at].parts)
    results = tuple(ToolResult(first, r.content, name=r.name) for r in ep[at + 1].tool_results)
    turn = Message("assistant", parts, origin=ep[at].origin)
    return [*ep[:at], turn, Message("tool", results), *ep[at + 2:]]


def _empty(rng: random.Random, ep: list[Message]) -> list[Message]:
    return [*ep[:-1], Message("assistant", (), origin=ep[-1].origin), ep[-1]]


def _mid_system(rng: random.Random, ep: list[Message]) -> list[Message]:
    return [Message("system", (Text("Answer in French from now on."),)), *ep]


DAMAGES: dict[str, Callable[[random.Random, list[Message]], list[Message]]] = {
    "orphan": _orphan, "missing_result": _missing_result, "out_of_order": _out_of_order,
    "wedged": _wedged, "duplicate_id": _duplicate_id, "empty": _empty,
    "mid_system": _mid_system,
}


def _damaged(rng: random.Random, ep: list[Message], counts: Counter[str]) -> list[Message]:
    for name, rate in DAMAGE_RATES.items():
        if rng.random() < rate:
            after = DAMAGES[name](rng, ep)
            counts[name] += after != ep
            ep = after
    return ep


def generate(n: int, seed: int = SEED, *, gemini_ids: bool = False
             ) -> tuple[History, Counter[str]]:
    """A history of exactly `n` messages and how many of each damage it holds. The tail is
    cut at `n` wherever it falls (possibly between a call and its results). `gemini_ids`
    gives Gemini's calls ids (see `call_id`) and changes nothing else."""
    rng = random.Random(f"{seed}:{n}")
    counts: Counter[str] = Counter()
    messages = [Message("system", (Text("You are a helpful operations assistant. "
                                         "Use the tools; answer briefly."),))]
    while len(messages) < n:
        messages.extend(_damaged(rng, _episode(rng, gemini_ids), counts))
    counts["thinking"] = sum(isinstance(p, Thinking) for m in messages[:n] for p in m.parts)
    counts["calls"] = sum(len(m.tool_calls) for m in messages[:n])
    return History(tuple(messages[:n])), counts


def history(n: int, seed: int = SEED, *, gemini_ids: bool = False) -> History:
    return generate(n, seed, gemini_ids=gemini_ids)[0]
