"""Typed errors of the library. Each message names what was wrong and what was expected.

Every error the library raises on purpose is a `NormalizerError`. Each one is also the
built-in exception it replaced, so `except ValueError` written before the tree existed
still catches it::

    NormalizerError
    ├── UnknownProtocolError      (ValueError)   a protocol name not in PROTOCOLS
    ├── UnknownProviderError      (ValueError)   a provider name with no built-in profile
    ├── WireFormatError           (ValueError)   a request body that cannot be parsed
    ├── ArgumentsJSONError        (ValueError)   tool-call arguments that are not JSON
    ├── ProfileError              (ValueError)   a profile YAML file of the wrong shape
    ├── MissingDetectorError      (LookupError)  a profile rule no checks/ module detects
    ├── NoFreshIdError            (ValueError)   no new id satisfies a profile's id rule
    ├── BudgetError               (ValueError)   a window budget below 1
    │   └── BudgetTypeError       (TypeError)    a budget that is not a Budget or an int
    ├── StreamEventError          (TypeError)    a stream event that is not a JSON object
    ├── UnstreamablePartError     (ValueError)   a part an assistant message cannot stream
    └── MissingExtraError         (ImportError)  an optional module whose extra is missing
"""

from __future__ import annotations


class NormalizerError(Exception):
    """Base of every error this library raises on purpose."""


class UnknownProtocolError(NormalizerError, ValueError):
    """A protocol name not in PROTOCOLS; `known` lists the valid ones."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown protocol {name!r}; known protocols: {', '.join(known)}")
        self.name = name
        self.known = known


class UnknownProviderError(NormalizerError, ValueError):
    """A provider name with no built-in profile; `known` lists them."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"unknown provider {name!r}; built-in providers: {', '.join(known)} "
            "(or pass a Profile, or a path to a profile YAML file)"
        )
        self.name = name
        self.known = known


class WireFormatError(NormalizerError, ValueError):
    """A request body that cannot be parsed into a history. `where` is a JSON path."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


class ArgumentsJSONError(NormalizerError, ValueError):
    """Tool-call arguments that are not valid JSON. The raw text is kept in `.raw`."""

    def __init__(self, raw: str, reason: str, where: str = "arguments") -> None:
        shown = raw if len(raw) <= 200 else raw[:200] + "…"
        super().__init__(f"{where}: tool-call arguments are not valid JSON ({reason}): {shown!r}")
        self.raw = raw
        self.reason = reason
        self.where = where


class ProfileError(NormalizerError, ValueError):
    """A profile YAML file that does not have the expected shape."""

    def __init__(self, source: str, where: str, problem: str) -> None:
        super().__init__(f"{source}: {where}: {problem}")
        self.source = source
        self.where = where
        self.problem = problem


class MissingDetectorError(NormalizerError, LookupError):
    """A profile rule with no detector in `normalizer/checks/<protocol>.py`."""


class NoFreshIdError(NormalizerError, ValueError):
    """No replacement id satisfies the profile's id rule (pattern, max length)."""


class BudgetError(NormalizerError, ValueError):
    """A window budget below 1."""


class BudgetTypeError(BudgetError, TypeError):
    """A budget that is neither a `Budget` nor an int (a message count)."""


class StreamEventError(NormalizerError, TypeError):
    """A stream event that is neither a JSON object nor an SDK event object."""


class UnstreamablePartError(NormalizerError, ValueError):
    """A part an assistant message cannot stream (e.g. a ToolResult)."""


class MissingExtraError(NormalizerError, ImportError):
    """An optional module whose dependencies are not installed; names the pip extra."""

    def __init__(self, module: str, extra: str, missing: str) -> None:
        super().__init__(f"{module} needs {missing!r}, which is not installed; "
                         f"install it with: pip install 'provider-conformance[{extra}]'")
        self.module = module
        self.extra = extra
        self.missing = missing
