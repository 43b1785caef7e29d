"""normalizer: check a chat history against a vendor's rules and repair it for that vendor
with the least loss, reporting every change. Pure code; no network."""

from normalizer.check import Violation, check
from normalizer.errors import (
    ArgumentsJSONError,
    NormalizerError,
    ProfileError,
    UnknownProtocolError,
    UnknownProviderError,
    WireFormatError,
)
from normalizer.model import (
    Change,
    History,
    JsonMap,
    Message,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from normalizer.normalize import Normalized, normalize
from normalizer.passes import Policy
from normalizer.profiles import PROVIDERS, Profile, Rule, load_profile
from normalizer.wire import PROTOCOLS, parse, render

__all__ = [
    "PROTOCOLS",
    "PROVIDERS",
    "ArgumentsJSONError",
    "Change",
    "History",
    "JsonMap",
    "Message",
    "Normalized",
    "NormalizerError",
    "Part",
    "Policy",
    "Profile",
    "ProfileError",
    "Rule",
    "Text",
    "Thinking",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "UnknownProtocolError",
    "UnknownProviderError",
    "Violation",
    "WireFormatError",
    "check",
    "load_profile",
    "normalize",
    "parse",
    "render",
]
