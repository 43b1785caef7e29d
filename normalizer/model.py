"""The neutral history: what every wire protocol parses into and renders from.

Everything here is immutable (frozen, slotted dataclasses; tuples; `JsonMap` for
mappings) so that passes can share structure safely and histories can be compared
and hashed. JSON values inside the model are frozen with `freeze` and turned back into
plain `dict`/`list` with `thaw` when a body is rendered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from itertools import chain
from operator import attrgetter
from typing import Any, Literal, TypeAlias

# Re-exported: the model's JSON values have always been imported from here.
from normalizer.json_values import EMPTY as EMPTY
from normalizer.json_values import JsonMap as JsonMap
from normalizer.json_values import freeze as freeze
from normalizer.json_values import thaw as thaw
from normalizer.tool_spec import ToolSpec as ToolSpec

Role: TypeAlias = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[Role, ...] = ("system", "user", "assistant", "tool")

# Extras keys reserved by the neutral model: the stream assemblers put them on parts to
# describe the neutral part itself (a call cut short, its raw argument text, an id the
# library derived). They are not vendor fields: a renderer never writes them into a body.
STREAM_MARKERS: frozenset[str] = frozenset(
    {"incomplete", "raw_arguments", "invalid_arguments", "derived_id"})

# Extras keys reserved for how a part was spelled on the wire, kept so that a same-protocol
# render gives the body back as sent (prompt caches key on the bytes): `content_form` is
# "array" when a message's content was an array a lone text would not need, "absent" when
# an assistant message had no `content` key at all; `reasoning_field` is "reasoning" when a
# Chat assistant message carried its thinking under that name (Groq, OpenRouter) rather than
# `reasoning_content`; `function_response_part` is true on a Media that a Gemini
# `functionResponse.parts` carried (Gemini 3 multimodal function responses), so that Gemini
# gets it back there; `input_form` is "string" on the user message a Responses body sent as
# its whole `input` string (`input: "Hi"`, not a list of items), and "item" on a user,
# system or developer message sent as a typed item (`"type": "message"`: the item's type, no
# field of a Chat message, which strict Chat vendors refuse); on a History, "absent" says
# that the Responses body had no `input` at all (a stored prompt alone); `url_in_file_data` names
# the protocol (`openai_chat`, `openai_responses`) in whose `file_data` a document Media's
# web address came (OpenRouter takes one there), so that a body of that protocol gets it
# back there; `named_output` is true on a ToolResult whose Responses function_call_output
# carried a `name` (a field the API does not define, so only a body that had it gets it
# back there). Never written as a field.
FUNCTION_RESPONSE_PART = "function_response_part"
INPUT_FORM = "input_form"
URL_IN_FILE_DATA = "url_in_file_data"
NAMED_OUTPUT = "named_output"
WIRE_MARKERS: frozenset[str] = frozenset({"content_form", "reasoning_field",
                                          FUNCTION_RESPONSE_PART, INPUT_FORM, URL_IN_FILE_DATA,
                                          NAMED_OUTPUT})


def _slot_sets(cls: type, params: list[str], target: str) -> tuple[str, dict[str, Any]]:
    """Source lines setting each slot of `cls` on `target` from the matching name of
    `params`, one after another through the slots' own setters, and their scope."""
    names = cls.__slots__  # type: ignore[attr-defined]
    sets = "".join(f"    s{k}({target}, {param})\n" for k, param in enumerate(params))
    return sets, {f"s{k}": cls.__dict__[name].__set__ for k, name in enumerate(names)}


@functools.cache
def slot_maker(cls: type) -> Callable[..., Any]:
    """A function of one argument per slot, in order, that makes an instance of the slotted
    dataclass `cls` through the slots' own setters (the member descriptors), without its
    __init__ or __post_init__: for values already in their final form. Generated, as
    dataclasses generates __init__: a loop over `object.__setattr__` cost 1.1 us per
    5-field copy, the descriptors one after another 0.35 us, the generated frozen __init__
    0.6 us."""
    params = [f"v{k}" for k in range(len(cls.__slots__))]  # type: ignore[attr-defined]
    sets, scope = _slot_sets(cls, params, "made")
    scope.update(new=object.__new__, cls=cls)
    exec(f"def make({', '.join(params)}):\n    made = new(cls)\n{sets}    return made\n", scope)
    return scope["make"]  # type: ignore[no-any-return]


def slot_init(cls: type) -> Callable[..., None]:
    """An __init__ for the slotted frozen dataclass `cls`, with one parameter per field of
    the same name, that sets the slots through their setters: what the generated frozen
    __init__ does (it goes through `object.__setattr__` per field, 0.66 us for a Change),
    in 0.38 us. Only for classes whose fields have no defaults and no __post_init__."""
    assert not hasattr(cls, "__post_init__"), cls
    assert all(f.default is MISSING and f.default_factory is MISSING
               for f in fields(cls)), cls
    names = list(cls.__slots__)  # type: ignore[attr-defined]
    sets, scope = _slot_sets(cls, names, "self")
    exec(f"def __init__(self, {', '.join(names)}):\n{sets}", scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields(cls)}, "return": "None"}
    return init  # type: ignore[no-any-return]


def _frozen(value: Mapping[str, Any] | None) -> JsonMap:
    # Most parts have no extras: one shared empty map, not two new tracked objects per part
    # (parse spent ~40 % in the collector). Exact types first: the Mapping ABC test is slow.
    if type(value) is JsonMap or (type(value) is not dict and isinstance(value, JsonMap)):
        return value
    return JsonMap(value) if value else EMPTY


@dataclass(frozen=True, slots=True)
class Text:
    """Text in a message; `extras` keeps the wire fields with no neutral home."""

    text: str
    extras: JsonMap = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "extras", _frozen(self.extras))


MediaKind: TypeAlias = Literal["image", "document", "audio", "video", "file"]
MEDIA_KINDS: tuple[MediaKind, ...] = ("image", "document", "audio", "video", "file")


@dataclass(frozen=True, slots=True)
class Media:
    """An image, document, audio or video input, whatever the protocol. Exactly one source
    is set: `data` (base64, with `media_type`), `url` (an https or data-less URL, or a
    Gemini file URI), `file_id` (a vendor Files API id) or `text` (a plain-text document).
    `filename` is the name a file part carries; wire fields with no neutral home go in
    `extras` (owned by their protocol, see protocols.py)."""

    kind: MediaKind
    media_type: str | None = None
    data: str | None = None
    url: str | None = None
    file_id: str | None = None
    text: str | None = None
    filename: str | None = None
    extras: JsonMap = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "extras", _frozen(self.extras))

    @property
    def source(self) -> str:
        """Which source the part has: "base64", "url", "file_id", "text" or "none"."""
        for name, value in (("base64", self.data), ("url", self.url),
                            ("file_id", self.file_id), ("text", self.text)):
            if value is not None:
                return name
        return "none"


@dataclass(frozen=True, slots=True)
class Opaque:
    """A part only one protocol knows, kept verbatim (`data` is the wire object as sent):
    hosted/server tool activity (`hosted=True`: Anthropic server_tool_use and its results,
    Responses web_search_call, Gemini executableCode, ...) or a kind this model does not
    know. Its protocol renders `data` back unchanged; for any other protocol the crossing
    pass turns it into text or drops it, with a lossy change."""

    protocol: str
    kind: str
    data: JsonMap = EMPTY
    hosted: bool = False
    # Where the protocol put it: "part" (a content part, block, item), "message" (a whole
    # message of a role the model does not know), "call" (an entry of Chat's tool_calls).
    slot: str = "part"

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", _frozen(self.data))


ResultPart: TypeAlias = Text | Media | Opaque


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A call the model made. `arguments` is a JsonMap, or the raw string verbatim when the
    vendor sent arguments that are not a JSON object (kept so nothing is lost).
    `wire_arguments` is the arguments string exactly as an OpenAI-style body sent it: a
    renderer writes it back byte for byte while it still parses to `arguments` (prompt
    caches key on those bytes), and re-serialises otherwise. Not compared: two calls with
    the same arguments are equal however they were spelled."""

    name: str
    arguments: JsonMap | str = EMPTY
    id: str | None = None
    extras: JsonMap = EMPTY
    wire_arguments: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.arguments, str):
            object.__setattr__(self, "arguments", _frozen(self.arguments))
        object.__setattr__(self, "extras", _frozen(self.extras))

    def with_id(self, new: str | None) -> ToolCall:
        """A copy with another id: `dataclasses.replace(self, id=new)`, at a third of its
        cost (the id passes rename thousands of calls). Every field is passed on: a new
        field must be added here too (tests/test_frozen_encoding.py checks)."""
        return _new_call(self.name, self.arguments, new, self.extras, self.wire_arguments)

    def with_extras(self, extras: JsonMap) -> ToolCall:
        """A copy with other (frozen) extras, as `with_id` (the signature pass signs most calls)."""
        return _new_call(self.name, self.arguments, self.id, extras, self.wire_arguments)


# The copies' makers (`with_id`, `with_parts`, ...): every field's value, in order, already
# frozen; no __init__ or __post_init__ (Mistral rewrites every id of a history).
_new_call = slot_maker(ToolCall)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The answer to a call. `name` is the tool's name where the protocol carries it (Gemini
    functionResponse needs it); `content` is a string or a tuple of parts (Text, Media, or
    an Opaque block such as Anthropic's tool_reference); `value` is a structured JSON result
    (a Gemini functionResponse.response other than {"output"|"error": string}), None when
    the result is content only."""

    call_id: str | None
    content: str | tuple[ResultPart, ...] = ""
    is_error: bool = False
    name: str | None = None
    extras: JsonMap = EMPTY
    value: Any = None

    def __post_init__(self) -> None:
        if not isinstance(self.content, str):
            object.__setattr__(self, "content", tuple(self.content))
        object.__setattr__(self, "extras", _frozen(self.extras))
        object.__setattr__(self, "value", freeze(self.value))

    def with_call_id(self, new: str | None) -> ToolResult:
        """A copy answering another id: `dataclasses.replace(self, call_id=new)`, cheaper
        (see `ToolCall.with_id`)."""
        return _new_result(new, self.content, self.is_error, self.name, self.extras,
                           self.value)

    @property
    def text(self) -> str:
        """The result's content as one string (Text parts joined)."""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content if isinstance(p, Text))


_new_result = slot_maker(ToolResult)


@dataclass(frozen=True, slots=True)
class Thinking:
    """Model reasoning. `vendor` is the provider that produced it: signatures are only valid
    there. `redacted` marks Anthropic's redacted_thinking (opaque `signature` holds the data)."""

    text: str
    signature: str | None = None
    vendor: str | None = None
    redacted: bool = False
    extras: JsonMap = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "extras", _frozen(self.extras))


Part: TypeAlias = Text | ToolCall | ToolResult | Thinking | Media | Opaque
PART_TYPES: tuple[type, ...] = (Text, ToolCall, ToolResult, Thinking, Media, Opaque)


@dataclass(frozen=True, slots=True)
class Message:
    """One message. Roles and the parts they may hold:
    system: Text; user: Text, Media; assistant: Text, ToolCall, Thinking; tool: ToolResult
    (and Text or Media where a protocol puts them beside results in the same turn, as
    Anthropic and Gemini do). Opaque parts sit where their protocol put them.
    `origin` is the provider that produced an assistant message."""

    role: Role
    parts: tuple[Part, ...] = ()
    origin: str | None = None
    extras: JsonMap = EMPTY
    # The calls and results among `parts`, made on first use: a message never changes, and
    # the passes ask a long history's messages for them many times (not fields of the
    # message: not compared, hashed, shown or taken by the constructor).
    _calls: tuple[ToolCall, ...] | None = field(default=None, init=False, repr=False,
                                                compare=False)
    _results: tuple[ToolResult, ...] | None = field(default=None, init=False, repr=False,
                                                    compare=False)

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}; expected one of {', '.join(ROLES)}")
        object.__setattr__(self, "parts", tuple(self.parts))
        object.__setattr__(self, "extras", _frozen(self.extras))

    def with_parts(self, parts: tuple[Part, ...]) -> Message:
        """A copy with other parts: `dataclasses.replace(self, parts=parts)`, cheaper (the
        passes rebuild thousands of messages). Every field is passed on: a new field must be
        added here too (tests/test_frozen_encoding.py checks)."""
        return _new_message(self.role, parts if type(parts) is tuple else tuple(parts),
                            self.origin, self.extras, None, None)

    def with_renamed_parts(self, parts: tuple[Part, ...]) -> Message:
        """`with_parts` for `parts` that replace calls with calls and results with results,
        one for one (an id, a name or extras changed). The calls and results caches carry over
        where they are the parts themselves or empty, so the next pass to ask does not sort
        the parts again: an id rename for Mistral remakes most messages of a history."""
        old, calls, results = self.parts, self._calls, self._results
        return _new_message(self.role, parts, self.origin, self.extras,
                            parts if calls is old else (calls if calls == () else None),
                            parts if results is old else (results if results == () else None))

    @property
    def text(self) -> str:
        """The message's Text parts joined (thinking, calls and results left out)."""
        return "".join(p.text for p in self.parts if isinstance(p, Text))

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The message's ToolCall parts, in order."""
        calls = self._calls
        return self._sort()[0] if calls is None else calls

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        """The message's ToolResult parts, in order."""
        results = self._results
        return self._sort()[1] if results is None else results

    def _sort(self) -> tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]:
        """Both caches in one walk of the parts (the passes ask every message for both)."""
        found = _sorted(self.parts)
        object.__setattr__(self, "_calls", found[0])
        object.__setattr__(self, "_results", found[1])
        return found


_new_message = slot_maker(Message)


def _sorted(parts: tuple[Part, ...]) -> tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]:
    """The calls and the results among `parts`: `parts` itself where all parts are of one
    of the two kinds (one tuple fewer per message for the collector to walk)."""
    if len(parts) == 1:
        part = parts[0]
        if isinstance(part, ToolCall):
            return parts, ()  # type: ignore[return-value]
        return ((), parts) if isinstance(part, ToolResult) else ((), ())  # type: ignore[return-value]
    calls = [p for p in parts if isinstance(p, ToolCall)]
    if len(calls) == len(parts):
        return parts, ()  # type: ignore[return-value]
    results = [p for p in parts if isinstance(p, ToolResult)]
    if len(results) == len(parts):
        return (), parts  # type: ignore[return-value]
    return tuple(calls), tuple(results)


def part_types(messages: Iterable[Message]) -> set[type]:
    """The types of all parts of `messages`, read with C loops (a pass that deals with one
    kind of part can tell at once that a long history holds none)."""
    return set(map(type, chain.from_iterable(map(_PARTS, messages))))


_PARTS = attrgetter("parts")


@dataclass(frozen=True, slots=True)
class History:
    """A conversation: messages in order; the unit every step takes and returns."""

    messages: tuple[Message, ...] = ()
    extras: JsonMap = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))
        object.__setattr__(self, "extras", _frozen(self.extras))

    def __len__(self) -> int:
        return len(self.messages)

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of a report: which pass (or conversion) did what, where, and whether
    information was lost. `code` is the stable kebab-case fix code scenarios assert on."""

    pass_name: str
    code: str
    what: str
    where: str
    lossless: bool


# Passes report one Change per place they touch: thousands for a long history.
Change.__init__ = slot_init(Change)  # type: ignore[method-assign]
