"""normalizer: check a chat history against a vendor's rules and repair it for that vendor
with the least loss, reporting every change. Pure code; no network.

This module is the public face: it re-exports, and holds no logic. `__all__` is asserted
equal to the public names defined here (tests/test_public_api.py).
"""

from normalizer.check import Violation, check
from normalizer.errors import (
    ArgumentsJSONError,
    BudgetError,
    BudgetTypeError,
    MissingDetectorError,
    MissingExtraError,
    NoFreshIdError,
    NormalizerError,
    ProfileError,
    StreamEventError,
    UnknownProtocolError,
    UnknownProviderError,
    UnstreamablePartError,
    WireFormatError,
)
from normalizer.model import (
    STREAM_MARKERS,
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
from normalizer.protocols import DEFAULT_MODEL, PROTOCOLS, ProtocolFacts
from normalizer.window import Budget, fit
from normalizer.wire import parse, render

__all__ = [
    "DEFAULT_MODEL",
    "PROTOCOLS",
    "PROVIDERS",
    "STREAM_MARKERS",
    "ArgumentsJSONError",
    "Budget",
    "BudgetError",
    "BudgetTypeError",
    "Change",
    "History",
    "JsonMap",
    "Message",
    "MissingDetectorError",
    "MissingExtraError",
    "NoFreshIdError",
    "Normalized",
    "NormalizerError",
    "Part",
    "Policy",
    "Profile",
    "ProfileError",
    "ProtocolFacts",
    "Rule",
    "StreamEventError",
    "Text",
    "Thinking",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "UnknownProtocolError",
    "UnknownProviderError",
    "UnstreamablePartError",
    "Violation",
    "WireFormatError",
    "check",
    "fit",
    "load_profile",
    "normalize",
    "parse",
    "render",
]
