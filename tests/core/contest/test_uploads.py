"""An upload's checks: what a participant may upload, and the one line it reads when refused."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile

import pytest

from arena.contest.uploads import UploadRefused, UploadRules, check_rate, check_upload

RULES = UploadRules(("python", "cpp"), max_bytes=1000, per_hour=3)
ALLOWED = "the languages allowed are python (.py); cpp (.cpp .cc .cxx .c++)"


def zipped() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", "print(1)\n")
    return buffer.getvalue()


def tarred() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        data = b"print(1)\n"
        info = tarfile.TarInfo("bot.py")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.mark.parametrize(
    "name, language",
    [("bot.py", "python"), ("Main.cpp", "cpp"), ("my bot.cc", "cpp"), ("v2_final-1.c++", "cpp")],
)
def test_an_allowed_source_file_gives_its_language(name: str, language: str) -> None:
    assert check_upload(name, b"int main() {}\n", RULES) == language


def test_the_size_limit_is_the_number_of_bytes_given() -> None:
    assert check_upload("bot.py", b"#" * 999 + b"\n", RULES) == "python"  # 1000 bytes: the most
    with pytest.raises(UploadRefused) as refused:
        check_upload("bot.py", b"#" * 1000 + b"\n", RULES)
    assert str(refused.value) == "the file is too large: 1001 bytes, at most 1000 are accepted"


@pytest.mark.parametrize(
    "name, message",
    [
        ("../x.py", "the file name must be a plain name, without '/', '\\' or '..'"),
        ("/etc/x.py", "the file name must be a plain name, without '/', '\\' or '..'"),
        ("a/b.py", "the file name must be a plain name, without '/', '\\' or '..'"),
        ("C:\\bots\\b.py", "the file name must be a plain name, without '/', '\\' or '..'"),
        ("x..py", "the file name must be a plain name, without '/', '\\' or '..'"),
        ("", "the file has no name"),
        ("   ", "the file has no name"),
        ("a" * 98 + ".py", "the file name is too long: at most 100 characters"),
        (
            "x\0.py",
            "the file name must be printable text, without control characters or spaces at its ends",
        ),
        (
            "x\x1b[2J.py",
            "the file name must be printable text, without control characters or spaces at its ends",
        ),
        (
            "x\n.py",
            "the file name must be printable text, without control characters or spaces at its ends",
        ),
        (
            " x.py",
            "the file name must be printable text, without control characters or spaces at its ends",
        ),
        (".bashrc.py", "the file name must not start with '-' or '.'"),
        ("-rf.py", "the file name must not start with '-' or '.'"),
    ],
)
def test_a_file_name_that_is_not_a_plain_name_is_refused(name: str, message: str) -> None:
    with pytest.raises(UploadRefused) as refused:
        check_upload(name, b"print(1)\n", RULES)
    assert str(refused.value) == message


def test_a_name_of_one_hundred_characters_is_accepted() -> None:
    assert check_upload("a" * 97 + ".py", b"print(1)\n", RULES) == "python"


@pytest.mark.parametrize(
    "name, message",
    [
        ("bot.rb", f"'.rb' files are not accepted: {ALLOWED}"),
        ("Player.java", f"'.java' files are not accepted: {ALLOWED}"),
        ("Makefile", f"a file without an ending is not accepted: {ALLOWED}"),
        ("bot.PY", f"'.PY' files are not accepted: {ALLOWED}"),
    ],
)
def test_a_language_not_allowed_is_refused_with_the_allowed_ones(name: str, message: str) -> None:
    with pytest.raises(UploadRefused) as refused:
        check_upload(name, b"puts 1\n", RULES)
    assert str(refused.value) == message


def test_a_language_arena_knows_is_refused_unless_the_contest_allows_it() -> None:
    rules = UploadRules(("python",))
    with pytest.raises(UploadRefused) as refused:
        check_upload("bot.cpp", b"int main() {}\n", rules)
    assert (
        str(refused.value)
        == "'.cpp' files are not accepted: the languages allowed are python (.py)"
    )


@pytest.mark.parametrize(
    "data, message",
    [
        (b"print(1)\n\xff\xfe\n", "the file is not text (UTF-8): upload one source file"),
        (b"print(1)\0\n", "the file is not text (it holds NUL bytes): upload one source file"),
        (
            b"\x7fELF\x02\x01\x01\0\0\0",
            "the file is not text (it holds NUL bytes): upload one source file",
        ),
        (b"", "the file is empty"),
        (b" \n\n", "the file is empty"),
    ],
)
def test_a_binary_or_empty_file_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(UploadRefused) as refused:
        check_upload("bot.py", data, RULES)
    assert str(refused.value) == message


def test_archives_are_refused_and_never_unpacked() -> None:
    # A gzip bomb: 10 MB of zeros gzipped twice (a few hundred bytes); refused by its
    # first bytes, never unpacked.
    bomb = gzip.compress(gzip.compress(b"\0" * 10_000_000))
    assert len(bomb) < 1000
    cases = [
        ("bot.py", zipped(), "zip"),
        ("bot.cpp", tarred()[:1000], "tar"),
        ("bot.py", bomb, "gzip"),
        ("bot.py.gz", bomb, "gzip"),
        ("bot.py", b"BZh91AY&SY" + b"x" * 20, "bzip2"),
        ("bot.py", b"\xfd7zXZ\x00\x00" + b"x" * 20, "xz"),
    ]
    for name, data, kind in cases:
        with pytest.raises(UploadRefused) as refused:
            check_upload(name, data, RULES)
        assert str(refused.value) == f"the file is an archive ({kind}): upload one source file"


def test_the_rate_counts_the_uploads_of_the_last_hour() -> None:
    check_rate(2, RULES)  # the third of the hour is accepted
    with pytest.raises(UploadRefused) as refused:
        check_rate(3, RULES)
    assert str(refused.value) == "too many uploads: at most 3 per hour; try again later"
