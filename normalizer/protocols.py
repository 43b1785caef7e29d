"""The ground floor of fixed facts about the wire protocols: which exist, and per protocol
its reference provider, error format and default model. Kept in one place so the rooms
above (wire, streaming, tools, profiles, the suite) read them instead of spelling them out.

This module imports nothing from the package: everything else may import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class ProtocolFacts:
    """What is fixed about one wire protocol.

    `reference_provider` is the built-in profile a stream or a user provider of this
    protocol defaults to; `error_format` is the shape of the vendor's error JSON (the
    emulator's `ERROR_FORMATS`); `default_model` is the model `render` and `emit` write
    when the caller names none. `own_extras` are the extras keys this protocol's parser
    gives a meaning (fields with no neutral home): its renderer writes them back, and
    every other protocol's renderer leaves them out (`foreign_extras`). Any other key
    in extras (a vendor field no module names) is written back by every renderer.
    `null_tools_taken`: a request's `tools: null` was seen accepted, so it goes back as
    sent (elsewhere `normalize_request` leaves it out, which loses nothing).
    """

    name: str
    reference_provider: str
    error_format: str
    default_model: str
    own_extras: frozenset[str] = frozenset()
    null_tools_taken: bool = False


# The default models: `render` writes them when the caller names none, and the reference
# providers (conformance/providers.py) send them. Cassettes match request bodies, so change
# one only together with a re-recording; tests/test_default_models.py fails when an SDK
# marks one deprecated with an end of life less than 60 days away.
FACTS: Final = MappingProxyType({
    facts.name: facts for facts in (
        # `role` {"developer"}, message `name`, Mistral's `prefix`, a call's other
        # `function` fields, a content part's `type`; `cache_control` on content parts is
        # written back in Chat bodies too (as before this table existed). An assistant
        # message's `refusal` and `audio`, which apps send back as the SDK returned them
        # (`message.model_dump()`: `refusal: null`) and Anthropic refuses: "messages.X.
        # refusal: Extra inputs are not permitted" (mozilla-ai/any-llm#832); Gemini refuses
        # any field a Content does not have ("Invalid JSON payload received. Unknown name
        # ... Cannot find field."). So are the message fields a Chat body keeps as sent
        # when they hold nothing (`tool_calls: []`, `reasoning_content: null`) and
        # OpenRouter's `reasoning_details`. (Its `annotations`, Responses owns: see
        # _chat_render.) And a content part's other kind's field, which huggingface_hub's
        # client sends unset as null (`image_url: null` on a text part, `text: null` on an
        # image part: pydantic-ai's recorded HF router bodies); Anthropic refuses a block
        # field it does not know ("Extra inputs are not permitted"). A tool call's `index`,
        # which a dump of a streamed call keeps (pydantic-ai's recorded Mistral bodies).
        # OpenAI's content-part `prompt_cache_breakpoint` both OpenAI protocols own
        # (pydantic-ai's recorded prompt-cache requests, Chat and Responses; in the Chat
        # API reference on text, image, file and audio parts: epam/ai-dial-sdk#432).
        # `tools: null` answered 200 by OpenAI (crewAI's recording, openinference's cassette).
        ProtocolFacts("openai_chat", "openai", "openai", "gpt-4.1-mini", frozenset({
            "role", "name", "prefix", "function", "type", "cache_control", "detail",
            "refusal", "audio", "tool_calls", "reasoning_content", "reasoning",
            "reasoning_details", "text", "image_url", "index", "prompt_cache_breakpoint"}),
            null_tools_taken=True),
        # The `instructions` flag, item fields (`item`, `id`, `status`, `phase`, `type`,
        # `role`), output-text `annotations` and `logprobs` (as the SDK dumps an output), a
        # reasoning item's `summary` parts, its `content` (reasoning_text parts, or Codex's
        # null) and a null `encrypted_content`, and a function call's `namespace` (tool
        # search: pydantic-ai's recorded cross-provider replay). Rendered for Anthropic, a
        # reasoning item's `content` was written into the thinking block, a field Anthropic
        # does not know.
        ProtocolFacts("openai_responses", "openai_responses", "openai", "gpt-4.1-mini",
                      frozenset({"role", "type", "instructions", "item", "id", "status",
                                 "phase", "annotations", "summary", "detail", "logprobs",
                                 "namespace", "prompt_cache_breakpoint", "content",
                                 "encrypted_content"})),
        # Block fields: `cache_control`, `citations`; a document block's `title`, `context`;
        # an explicit `is_error: false` on a tool_result. `tools: null` is refused
        # (run-llama/llama_index#17928, the answer's text not quoted).
        ProtocolFacts("anthropic", "anthropic", "anthropic", "claude-haiku-4-5",
                      frozenset({"cache_control", "citations", "title", "context", "is_error"})),
        # A content's `role`, a non-thought part's `thought_signature`, the other fields
        # of `function_call`/`function_response`, a non-text `response` object, and a
        # media part's `videoMetadata`/`mediaResolution`/`partMetadata`.
        ProtocolFacts("gemini", "gemini", "gemini", "gemini-2.5-flash", frozenset({
            "role", "thought_signature", "function_call", "function_response", "response",
            "videoMetadata", "mediaResolution", "partMetadata"})),
    )
})

PROTOCOLS: Final[tuple[str, ...]] = tuple(FACTS)
# The protocols whose function declarations carry a `strict` flag (Chat `function.strict`,
# Responses `strict`, Anthropic's tool `strict`: "When true, guarantees schema validation on
# tool names and inputs", anthropic-sdk-python types/tool_param.py, and the strict tool use
# page of Anthropic's docs); on Gemini the flag has no form and is dropped.
STRICT_FLAG: Final = frozenset({"openai_chat", "openai_responses", "anthropic"})
REFERENCE_PROVIDER: Final = MappingProxyType(
    {name: f.reference_provider for name, f in FACTS.items()})
ERROR_FORMAT: Final = MappingProxyType({name: f.error_format for name, f in FACTS.items()})
DEFAULT_MODEL: Final = MappingProxyType({name: f.default_model for name, f in FACTS.items()})
# Anthropic requires max_tokens on every request; the renderer writes this where a request
# gives none (256 keeps conformance probes cheap), and the thinking-budget pass reads it.
ANTHROPIC_MAX_TOKENS: Final = 256


# Keys another protocol owns on its parts that are also fields of a Chat message: Chat's
# deprecated `function_call` (Gemini's call key) and its url-citation `annotations`
# (Responses' output-text key). The Chat renderer writes them on a message, so a pass that
# keeps only the fields a vendor knows must count them as fields there.
CHAT_MESSAGE_FIELDS: Final = frozenset({"function_call", "annotations"})


# A Chat tool call's own fields and its `function`'s: any other field of either is kept in
# the call's extras, by the wire parser and by the stream assembler alike.
CHAT_CALL_FIELDS: Final = frozenset({"id", "type", "function"})
CHAT_FUNCTION_FIELDS: Final = frozenset({"name", "arguments"})


def foreign_extras(protocol: str) -> frozenset[str]:
    """The extras keys other protocols own and `protocol` does not: its renderer never
    writes them (another protocol's key would reach this vendor as an unknown field,
    which strict vendors reject)."""
    others = (f.own_extras for name, f in FACTS.items() if name != protocol)
    return frozenset().union(*others) - FACTS[protocol].own_extras


# How the Responses API's reasoning summary parts join into one Thinking text; the wire
# module and the stream assembler must join them the same way. The originals are kept in
# extras["summary"] so that they render back unchanged while the text is not edited.
SUMMARY_JOIN: Final = "\n\n"


# Responses items of hosted tool activity (and the other items the neutral model keeps
# verbatim as Opaque parts with hosted=True): the wire parser and the stream assembler read
# the same list, so a streamed turn and the same turn parsed whole agree.
RESPONSES_HOSTED: Final = frozenset({
    "web_search_call", "file_search_call", "code_interpreter_call", "computer_call",
    "computer_call_output", "custom_tool_call", "custom_tool_call_output", "mcp_call",
    "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "tool_search_call",
    "tool_search_output", "additional_tools", "image_generation_call", "local_shell_call",
    "local_shell_call_output", "shell_call", "shell_call_output", "apply_patch_call",
    "apply_patch_call_output"})


def output_answers(item: Mapping[str, Any]) -> str | None:
    """The call id a Responses `function_call_output` may answer on an item other than a
    `function_call`: a `tool_search_call` the client executes (`execution: client`), whose
    output OpenAI took as a function_call_output (gpt-5.6, pydantic-ai's recorded tool-search
    portability request: evidence/openai_responses/client-tool-search-output-accepted-gpt-5-6-
    2026.yaml). None for any other item (a hosted call's outputs are items of their own)."""
    if item.get("type") == "tool_search_call" and item.get("execution") == "client":
        call_id = item.get("call_id")
        return call_id if isinstance(call_id, str) else None
    return None


# Gemini parts of server-side tool activity (code execution, and the built-in tools' calls
# and responses), in both spellings: kept verbatim as Opaque(hosted=True) parts by the wire
# parser and the stream assembler alike.
GEMINI_HOSTED: Final = frozenset({
    "executableCode", "codeExecutionResult", "toolCall", "toolResponse",
    "executable_code", "code_execution_result", "tool_call", "tool_response"})
_GEMINI_NOT_KINDS = ("thoughtSignature", "thought_signature", "thought", "partMetadata",
                     "videoMetadata", "mediaResolution")


def gemini_part_kind(part: Mapping[str, Any]) -> str:
    """What a Gemini part the model keeps verbatim is: its first key that names a kind of
    part ("empty" when none does)."""
    return next((k for k in part if k not in _GEMINI_NOT_KINDS), "empty")

# Anthropic blocks of server-side tool activity (and `*_tool_result` blocks): kept verbatim
# as Opaque(hosted=True) parts by the wire parser and the stream assembler alike.
ANTHROPIC_HOSTED: Final = frozenset({"server_tool_use", "mcp_tool_use", "mcp_tool_result",
                                     "tool_reference", "container_upload"})


def answers_reasoning(item: Mapping[str, Any]) -> bool:
    """Whether a Responses input item is one a reasoning item before it was produced for (a
    call, a `program` item of programmatic tool calling, or an assistant message; an item
    without a type is a message when it has a role). OpenAI took a reasoning item before a
    `program` item (gpt-5.6-terra, braintrustdata/lingua's recorded follow-up). The check of
    rule reasoning-item-orphan and its repair read this one test."""
    kind = item.get("type")
    if not isinstance(kind, str):
        kind = "message" if "role" in item else ""
    return kind.endswith("_call") or kind == "program" or (
        kind == "message" and item.get("role") == "assistant")


def anthropic_hosted(kind: str) -> bool:
    """Whether an Anthropic block type is server-side tool activity (`*_tool_result` too)."""
    return kind in ANTHROPIC_HOSTED or (kind.endswith("_tool_result") and kind != "tool_result")


def server_result_kind(kind: object) -> bool:
    """Whether an Anthropic block type is the result of a server tool, which a
    `server_tool_use` block of its id must precede in the same message (an MCP result's
    call is an `mcp_tool_use` instead). The check of rule server-tool-result-orphan and its
    repair read this one test."""
    return (isinstance(kind, str) and kind.endswith("_tool_result")
            and kind not in ("tool_result", "mcp_tool_result"))
