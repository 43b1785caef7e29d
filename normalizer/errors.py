"""Typed errors of the library. Each message names what was wrong and what was expected."""

from __future__ import annotations


class NormalizerError(Exception):
    """Base of every error this library raises on purpose."""


class UnknownProtocolError(NormalizerError, ValueError):
    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown protocol {name!r}; known protocols: {', '.join(known)}")
        self.name = name
        self.known = known


class UnknownProviderError(NormalizerError, ValueError):
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
