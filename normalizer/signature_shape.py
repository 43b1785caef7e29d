"""The one thing about a thinking signature that can be checked without the vendor's key:
its shape. Used by the Anthropic detector (thinking-signature-invalid) and by the thinking
pass, so that what check() rejects is exactly what normalize removes."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable


def issued_by_shape(signature: str, first_bytes: Iterable[int]) -> bool:
    """Standard base64 whose first decoded byte is one of `first_bytes` (the rule's
    params.first_bytes). Cryptographic validity cannot be checked offline."""
    try:
        raw = base64.b64decode(signature + "=" * (-len(signature) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return bool(raw) and raw[0] in set(first_bytes)
