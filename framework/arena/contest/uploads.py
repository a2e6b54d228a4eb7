"""The checks of a participant's upload, before anything of it is stored or built.

An upload is one source file: bounded in size, a plain file name (never a path), an
allowed language (by its ending, through botbuild's presets), text (UTF-8, no NUL) and
never an archive, so no archive is ever unpacked (no archive bomb). Each refusal is an
:class:`UploadRefused` whose message a participant may read: it names the rule, never a
path or arena's internals.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from arena.botbuild.languages import PRESETS
from arena.errors import ArenaError

MAX_NAME = 100
"""Most characters an uploaded file's name may have."""

ARCHIVE_MAGIC: tuple[tuple[int, bytes, str], ...] = (
    (0, b"PK\x03\x04", "zip"),
    (0, b"PK\x05\x06", "zip"),
    (0, b"PK\x07\x08", "zip"),
    (0, b"\x1f\x8b", "gzip"),
    (0, b"BZh", "bzip2"),
    (0, b"\xfd7zXZ\x00", "xz"),
    (0, b"7z\xbc\xaf\x27\x1c", "7z"),
    (0, b"\x28\xb5\x2f\xfd", "zstd"),
    (0, b"Rar!\x1a\x07", "rar"),
    (257, b"ustar", "tar"),
)
"""(offset, bytes, kind) of the archive and compressed formats refused by their start."""


class UploadRefused(ArenaError):
    """One line a participant may read (no path, no internals)."""


@dataclass(frozen=True)
class UploadRules:
    """What a contest accepts: botbuild language keys (e.g. ``("python", "cpp")``), the
    largest file, and the uploads a participant may make per hour."""

    languages: tuple[str, ...]
    max_bytes: int = 100_000
    per_hour: int = 20


def check_upload(filename: str, data: bytes, rules: UploadRules) -> str:
    """The language key of an acceptable upload; :class:`UploadRefused` saying why not."""
    if len(data) > rules.max_bytes:
        raise UploadRefused(
            f"the file is too large: {len(data)} bytes, at most {rules.max_bytes} are accepted"
        )
    if not data.strip():
        raise UploadRefused("the file is empty")
    check_name(filename)
    kind = archive_kind(data)
    if kind is not None:
        raise UploadRefused(f"the file is an archive ({kind}): upload one source file")
    if b"\0" in data:
        raise UploadRefused("the file is not text (it holds NUL bytes): upload one source file")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadRefused("the file is not text (UTF-8): upload one source file") from None
    return language_of_name(filename, rules)


def check_name(filename: str) -> None:
    """A file name as uploaded must be a plain base name: no folder, no ``..``, printable."""
    if not filename or not filename.strip():
        raise UploadRefused("the file has no name")
    if len(filename) > MAX_NAME:
        raise UploadRefused(f"the file name is too long: at most {MAX_NAME} characters")
    if "/" in filename or "\\" in filename or ".." in filename:
        raise UploadRefused("the file name must be a plain name, without '/', '\\' or '..'")
    if not filename.isprintable() or filename != filename.strip():
        raise UploadRefused(
            "the file name must be printable text, without control characters or spaces at its ends"
        )
    if filename.startswith(("-", ".")):
        raise UploadRefused("the file name must not start with '-' or '.'")


def language_of_name(filename: str, rules: UploadRules) -> str:
    """The first allowed preset that claims the file's ending (presets' order)."""
    ending = PurePosixPath(filename).suffix
    for name, preset in PRESETS.items():
        if name in rules.languages and ending in preset.get("extensions", ()):
            return name
    allowed = "; ".join(
        f"{name} ({' '.join(PRESETS[name].get('extensions', ()))})"
        for name in rules.languages
        if name in PRESETS
    )
    what = f"{ending!r} files are" if ending else "a file without an ending is"
    raise UploadRefused(f"{what} not accepted: the languages allowed are {allowed}")


def archive_kind(data: bytes) -> str | None:
    """The archive or compression format ``data`` starts as, or None."""
    for offset, magic, kind in ARCHIVE_MAGIC:
        if data[offset : offset + len(magic)] == magic:
            return kind
    return None


def check_rate(recent: int, rules: UploadRules) -> None:
    """Refuse an upload when the participant made ``recent`` uploads in the last hour and
    that is the most allowed."""
    if recent >= rules.per_hour:
        raise UploadRefused(f"too many uploads: at most {rules.per_hour} per hour; try again later")
