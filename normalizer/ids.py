"""Deterministic, collision-free, reversible maps for tool-call ids and tool names.

A vendor switch may need ids or names the source vendor would never produce (Mistral wants
exactly 9 alphanumerics, OpenAI at most 40 characters, Anthropic `^[a-zA-Z0-9_-]+$`). Every
replacement here is derived from a SHA-256 of the original, so the same input gives the same
bytes on every run and machine (never a clock or a random salt: seed 002 shows what a
time-based salt does to pairing). A replacement that would collide with a value already in
use gets a counter mixed into the hash, in order of first appearance, so the map stays
one-to-one and can be inverted (the maps are kept new -> original).
"""

from __future__ import annotations

import functools
import hashlib
import re
import re._parser as _re_parser  # type: ignore[import-not-found]
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.errors import NoFreshIdError

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# Characters every vendor we know accepts in ids and names; anything else is replaced.
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
# Lengths tried for hash-only ids: Mistral's exact 9 first, then roomier ones.
_HASH_LENGTHS = (9, 16, 24)
_MAX_SALT = 1000
# Lengths to cut readable candidates to when the constraint gives only a pattern (whose
# length limit, like Gemini's `{0,63}`, is not read out of the regex).
_USUAL_CAPS = (64, 40)


@dataclass(frozen=True, slots=True)
class Constraint:
    """What a vendor accepts: a regex the whole value must match and a maximum length."""

    pattern: str | None = None
    max_length: int | None = None

    def accepts(self, value: str) -> bool:
        """Whether `value` is non-empty and satisfies the pattern and length limit."""
        return _acceptor(self)(value)

    def acceptor(self) -> Callable[[str], bool]:
        """`accepts` as one function, for checking many values (compiled once per rule)."""
        return _acceptor(self)

    @property
    def active(self) -> bool:
        """Whether the constraint limits anything at all."""
        return self.pattern is not None or self.max_length is not None


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    # re.fullmatch looks the pattern up in re's own cache on every call: a profiled
    # hot spot when every id of a long history is checked.
    return re.compile(pattern)


@functools.lru_cache(maxsize=64)
def _acceptor(rule: Constraint) -> Callable[[str], bool]:
    """`rule.accepts` as one closure with the regex compiled and the limits read once: the
    id and name maps ask it for every id of a history, and several times per rewritten id.
    A value whose length the pattern cannot match is refused before the regex runs (most
    candidates Mistral refuses are refused by their length alone)."""
    match = None if rule.pattern is None else _compiled(rule.pattern).fullmatch
    cap = rule.max_length
    if match is None:
        return bool if cap is None else lambda v: bool(v) and len(v) <= cap
    shortest, longest = lengths(rule)
    if shortest > 1 or longest < _UNBOUNDED:
        return lambda v: shortest <= len(v) <= longest and match(v) is not None
    if cap is None:
        return lambda v: bool(v) and match(v) is not None
    return lambda v: bool(v) and len(v) <= cap and match(v) is not None


_UNBOUNDED = 1 << 30  # longer than any id or name a history holds


@functools.lru_cache(maxsize=64)
def lengths(rule: Constraint) -> tuple[int, int]:
    """The shortest and longest value `rule` can accept (at least 1: empty is never
    accepted): its max_length and what its pattern can match, read off the regex's parse
    (re's own width computation); unbounded where the parse is not available."""
    shortest, longest = 1, _UNBOUNDED if rule.max_length is None else rule.max_length
    if rule.pattern is not None:
        try:
            low, high = _re_parser.parse(rule.pattern).getwidth()
        except Exception:  # a private module of re: the limits are a shortcut, not needed
            low, high = 0, _UNBOUNDED
        shortest, longest = max(shortest, low), min(longest, high)
    return shortest, longest


def digest(text: str, length: int, salt: int = 0) -> str:
    """`length` base-62 characters of SHA-256(text [+ salt]); stable across runs."""
    return _base62(_hashed(text, salt), length)


def _hashed(text: str, salt: int) -> int:
    data = text if salt == 0 else f"{text}\x00{salt}"
    return int.from_bytes(hashlib.sha256(data.encode("utf-8")).digest(), "big")


# Two base-62 digits per division (a profiled hot spot: every rewritten id expands a
# 256-bit hash): _PAIRS[low + 62 * high] is those two digits, the least significant first.
_PAIRS = tuple(low + high for high in _ALPHABET for low in _ALPHABET)
_MODULI: dict[int, int] = {}  # 3844 ** pairs, by the number of pairs


def _base62(number: int, length: int) -> str:
    """The `length` least significant base-62 digits of `number`, least significant first."""
    half = (length + 1) // 2
    modulus = _MODULI.get(half) or _MODULI.setdefault(half, 3844 ** half)
    number %= modulus  # the digits kept only: the divisions then work on a smaller int
    pairs = []
    for _ in range(half):
        number, rest = divmod(number, 3844)
        pairs.append(_PAIRS[rest])
    return "".join(pairs)[:length]


def _caps(rule: Constraint) -> tuple[int | None, ...]:
    return (rule.max_length,) if rule.max_length is not None else (None, *_USUAL_CAPS)


def _fit(stem: str, tag: str, max_length: int | None) -> str:
    """`stem` + "_" + `tag`, with the stem cut so the whole fits `max_length`."""
    if max_length is not None and len(stem) + 1 + len(tag) > max_length:
        stem = stem[: max(0, max_length - 1 - len(tag))]
    return f"{stem}_{tag}" if stem else tag


def _fitted(stem: str, tag: str, rule: Constraint) -> Iterable[str]:
    """`stem_tag` cut to each cap in turn, each distinct value once: a cap that cuts nothing
    gives the value before it again, which was refused then and would be refused again."""
    last = None
    for cap in _caps(rule):
        value = _fit(stem, tag, cap)
        if value != last:
            yield value
        last = value


def _id_candidates(original: str, rule: Constraint, salt: int) -> Iterable[str]:
    """Replacement ids in order of preference: readable ones first, pure hashes last."""
    clean = _UNSAFE.sub("_", original)
    if salt == 0:
        yield clean
    # One SHA-256 and one base-62 expansion for every candidate of this salt: a shorter
    # digest is a prefix of a longer one (digits come least significant first).
    number = _hashed(original, salt)
    digits = _base62(number, 24)
    yield from _fitted(clean, digits[:8], rule)
    yield from _hashes(number, digits, rule)


def _hashes(number: int, digits: str, rule: Constraint) -> Iterable[str]:
    """The pure-hash candidates of a hash `number` whose first 24 digits are `digits`; the
    longer expansion a max_length over 24 asks for is made only when it is reached (the
    candidates before it are usually taken: two thirds of the divisions saved)."""
    yield "call_" + digits
    for length in _HASH_LENGTHS:
        yield digits[:length]
    if rule.max_length is not None:
        cap = rule.max_length
        yield digits[:cap] if cap <= 24 else _base62(number, cap)


def _name_candidates(original: str, rule: Constraint, salt: int) -> Iterable[str]:
    clean = _UNSAFE.sub("_", original) or "tool"
    tag = digest(original, 8, salt)
    for stem in (clean, "_" + clean, "tool_" + clean):
        if salt == 0:
            yield stem
        yield from _fitted(stem, tag, rule)
    yield "tool_" + digest(original, 16, salt)


def fresh_value(
    original: str,
    rule: Constraint,
    taken: Iterable[str] | set[str],
    candidates: Callable[[str, Constraint, int], Iterable[str]] = _id_candidates,
) -> str:
    """The first candidate for `original` that `rule` accepts and is not in `taken`."""
    used = taken if isinstance(taken, set) else set(taken)
    accepts = _acceptor(rule)
    for salt in range(_MAX_SALT):
        for value in candidates(original, rule, salt):
            if value not in used and accepts(value):
                return value
    raise _no_fresh_id(original, rule)


def _fresh_id(original: str, rule: Constraint, used: set[str]) -> str:
    """`fresh_value(original, rule, used)` with the id candidates: the same values tried in
    the same order (test_ids compares the two)."""
    return _id_search(rule)(original, used)


@functools.lru_cache(maxsize=64)
def _id_search(rule: Constraint) -> Callable[[str, set[str]], str]:
    """`_fresh_id` for one rule, with what depends on the rule alone read once, spelled out
    without generators: Mistral takes a new id for nearly every id of a history (the
    generators' frames were a fifth of the cost, reading the rule per id another fifth)."""
    accepts, caps = _acceptor(rule), _caps(rule)
    size, pick = _hash_pick(rule)
    # A readable candidate is the 8-digit tag alone or a stem, "_" and the tag (10 or more
    # characters): a rule that allows neither length (Mistral: 9) refuses them all unmade.
    shortest, longest = lengths(rule)
    if not (shortest <= 8 <= longest or longest >= 10):
        caps = ()

    def search(original: str, used: set[str]) -> str:
        # The substitution keeps the length: where that length is refused and no readable
        # candidate is tried (Mistral: 9 characters), the clean id is never made.
        readable = bool(caps) or shortest <= len(original) <= longest
        clean = _UNSAFE.sub("_", original) if readable else original
        if readable and clean not in used and accepts(clean):
            return clean
        for salt in range(_MAX_SALT):
            number = _hashed(original, salt)
            digits = _base62(number, size)
            tag, last = digits[:8], None
            for limit in caps:  # _fitted
                value = _fit(clean, tag, limit)
                if value != last and value not in used and accepts(value):
                    return value
                last = value
            found = pick(number, digits, used)
            if found is not None:
                return found
        raise _no_fresh_id(original, rule)

    return search


@functools.lru_cache(maxsize=64)
def _hash_pick(rule: Constraint
               ) -> tuple[int, Callable[[int, str, set[str]], str | None]]:
    """How many digits of a hash to make, and the first of `_hashes` (the pure-hash
    candidates of a hash number and its first digits) that `rule` accepts and is not used,
    or None. A candidate longer than the rule allows is refused whatever its digits: such
    ones are not tried, and only the digits the others need are made (9 of 24 for Mistral,
    whose pattern allows 9 characters)."""
    accepts = _acceptor(rule)
    longest = lengths(rule)[1]
    size = 24 if longest >= 24 else max(8, longest)  # 8: the readable candidates' tag
    prefixed = longest >= 29  # "call_" + 24 digits
    cuts = [k for k in _HASH_LENGTHS if k <= longest]
    cap = rule.max_length if rule.max_length is not None and rule.max_length <= longest \
        else None

    def pick(number: int, digits: str, used: set[str]) -> str | None:
        if prefixed:
            value = "call_" + digits
            if value not in used and accepts(value):
                return value
        for k in cuts:
            value = digits[:k]
            if value not in used and accepts(value):
                return value
        if cap is not None:
            value = digits[:cap] if cap <= 24 else _base62(number, cap)
            if value not in used and accepts(value):
                return value
        return None

    return size, pick


def _no_fresh_id(original: str, rule: Constraint) -> NoFreshIdError:
    return NoFreshIdError(f"no replacement for {original!r} satisfies pattern={rule.pattern!r} "
                          f"max_length={rule.max_length!r}; check the profile's rule params")


def build_map(
    originals: Iterable[str],
    rule: Constraint,
    candidates: Callable[[str, Constraint, int], Iterable[str]] = _id_candidates,
) -> dict[str, str]:
    """The map original -> replacement for every value `rule` rejects, in order of first appearance.

    Values `rule` accepts are kept and reserved first, so no replacement can take the place
    of a value that stays. Accepted values are absent from the result (they do not change)."""
    if candidates is _id_candidates:
        return _mapped(originals, rule, _id_search(rule))
    return _mapped(originals, rule,
                   lambda value, taken: fresh_value(value, rule, taken, candidates))


def _mapped(originals: Iterable[str], rule: Constraint,
            fresh: Callable[[str, set[str]], str]) -> dict[str, str]:
    ordered = list(dict.fromkeys(originals))
    accepts = _acceptor(rule)
    taken = {v for v in ordered if accepts(v)}
    mapping: dict[str, str] = {}
    for value in ordered:
        if value in taken:  # accepted (asked once above); replacements added are never here
            continue
        new = fresh(value, taken)
        taken.add(new)
        mapping[value] = new
    return mapping


def id_map(originals: Iterable[str], rule: Constraint) -> dict[str, str]:
    """The map original id -> new id for the ids `rule` rejects."""
    return build_map(originals, rule)


def name_map(originals: Iterable[str], rule: Constraint) -> dict[str, str]:
    """The map original tool name -> new name for the names `rule` rejects."""
    return build_map(originals, rule, _name_candidates)


def call_id_for(key: str, rule: Constraint, taken: set[str]) -> str:
    """A new id for a call that had none, derived from `key` (name, arguments, occurrence)."""
    # fresh_value over the hash candidates, without its generators: one id per id-less call
    # (every Gemini call on its way to another vendor), nearly always the first candidate.
    size, pick = _hash_pick(rule)
    for salt in range(_MAX_SALT):
        number = _hashed(key, salt)
        found = pick(number, _base62(number, size), taken)
        if found is not None:
            return found
    raise _no_fresh_id(key, rule)


def compose(previous: Mapping[str, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """Extend a new -> original map with `renames` (old -> new), so that a value renamed twice
    still maps back to what the caller first sent, and entries that were renamed again go."""
    result = {k: v for k, v in previous.items() if k not in renames}
    for old, new in renames.items():
        result[new] = previous.get(old, old)
    return result
