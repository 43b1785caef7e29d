"""Detectors for Anthropic's limits on inline images: the pixels of one image, and of every
image once a request holds many.

Anthropic's vision guide, "General limits": an image larger than 8000x8000 px is rejected,
and where a request holds more than 20 images, one larger than 2000x2000 px. The sizes are
read off the image's header (normalizer/image_bytes.py); an image given by URL or file id,
or whose bytes are none of the four types Anthropic takes, is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import blocks_by_type, result_parts
from normalizer.image_bytes import image_dimensions
from normalizer.profiles import Rule

# (where the image's data is, as the API prints it; the image block)
Placed = tuple[str, Mapping[str, Any]]


def images(body: Mapping[str, Any]) -> list[Placed]:
    """Every image block, in messages and in tool_result blocks' content, in body order,
    with the path of its base64 data (`messages.18.content.1.image.source.base64.data`; in
    a tool result, `messages.3.content.0.tool_result.content.1.image.source.base64.data`)."""
    by_type = blocks_by_type(body)
    found: list[tuple[tuple[int, int, int], Placed]] = [
        ((i, j, -1), (f"messages.{i}.content.{j}.image.source.base64.data", block))
        for i, j, block in by_type.get("image", ())]
    found += [((i, j, k), (f"messages.{i}.content.{j}.tool_result.content.{k}.image.source"
                           ".base64.data", part))
              for i, j, k, part, kind in result_parts(by_type) if kind == "image"]
    return [placed for _, placed in sorted(found, key=lambda pair: pair[0])]


def inline_dimensions(block: Mapping[str, Any]) -> tuple[int, int] | None:
    """The (width, height) of an inline (base64) image block, where its header says."""
    source = block.get("source")
    if not isinstance(source, Mapping) or source.get("type") != "base64":
        return None
    data = source.get("data")
    return image_dimensions(data) if isinstance(data, str) else None


def image_dimensions_too_large(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """`image-dimensions-too-large`: an inline image wider or taller than
    params.max_pixels."""
    yield from _over(images(body), int(rule.params["max_pixels"]))


def many_image_dimensions_too_large(body: Mapping[str, Any], rule: Rule,
                                    model: str | None) -> Iterator[Finding]:
    """`many-image-dimensions-too-large`: in a request with more than params.max_items
    images (every image block counts, whatever its source), an inline image wider or
    taller than params.max_pixels."""
    found = images(body)
    if len(found) > int(rule.params["max_items"]):
        yield from _over(found, int(rule.params["max_pixels"]))


def _over(found: list[Placed], limit: int) -> Iterator[Finding]:
    for at, block in found:
        size = inline_dimensions(block)
        if size is not None and max(size) > limit:
            yield Finding(location=at, fields={"at": at, "width": size[0], "height": size[1],
                                               "max_pixels": limit})
