"""Contest files: checked before anything starts, each problem one line naming the file, the
key and the line (exit 2 from ``arena serve``); the league's tournament file written from it."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from arena.contest.config import Boss, is_contest_file, load_contest
from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from support import REPO, run_arena

GOOD = """\
contest:
  name: Club contest
  game: stc
  settings: {max_turns: 20}
  output: out/club
  languages: [python, cpp]
  max_upload_kb: 50
  uploads_per_hour: 5
  keep_versions: 2
  sign_up: approve
  organisers: [Ada]
  invite: [bob, carol@example.org]
  bosses:
    - bots/stc/random_bot.py
    - {name: boss-greedy, cmd: python3 bots/stc/greedy.py}
  league: {concurrency: 1}
"""


@pytest.fixture(scope="module")
def registry() -> Any:
    return load_registry()


def write(folder: Path, text: str) -> Path:
    path = folder / "contest.yaml"
    path.write_text(text)
    return path


def test_a_good_file_loads(tmp_path: Path, registry: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    contest = load_contest(write(tmp_path, GOOD), registry)
    assert contest.name == "Club contest"
    assert contest.game == "stc"
    assert contest.settings == {"max_turns": 20}
    assert contest.languages == ("python", "cpp")
    assert contest.max_upload_bytes == 50 * 1024
    assert (contest.uploads_per_hour, contest.keep_versions) == (5, 2)
    assert contest.sign_up == "approve"
    assert contest.organisers == ("Ada",)
    assert contest.invite == ("bob", "carol@example.org")
    random_bot = str(REPO / "bots/stc/random_bot.py")
    greedy = str(REPO / "bots/stc/greedy.py")
    assert contest.bosses[1] == Boss("boss-greedy", shlex.join(["python3", greedy]))
    assert contest.bosses[0].name == "random_bot"
    assert random_bot in contest.bosses[0].cmd
    assert contest.output == Path("out/club")


def test_the_league_file_written(tmp_path: Path, registry: Any) -> None:
    text = GOOD.replace("output: out/club", f"output: {tmp_path / 'club'}")
    text = text.replace("bots/stc/", f"{REPO}/bots/stc/")
    contest = load_contest(write(tmp_path, text), registry)
    (tmp_path / "club").mkdir()
    path = contest.write_tournament()
    assert path == tmp_path / "club" / "tournament.yaml"
    league = yaml.safe_load(path.read_text())
    assert league == {
        "name": "Club contest",
        "game": "stc",
        "format": "contest",
        "settings": {"max_turns": 20},
        "output": str(tmp_path / "club"),
        "concurrency": 1,
        "bots": [
            {"name": "random_bot", "cmd": contest.bosses[0].cmd},
            {"name": "boss-greedy", "cmd": f"python3 {REPO}/bots/stc/greedy.py"},
        ],
    }


def test_detects_contest_files(tmp_path: Path) -> None:
    assert is_contest_file(write(tmp_path, GOOD))
    other = tmp_path / "t.yaml"
    other.write_text("game: stc\nbots: [{cmd: x}]\n")
    assert not is_contest_file(other)
    other.write_text(": : :\n")
    assert not is_contest_file(other)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("  keep_versions: 2\n", "  keep_version: 2\n"),
            "contest.keep_version (line 9): unknown key",
        ),
        (("  game: stc\n", "  game: nope\n"), "contest.game (line 3): "),
        (
            ("[python, cpp]", "[python, cobol]"),
            "contest.languages[1] (line 6): unknown language 'cobol'",
        ),
        (
            ("sign_up: approve", "sign_up: open"),
            "contest.sign_up (line 10): must be one of invite, approve, not 'open'",
        ),
        (
            ("max_upload_kb: 50", "max_upload_kb: 0"),
            "contest.max_upload_kb (line 7): must be a whole number from 1 to 10240, not 0",
        ),
        (
            ("  organisers: [Ada]\n", "  organisers: []\n"),
            "contest.organisers (line 11): must be a non-empty list",
        ),
        (
            ("[bob, carol@example.org]", "[bob, Bob]"),
            "contest.invite[1] (line 12): 'Bob' given twice",
        ),
        (
            ("[bob, carol@example.org]", "[bob, ada]"),
            "contest.invite[1] (line 12): 'ada' is an organiser already",
        ),
        (
            ("[bob, carol@example.org]", "[bob, '<script>']"),
            "contest.invite[1] (line 12): a name or e-mail address",
        ),
        (
            ("bots/stc/random_bot.py", "pyhton3 x.py"),
            "contest.bosses[0] (line 14): command not found: 'pyhton3'",
        ),
        (
            ("{concurrency: 1}", "{bots: []}"),
            "contest.league.bots (line 16): set by the contest itself",
        ),
        (
            ("{concurrency: 1}", "{concurency: 1}"),
            "contest.league.concurency (line 16): unknown tournament key",
        ),
        (
            ("{max_turns: 20}", "{max_turn: 20}"),
            "contest.settings.max_turn (line 4): unknown setting for stc",
        ),
    ],
)
def test_bad_keys_name_file_key_and_line(
    tmp_path: Path,
    registry: Any,
    monkeypatch: pytest.MonkeyPatch,
    change: tuple[str, str],
    message: str,
) -> None:
    monkeypatch.chdir(REPO)
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ConfigError) as caught:
        load_contest(path, registry)
    assert str(caught.value).startswith(f"{path}: {message}"), str(caught.value)


def test_missing_and_foreign_top_level_keys(tmp_path: Path, registry: Any) -> None:
    path = write(tmp_path, "contest:\n  game: stc\n")
    with pytest.raises(ConfigError, match=r"contest \(line 1\): missing key 'organisers'"):
        load_contest(path, registry)
    path = write(tmp_path, GOOD + "games: 3\n")
    with pytest.raises(ConfigError, match=r"games \(line 17\): unknown key \(a contest file"):
        load_contest(path, registry)


def test_serve_refuses_a_bad_contest_file_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("[python, cpp]", "[cobol]"))
    result = run_arena("serve", str(path), "--port", "0", timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith(f"arena: {path}: contest.languages[0] (line 6): ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
