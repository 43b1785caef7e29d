"""The ground floor of fixed facts about the wire protocols: which exist, and per protocol
its reference provider, error format and default model. Kept in one place so the rooms
above (wire, streaming, tools, profiles, the suite) read them instead of spelling them out.

This module imports nothing from the package: everything else may import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True, slots=True)
class ProtocolFacts:
    """What is fixed about one wire protocol.

    `reference_provider` is the built-in profile a stream or a user provider of this
    protocol defaults to; `error_format` is the shape of the vendor's error JSON (the
    emulator's `ERROR_FORMATS`); `default_model` is the model `render` and `emit` write
    when the caller names none.
    """

    name: str
    reference_provider: str
    error_format: str
    default_model: str


# The default models are the ones the cassettes were recorded with: request bodies are
# matched byte for byte, so change one only together with a re-recording.
FACTS: Final = MappingProxyType({
    facts.name: facts for facts in (
        ProtocolFacts("openai_chat", "openai", "openai", "gpt-4o-mini"),
        ProtocolFacts("openai_responses", "openai_responses", "openai", "gpt-4.1-mini"),
        ProtocolFacts("anthropic", "anthropic", "anthropic", "claude-sonnet-4-5"),
        ProtocolFacts("gemini", "gemini", "gemini", "gemini-2.5-flash"),
    )
})

PROTOCOLS: Final[tuple[str, ...]] = tuple(FACTS)
REFERENCE_PROVIDER: Final = MappingProxyType(
    {name: f.reference_provider for name, f in FACTS.items()})
ERROR_FORMAT: Final = MappingProxyType({name: f.error_format for name, f in FACTS.items()})
DEFAULT_MODEL: Final = MappingProxyType({name: f.default_model for name, f in FACTS.items()})

# How the Responses API's reasoning summary parts join into one Thinking text; the wire
# module and the stream assembler must join them the same way. The originals are kept in
# extras["summary"] so that they render back unchanged while the text is not edited.
SUMMARY_JOIN: Final = "\n\n"
