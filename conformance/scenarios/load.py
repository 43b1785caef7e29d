"""Scenario files -> Scenario objects, with errors located at `path:line:col: key.path`.

Pure: no pytest, no network. YAML is read safely, and anchors, aliases, explicit tags,
complex and duplicate keys and deep nesting are refused before anything is built (a
scenario is data a reviewer reads top to bottom; conformance.scenarios.safe_yaml).
Every problem of a file is reported at once; a bad file raises ScenarioError and never
stops other files loading.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from conformance.errors import ScenarioError
from conformance.scenarios.format import ScenarioIn
from conformance.scenarios.history import Located, build_history, model_at
from conformance.scenarios.safe_yaml import Problem, read_yaml
from conformance.scenarios.stream import RecordedStream, recorded_stream
from normalizer.errors import WireFormatError
from normalizer.model import EMPTY, History, JsonMap, ToolSpec
from normalizer.profiles import PROVIDERS
from normalizer.tools import parse_declarations
from normalizer.wire import parse

# Vendor spellings people paste, and the key this format uses instead.
SYNONYMS = {"tool_call_id": "call_id", "tool_use_id": "call_id", "args": "arguments",
            "input": "arguments", "inputSchema": "input_schema", "parameters": "input_schema",
            "functionCall": "tool_calls", "function_call": "tool_calls", "reasoning": "thinking",
            "reasoning_content": "thinking", "expected": "expect", "ref": "refs"}


@dataclass(frozen=True, slots=True)
class Scenario:
    """One loaded scenario: where it came from, its history and tools, and what it expects of
    each provider; `replayed` is filled when a run is planned."""

    path: str  # as given, relative to the project root where possible
    topic: str
    fault: str
    title: str
    about: str
    tags: tuple[str, ...]
    refs: tuple[str, ...]
    tools: tuple[ToolSpec, ...]
    history: History
    wire_protocol: str | None
    wire_body: JsonMap
    options: JsonMap  # protocol -> extra request fields
    models: JsonMap  # provider -> model
    expect_raw: JsonMap  # provider -> "accept" | "reject"
    expect_changes: JsonMap  # provider -> fix codes
    expect_untouched: bool
    known_gaps: tuple[str, ...]
    draft: bool
    stream: RecordedStream | None = None  # a streamed turn after `history` (scenario_stream)
    # Set when a run is planned (scenarios.replay.resolve): the history the items send, with
    # the streamed turn read through the SDK; or why the SDK could not read the stream.
    replayed: History | None = None
    replay_error: str = ""

    @property
    def id(self) -> str:
        """The scenario's id in items and reports: its path."""
        return self.path


def read_mapping(path: Path, shown: str, error: type[ScenarioError], what: str
                 ) -> tuple[dict[str, Any], Located]:
    """A YAML file of `what` fields as data with its marks; `error` lists what is wrong.

    Refused constructs (aliases, tags, complex or duplicate keys, deep nesting) stop the
    read before any node is built: see conformance.scenarios.safe_yaml."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise error(shown, [Problem(1, 1, "", f"cannot read the file: {exc}")]) from exc
    node, data, problems = read_yaml(text)
    if node is None:
        raise error(shown, problems or [Problem(1, 1, "", "the file is empty")])
    located = Located(node)
    if not isinstance(data, dict):
        raise error(shown, [Problem(*located.mark(()), "", f"expected a mapping of {what} fields")])
    return data, located


def load_scenario(path: str | Path, *, providers: Iterable[str] = PROVIDERS,
                  root: Path | None = None) -> Scenario:
    """Read and validate one scenario file; raises ScenarioError listing every problem."""
    path = Path(path)
    shown = _shown(path, root)
    data, located = read_mapping(path, shown, ScenarioError, "scenario")
    try:
        return _validate(data, located, shown, path, tuple(providers))
    except ScenarioError as exc:
        raise ScenarioError(shown, _unique(list(exc.problems))) from None


def _shown(path: Path, root: Path | None) -> str:
    base = root or Path.cwd()
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _validate(data: dict[str, Any], located: Located, shown: str, path: Path,
              providers: tuple[str, ...]) -> Scenario:
    problems = _provider_keys(data, located, providers) + _gap_targets(data, located, providers)
    try:
        spec = ScenarioIn.model_validate(data)
    except ValidationError as exc:
        problems += [_problem(err, located) for err in exc.errors()]
        raise ScenarioError(shown, problems) from None
    history, more = _history(spec, located)
    problems += more
    stream, wrong = recorded_stream(spec.stream, providers)
    problems += [Problem(*located.mark(loc), _dotted(loc), text) for loc, text in wrong]
    if problems:
        raise ScenarioError(shown, problems)
    return Scenario(
        path=shown, topic=path.parent.name, fault=path.stem, title=spec.title, about=spec.about,
        tags=tuple(spec.tags), refs=tuple(spec.refs),
        tools=_tools(spec),
        history=history, wire_protocol=spec.wire.protocol if spec.wire else None,
        wire_body=JsonMap(spec.wire.body) if spec.wire else EMPTY,
        options=JsonMap(spec.options), models=JsonMap(spec.models),
        expect_raw=JsonMap(spec.expect.raw), expect_changes=JsonMap(spec.expect.changes),
        expect_untouched=spec.expect.untouched,
        known_gaps=tuple(spec.known_gaps), draft=spec.draft, stream=stream)


def _tools(spec: ScenarioIn) -> tuple[ToolSpec, ...]:
    """The scenario's tools; a `wire` scenario without its own takes the body's."""
    if spec.tools or spec.wire is None:
        return tuple(ToolSpec(t.name, t.description, t.input_schema) for t in spec.tools)
    try:
        return parse_declarations(spec.wire.body.get("tools") or [], spec.wire.protocol)
    except WireFormatError:
        return ()


def _history(spec: ScenarioIn, located: Located) -> tuple[History, list[Problem]]:
    if spec.wire is None:
        return build_history(spec.history or []), []
    try:
        return parse(spec.wire.body, spec.wire.protocol), []
    except WireFormatError as exc:
        loc = ("wire", "body", *_json_path(exc.where))
        line, col = located.mark(loc)
        return History(), [Problem(line, col, f"wire.body.{exc.where}",
                                   f"not a valid {spec.wire.protocol} body: {exc.problem}")]


def _json_path(where: str) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    for chunk in where.replace("]", "").replace("[", ".").split("."):
        if chunk:
            parts.append(int(chunk) if chunk.isdigit() else chunk)
    return tuple(parts)


def _provider_keys(data: Mapping[str, Any], located: Located,
                   providers: tuple[str, ...]) -> list[Problem]:
    problems = []
    expect = data.get("expect") if isinstance(data.get("expect"), Mapping) else {}
    sections = (("expect.raw", expect.get("raw")), ("expect.changes", expect.get("changes")),
                ("models", data.get("models")))
    for section, mapping in sections:
        for name in mapping if isinstance(mapping, Mapping) else ():
            if name not in providers:
                loc = (*section.split("."), name)
                problems.append(Problem(*located.mark(loc, key=True), f"{section}.{name}",
                                        f"unknown provider {name!r}{_hint(str(name), providers)}"))
    return problems


def _gap_targets(data: Mapping[str, Any], located: Located,
                 providers: tuple[str, ...]) -> list[Problem]:
    """A `known_gaps` entry is "provider: reason" or "provider[mode]: reason"; a typo in the
    provider part would never match an item, so it is a located error."""
    gaps = data.get("known_gaps")
    problems = []
    for i, gap in enumerate(gaps if isinstance(gaps, list) else ()):
        if not isinstance(gap, str):
            continue  # the schema reports the type
        target = gap.split(":", 1)[0].strip()
        name, _, mode = target.partition("[")
        if name in providers and mode in {"", "raw]", "normalized]"}:
            continue
        wanted = "'provider: reason' or 'provider[raw|normalized]: reason'"
        hint = _hint(name, providers) if name not in providers else ""
        problems.append(Problem(*located.mark(("known_gaps", i)), f"known_gaps[{i}]",
                                f"{target!r} names no provider and mode{hint}; write "
                                f"{wanted}"))
    return problems


def _problem(err: Mapping[str, Any], located: Located,
             fmt: type[BaseModel] = ScenarioIn) -> Problem:
    loc = tuple(err["loc"])
    where = _dotted(loc)
    message = err["msg"]
    if err["type"] == "extra_forbidden":
        key = str(loc[-1])
        allowed = model_at(fmt, loc[:-1])
        message = f"unknown key {key!r}{_hint(key, allowed)}"
        return Problem(*located.mark(loc, key=True), where, message)
    if err["type"] == "missing":
        message = f"required key {loc[-1]!r} is missing"
        return Problem(*located.mark(loc[:-1]), where, message)
    message = message.removeprefix("Value error, ")
    if err["type"] == "literal_error" and isinstance(err.get("input"), str):
        expected = [v.strip(" '") for v in str(err["ctx"]["expected"]).replace(" or ", ",")
                    .split(",")]
        close = difflib.get_close_matches(err["input"], expected, n=1, cutoff=0.6)
        message += f"; did you mean {close[0]!r}?" if close else ""
    return Problem(*located.mark(loc), where, message)


def _hint(key: str, allowed: Iterable[str]) -> str:
    allowed = list(allowed)
    if key in SYNONYMS and SYNONYMS[key] in allowed:
        return f"; did you mean {SYNONYMS[key]!r}?"
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f"; expected one of: {', '.join(sorted(allowed))}" if allowed else ""


def _dotted(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part) != "str" and not str(part).startswith(
                ("function-after", "literal[", "list[", "dict[")):  # pydantic's union labels
            out += f".{part}" if out else str(part)
    return out


def _unique(problems: list[Problem]) -> list[Problem]:
    """One problem per place: the alternatives of a union failing at one key are joined."""
    merged: dict[tuple[int, int, str], Problem] = {}
    for p in problems:
        key = (p.line, p.col, p.where)
        if key in merged and p.message not in merged[key].message:
            old = merged[key]
            merged[key] = Problem(p.line, p.col, p.where, f"{old.message}, or: {p.message}")
        else:
            merged.setdefault(key, p)
    return sorted(merged.values(), key=lambda p: (p.line, p.col))


def find_scenarios(root: Path) -> list[Path]:
    """Every scenario file below `root` (README and schema excluded), in a stable order."""
    return sorted(p for p in root.rglob("*.yaml") if p.is_file())
