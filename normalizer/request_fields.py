"""Top-level request fields a vendor does not know (rule unknown-request-field): what
check() flags and the repair leaves out or renames, read one way for both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def unknown_fields(request: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """The request's top-level fields that are neither in params.known nor in
    params.elsewhere (refused the same way but reported and repaired under a rule of their
    own: Mistral's max_completion_tokens), in request order; none where the params list no
    known fields."""
    known = params.get("known") or ()
    if not known:
        return []
    taken = {*known, *(params.get("elsewhere") or ())}
    return [str(k) for k in request if k not in taken]
