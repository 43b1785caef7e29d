"""Detectors for Anthropic's limits on images: how many images and documents a request
holds, the length of one image's base64 data, the pixels of one image, and of every image
once a request holds many.

Anthropic's vision guide, "General limits": an image larger than 8000x8000 px is rejected,
and where a request holds more than 20 images, one larger than 2000x2000 px. The sizes are
read off the image's header (normalizer/image_bytes.py); an image given by URL or file id,
or whose bytes are none of the four types Anthropic takes, is not judged. The data's length
is its base64 text's, in characters, as the API counts it ("image exceeds 5 MB maximum:
5327908 bytes > 5242880 bytes", nraiden/cofounder#53).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import blocks_by_type, result_parts
from normalizer.image_bytes import (
    KNOWN,
    image_dimensions,
    mismatched,
    not_base64,
    sniffed_content_type,
)
from normalizer.pdf_bytes import pdf_problem
from normalizer.profiles import Rule
from normalizer.shared_reading import shared

# (the path of the image's base64 source, as the API prints it; the image block)
Placed = tuple[str, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class MediaBlocks:
    """The image blocks (in body order, with the path of each one's base64 source), how many
    document blocks there are, in messages and in tool_result blocks' content, and how many
    characters of data their sources hold."""

    images: tuple[Placed, ...]
    documents: int
    data: int
    pdfs: tuple[Placed, ...] = ()  # the PDF documents, placed as the images are


@shared
def media(body: Mapping[str, Any]) -> MediaBlocks:
    """The body's images and documents, read once for all the detectors here (the tool
    results' content is walked once)."""
    by_type = blocks_by_type(body)
    found: list[tuple[tuple[int, int, int], Placed]] = [
        ((i, j, -1), (f"messages.{i}.content.{j}.image.source.base64", block))
        for i, j, block in by_type.get("image", ())]
    top_documents = [block for *_, block in by_type.get("document", ())]
    pdfs: list[tuple[tuple[int, int, int], Placed]] = [
        ((i, j, -1), (f"messages.{i}.content.{j}.pdf.source.base64", block))
        for i, j, block in by_type.get("document", ()) if _pdf(block)]
    inner_documents: list[Mapping[str, Any]] = []
    for i, j, k, part, kind in result_parts(by_type):
        if kind == "image":
            found.append(((i, j, k), (f"messages.{i}.content.{j}.tool_result.content.{k}"
                                      ".image.source.base64", part)))
        elif kind == "document":
            inner_documents.append(part)
            if _pdf(part):
                pdfs.append(((i, j, k), (f"messages.{i}.content.{j}.tool_result.content.{k}"
                                         ".pdf.source.base64", part)))
    found.sort(key=lambda pair: pair[0])
    pdfs.sort(key=lambda pair: pair[0])
    blocks = [block for _, (_, block) in found] + top_documents + inner_documents
    return MediaBlocks(tuple(placed for _, placed in found),
                       len(top_documents) + len(inner_documents), sum(map(_data, blocks)),
                       tuple(placed for _, placed in pdfs))


def _pdf(block: Mapping[str, Any]) -> bool:
    """Whether a document block's source is inline base64 data declared a PDF."""
    source = block.get("source")
    return isinstance(source, Mapping) and source.get("type") == "base64" and \
        source.get("media_type") == "application/pdf"


def _data(block: Mapping[str, Any]) -> int:
    """The length of a block's source data (base64, or a plain-text document's text)."""
    source = block.get("source")
    data = source.get("data") if isinstance(source, Mapping) else None
    return len(data) if isinstance(data, str) else 0


def images(body: Mapping[str, Any]) -> tuple[Placed, ...]:
    """Every image block, in messages and in tool_result blocks' content, in body order,
    with the path of its base64 source (`messages.18.content.1.image.source.base64`; in a
    tool result, `messages.169.content.0.tool_result.content.1.image.source.base64`)."""
    return media(body).images


def inline_data(block: Mapping[str, Any]) -> str | None:
    """The base64 data of an inline image block."""
    source = block.get("source")
    if not isinstance(source, Mapping) or source.get("type") != "base64":
        return None
    data = source.get("data")
    return data if isinstance(data, str) else None


def inline_dimensions(block: Mapping[str, Any]) -> tuple[int, int] | None:
    """The (width, height) of an inline (base64) image block, where its header says."""
    data = inline_data(block)
    return image_dimensions(data) if data is not None else None


def image_data_empty(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """`image-data-empty`: an inline image whose base64 data is empty."""
    for at, block in images(body):
        data = inline_data(block)
        if data is not None and not data.strip():
            yield Finding(location=at, fields={"at": at})


def image_data_not_base64(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """`image-data-not-base64`: an inline image whose data holds a character no base64
    text does (a URL, a path, a whole data URL)."""
    for at, block in images(body):
        data = inline_data(block)
        if data is not None and not_base64(data):
            yield Finding(location=at, fields={"at": at})


def image_format_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """`image-format-unsupported`: an inline image whose base64 data is none of the types in
    params.images by its first bytes (a BMP, an SVG, bytes of no image format). Empty data and
    data that is not base64 are the other image rules'."""
    taken = {str(t) for t in rule.params.get("images", KNOWN)}
    for at, block in images(body):
        data = inline_data(block)
        if data is None or not data.strip() or not_base64(data):
            continue
        found = sniffed_content_type(data)
        if found is not None and found not in taken:
            yield Finding(location=at, fields={"at": at})


def image_too_large(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`image-too-large`: an inline image whose base64 data is longer than
    params.max_bytes characters (`megabytes` is that limit in MiB, as the text says it)."""
    limit = int(rule.params["max_bytes"])
    for at, block in images(body):
        data = inline_data(block)
        if data is not None and len(data) > limit:
            yield Finding(location=at, fields={"at": at, "size": len(data), "max_bytes": limit,
                                               "megabytes": limit // (1024 * 1024)})


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


def _over(found: tuple[Placed, ...], limit: int) -> Iterator[Finding]:
    for at, block in found:
        size = inline_dimensions(block)
        if size is not None and max(size) > limit:
            where = f"{at}.data"
            yield Finding(location=where, fields={"at": where, "width": size[0],
                                                  "height": size[1], "max_pixels": limit})


def too_many_media(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`too-many-media`: more image and document blocks in the request, in messages and in
    tool results, than params.max_items."""
    found = media(body)
    limit = int(rule.params["max_items"])
    if len(found.images) + found.documents > limit:
        yield Finding(location="messages", fields={"images": len(found.images),
                                                   "documents": found.documents,
                                                   "max_items": limit})


def image_media_type_mismatch(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """`image-media-type-mismatch`: an inline (base64) image, in a message's content or
    inside a tool_result's, whose bytes are a PNG, JPEG, GIF or WebP other than its
    media_type says, at the path the API prints
    (`messages.18.content.1.image.source.base64.data`)."""
    for at, block in images(body):
        data = inline_data(block)
        declared = block["source"].get("media_type") if data is not None else None
        real = mismatched(declared, data)
        if real is not None:
            where = f"{at}.data"
            yield Finding(location=where, fields={"at": where, "mime": declared,
                                                  "found": real})


def request_too_large(body: Mapping[str, Any], rule: Rule,
                      model: str | None) -> Iterator[Finding]:
    """`request-too-large`: a body longer than params.max_bytes as the SDK sends it (compact
    JSON, UTF-8). Only a body whose images and documents hold more than half the limit is
    serialized to be measured: the rest of a request is text, and 16 MB of it would be
    several times the largest context window."""
    limit = int(rule.params["max_bytes"])
    if media(body).data <= limit // 2:
        return
    size = len(json.dumps(body, ensure_ascii=False, separators=(",", ":"),
                          default=str).encode("utf-8"))
    if size > limit:
        yield Finding(location="messages", fields={"size": size, "max_bytes": limit})


def pdf_data_invalid(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """`document-data-invalid`: an inline PDF document whose base64 data holds no PDF (no
    `%PDF-` header at its start, or no `%%EOF` at its end: normalizer/pdf_bytes.py). The
    API names the block `pdf` in its path. Data that is not base64 is not judged here."""
    for at, block in media(body).pdfs:
        data = inline_data(block)
        problem = pdf_problem(data) if data else None
        if problem is not None:
            where = f"{at}.data"
            yield Finding(location=where, fields={"at": where, "problem": problem})
