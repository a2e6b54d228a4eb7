"""Text that came from a bot, made safe to store and to show.

A bot controls bytes arena turns into text: its answers, messages, stderr, the names of
the files it leaves. Two rules hold for all of it:

* :func:`safe_text` at the point the text is made: lone surrogates (a file name that is
  not UTF-8 comes back from ``os.listdir`` as surrogates) become backslash escapes, so
  the text always encodes as UTF-8 (the database, JSON files, the terminal);
* :func:`shown` where the text is printed: control characters (escape sequences that
  clear the screen, set the window title or write the clipboard) are shown escaped,
  ``\\x1b`` as the four characters ``\\x1b``; tab and newline are kept. Replay files keep
  the text as the bot gave it.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Control characters but tab and newline, and the Unicode controls that reorder or break
lines on a terminal (bidirectional overrides, line and paragraph separators)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with lone surrogates written as escapes (``\\xff`` for a byte that was not
    UTF-8): it always encodes as UTF-8."""
    return _SURROGATE.sub(_escape, text)


def shown(text: str) -> str:
    """``text`` ready for a terminal or a log: surrogates and control characters escaped,
    tab and newline kept."""
    return _CONTROL.sub(_escape, safe_text(text))


def shown_line(text: str) -> str:
    """:func:`shown` for text on one line: newlines escaped too."""
    return shown(text).replace("\n", "\\n")
