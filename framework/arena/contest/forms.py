"""Request bodies read with a bound and parsed with the standard library: URL-encoded forms
and ``multipart/form-data`` uploads (no more than the contest's limit is ever read)."""

from __future__ import annotations

from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from urllib.parse import parse_qs

from starlette.requests import Request

FORM_BYTES = 64 * 1024
"""The largest body of a form without a file (sign-in, invitation...)."""
MULTIPART_SLACK = 8 * 1024
"""What a multipart body may hold beyond its file: the boundaries and other fields."""


class BodyTooLarge(Exception):
    """A request body over its bound (answered 413, the body left unread)."""


@dataclass
class Form:
    """A parsed form: text fields, and the files by field name (their name and bytes)."""

    fields: dict[str, str] = field(default_factory=dict)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)

    def get(self, key: str, default: str = "") -> str:
        """A text field, else ``default``."""
        return self.fields.get(key, default)


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused with :class:`BodyTooLarge` past ``limit`` bytes (the
    declared length is checked first, then what actually arrives)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def read_form(request: Request, file_limit: int = 0) -> Form:
    """The request's form (URL-encoded, or multipart when ``file_limit`` allows a file)."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data") and file_limit:
        body = await read_body(request, file_limit + MULTIPART_SLACK)
        return parse_multipart(kind, body)
    body = await read_body(request, FORM_BYTES)
    text = body.decode("utf-8", "replace")
    pairs = parse_qs(text, keep_blank_values=True, max_num_fields=100)
    return Form({k: v[0] for k, v in pairs.items()})


def parse_multipart(content_type: str, body: bytes) -> Form:
    """A ``multipart/form-data`` body's fields and files (by field name; the first of each)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
    message = BytesParser(policy=HTTP).parsebytes(head + body)
    form = Form()
    if not message.is_multipart():
        return form
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str) or name in form.fields or name in form.files:
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is not None:
            form.files[name] = (filename, data)
        else:
            form.fields[name] = data.decode("utf-8", "replace")
    return form
