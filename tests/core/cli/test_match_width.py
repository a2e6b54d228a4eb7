"""``arena match`` fits its terminal (a real pseudo-terminal here): at 80 columns its game lines fold, its summary
leaves columns out (and says which), and its intervals read as the leaderboard's."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from support import REPO

BOTS = (f"{sys.executable} bots/stc/greedy.py", f"{sys.executable} bots/stc/random_bot.py")


def match(columns: int) -> list[str]:
    """``arena match``'s output on a real terminal (a pseudo-terminal) ``columns`` wide."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "arena", "match", "stc", *BOTS, "--games", "4", "--seed", "3",
             "--no-progress"],
            stdout=follower, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=300, env=env,
        )  # fmt: skip
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed: all read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert result.returncode == 0, result.stderr
    return b"".join(chunks).decode().replace("\r\n", "\n").splitlines()


def test_at_80_columns_every_line_fits_and_intervals_read_as_the_boards():
    lines = match(80)
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    games = [i for i, line in enumerate(lines) if line.startswith("game ")]
    assert len(games) == 4
    for i in games:  # the seats folded onto the line below, indented
        assert re.fullmatch(r"game \d seed \d, \d+ turns, .*:", lines[i]), lines[i]
        assert re.fullmatch(r"    \w+ #\d \(\d+\); \w+ #\d \(\d+\)", lines[i + 1]), lines[i + 1]
    header = next(line for line in lines if line.startswith("bot "))
    # the columns' widths follow the scores (random_bot's differ from run to run)
    assert re.fullmatch(
        r"bot +games  W/D/L  mean score \[95%\] +min +max +forfeits  max turn ms", header
    ), header
    rows = [line for line in lines if re.match(r"(greedy|random_bot)  ", line)]
    assert len(rows) == 2
    for row in rows:  # `485 [0-970]` as on the leaderboard, not `[0.00, 970.00]`
        assert re.search(r"  \d+(\.\d)? \[\d+-\d+\]  ", row), row
    assert "vs" in lines[-2] and lines[-1].startswith("  ")  # the match line folded


def test_at_50_columns_the_summary_says_what_it_left_out():
    lines = match(50)
    table = [line for line in lines if not line.startswith(("game ", "    ", "  "))]
    assert "(min, max, max turn ms left out to fit 50 columns)" in table
    header = next(line for line in lines if line.startswith("bot "))
    assert re.fullmatch(r"bot +games  W/D/L  mean score \[95%\] +forfeits", header), header
