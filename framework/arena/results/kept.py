"""Ratings kept in the store as games are stored, so a leaderboard costs the same at a
thousand games and at a million.

:func:`on_game_stored` runs in the transaction that stores a game and adds it to
order-free counts (each bot's tallies and scores, each ordered pairing's results, the
seat-swapped pairs, the games of 3+ players by their pairs and points, response times in
0.01 ms bins): the fitted ratings (Bradley-Terry, Elo) are fitted on them when read.

Incremental ratings (TrueSkill, OpenSkill) depend on the order of the games, which is the
schedule's, not the order games end in: their state is kept up to a *checkpoint* in
schedule order, and the newest games after it (the *tail*, at most ``2 * TAIL`` of them)
are rated when the leaderboard is read. Games end a little out of order (several play at
once), so the checkpoint trails the newest game by :data:`TAIL` games; a game stored before
the checkpoint (a resumed run filling a gap) moves it back to the start, and the next
stored game rates everything again, once.

Anything else that changes which games count (``arena run --update`` removing games, a
tournament file that now defines other games, other variant keys, a one-player game,
whose results depend on its whole round) marks the kept counts invalid; they are built
again from the stored games by the next write or read that can write (an older store,
without these tables, too), and until then read from scratch. The figures are those of
:func:`arena.results.rating.compute` on the same games (``tests/core/results/test_kept.py``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from arena.records import SeatRecord, StoredGame
from arena.results import history, ratings
from arena.results import rating as rt
from arena.results import stats as st
from arena.results.turn_times import unpack_times

TAIL = 100
"""Newest games (in schedule order) left after the checkpoint; rated on every read."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS kept_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kept_bots (
    bot TEXT PRIMARY KEY, games INTEGER NOT NULL, wins INTEGER NOT NULL,
    draws INTEGER NOT NULL, losses INTEGER NOT NULL, rank_sum REAL NOT NULL,
    late INTEGER NOT NULL, forfeits TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS kept_scores (
    bot TEXT NOT NULL, scope INTEGER NOT NULL, variant TEXT NOT NULL, n INTEGER NOT NULL,
    total REAL NOT NULL, m2 REAL NOT NULL, low REAL NOT NULL, high REAL NOT NULL,
    PRIMARY KEY (bot, scope, variant)
);
CREATE TABLE IF NOT EXISTS kept_pairs (
    a TEXT NOT NULL, b TEXT NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL,
    losses INTEGER NOT NULL, PRIMARY KEY (a, b)
);
CREATE TABLE IF NOT EXISTS kept_ptnml (
    a TEXT NOT NULL, b TEXT NOT NULL, counts TEXT NOT NULL, PRIMARY KEY (a, b)
);
CREATE TABLE IF NOT EXISTS kept_halves (
    pid TEXT NOT NULL, first TEXT NOT NULL, points REAL NOT NULL, PRIMARY KEY (pid, first)
);
CREATE TABLE IF NOT EXISTS kept_multi (pattern TEXT PRIMARY KEY, count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS kept_times (
    bot TEXT NOT NULL, ms REAL NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (bot, ms)
);
"""
TABLES = (
    "kept_bots", "kept_scores", "kept_pairs", "kept_ptnml", "kept_halves", "kept_multi",
    "kept_times",
)  # fmt: skip
OVERALL, VARIANT = 0, 1  # kept_scores.scope
CURRENT_COLUMNS = (
    "g.id, g.key, s.ord, s.round, s.grp, g.game, g.seed, g.reason, g.turns,"
    " g.duration_ms, g.dir, g.settings"
)
CURRENT = (
    f"SELECT {CURRENT_COLUMNS} FROM games g JOIN current_games s"
    " ON s.key = g.key AND s.identity_hash = g.identity_hash"
)
"""The current games (as :meth:`Store.games` reads them), before any WHERE or ORDER."""
ORDER = " ORDER BY s.round, s.ord, g.id"
HISTORY = 1
"""The kept rating history's version (kept_meta ``history``): counts kept without it, or
with another, are built again."""


def ensure(db: sqlite3.Connection) -> None:
    """Create the kept tables (empty and invalid until built) if missing, inside the
    caller's transaction (no ``executescript``: it would commit)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    history.ensure(db)


def has_tables(db: sqlite3.Connection) -> bool:
    """Whether the store has the kept tables."""
    return bool(db.execute("SELECT 1 FROM sqlite_master WHERE name = 'kept_meta'").fetchone())


def _get(db: sqlite3.Connection, key: str) -> Any:
    row = db.execute("SELECT value FROM kept_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else json.loads(row[0])


def _set(db: sqlite3.Connection, key: str, value: Any) -> None:
    db.execute(
        "INSERT OR REPLACE INTO kept_meta(key, value) VALUES (?, ?)", (key, json.dumps(value))
    )


def _variant_keys(db: sqlite3.Connection) -> list[str]:
    row = db.execute("SELECT value FROM meta WHERE key = 'variant_keys'").fetchone()
    return list(json.loads(row[0]) or []) if row else []


def is_valid(db: sqlite3.Connection) -> bool:
    """Whether the kept counts hold exactly the current games (with today's variant keys),
    their rating history too (counts kept by an arena before it are built again)."""
    return bool(
        has_tables(db)
        and _get(db, "valid")
        and _get(db, "history") == HISTORY
        and _get(db, "variant_keys") == _variant_keys(db)
    )


def invalidate(db: sqlite3.Connection) -> None:
    """Mark the kept counts stale (built again by the next write or writable read)."""
    if has_tables(db):
        _set(db, "valid", False)


def current_digest(rows: Iterable[tuple[str, int, int, str, str]]) -> int:
    """An order-free digest of the current games (key, ord, round, group, identity hash):
    :meth:`Store.set_current` compares it to see whether the list changed."""
    total = 0
    for key, order, round_, group, digest in rows:
        text = f"{key}\0{order}\0{round_}\0{group}\0{digest}".encode()
        total += int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")
    return total % (1 << 64)


def on_set_current(db: sqlite3.Connection, rows: Sequence[tuple[str, int, int, str, str]]) -> None:
    """The tournament file now defines the games ``rows``: the counts hold while that is
    the list they were kept for (a resumed run), else they are built again."""
    if not is_valid(db):
        return
    if _get(db, "digest") != str(current_digest(rows)):
        invalidate(db)


def on_game_stored(
    db: sqlite3.Connection, game_id: int, row: tuple[str, int, int, str, str], replaced: bool
) -> None:
    """Count the game ``game_id`` just stored (its current-games ``row``), in the caller's
    transaction. ``replaced``: its key was current with another game, which no longer
    counts: the counts are built again."""
    on_games_stored(db, [game_id], [row], replaced)


def on_games_stored(
    db: sqlite3.Connection,
    game_ids: Sequence[int],
    rows: Sequence[tuple[str, int, int, str, str]],
    replaced: bool,
) -> None:
    """Count the games ``game_ids`` just stored (their current-games ``rows``) at once, in
    the caller's transaction (see :func:`on_game_stored`)."""
    if not has_tables(db):
        ensure(db)
    if replaced or not is_valid(db):
        rebuild(db)
        return
    games = [g for chunk in _by_ids(db, game_ids) for g in chunk]
    if len(games) != len(game_ids) or any(len(g.seats) < 2 for g in games):
        rebuild(db)  # a one-player game: its round's ranks move with every game of it
        return
    delta = _Delta(db, _variant_keys(db))
    for g in games:
        delta.add(g)
    delta.write()
    _set(db, "games", int(_get(db, "games") or 0) + len(games))
    digest = int(_get(db, "digest") or 0) + current_digest(rows)
    _set(db, "digest", str(digest % (1 << 64)))
    checkpoint = _get(db, "checkpoint")
    if checkpoint is not None and any([g.round, g.ord, g.id] < checkpoint for g in games):
        _set(db, "checkpoint", None)  # stored before the checkpoint: rate everything again
        _set(db, "states", {})
        history.clear(db)
        _set(db, "tail", int(_get(db, "games")))
    else:
        _set(db, "tail", int(_get(db, "tail") or 0) + len(games))
    _advance(db)


def rebuild(db: sqlite3.Connection) -> None:
    """Build the kept counts from the current games, in the caller's transaction (read
    :data:`CHUNK` games at a time: a million games fit in little memory)."""
    ensure(db)
    for table in TABLES:
        db.execute(f"DELETE FROM {table}")
    history.clear(db)
    keys = _variant_keys(db)
    (games,) = db.execute(CURRENT.replace(CURRENT_COLUMNS, "COUNT(*)")).fetchone()
    _set(db, "variant_keys", keys)
    _set(db, "checkpoint", None)
    _set(db, "states", {})
    _set(db, "games", games)
    _set(db, "tail", games)
    one_player = CURRENT.replace(CURRENT_COLUMNS, "1") + " WHERE g.players < 2 LIMIT 1"
    if db.execute(one_player).fetchone():
        _set(db, "valid", False)  # one-player games: read from scratch
        return
    for chunk in _chunks_after(db, None):
        delta = _Delta(db, keys)
        for g in chunk:
            delta.add(g)
        delta.write()
    rows = db.execute("SELECT key, ord, round, grp, identity_hash FROM current_games")
    _set(db, "digest", str(current_digest(rows)))
    _set(db, "history", HISTORY)
    _set(db, "valid", True)
    _advance(db)


def _advance(db: sqlite3.Connection) -> None:
    """Rate the tail's oldest games into the kept states once the tail is over ``2 TAIL``."""
    tail = int(_get(db, "tail") or 0)
    if tail <= 2 * TAIL:
        return
    states = _get(db, "states") or {}
    keys = _variant_keys(db)
    points = history.Recorder(db, int(_get(db, "games") or 0) - tail)
    last: StoredGame | None = None
    rated = 0
    for chunk in _chunks_after(db, _get(db, "checkpoint"), tail - TAIL):
        evs = rt.events(chunk, keys)
        for r in ratings.everyone():
            if isinstance(r, ratings.IncrementalRating):
                after = points.after if r is history.trueskill() else None
                states[r.name] = ratings.rate_events(r, evs, states.get(r.name), after)
        rated += len(chunk)
        points.offset += len(chunk)
        last = chunk[-1]
    points.flush()
    if last is None:
        return
    _set(db, "states", states)
    _set(db, "checkpoint", [last.round, last.ord, last.id])
    _set(db, "tail", tail - rated)


CHUNK = 5000
"""Games read at once when the kept counts are built or advanced."""


def _chunks_after(
    db: sqlite3.Connection, checkpoint: list[int] | None, limit: int | None = None
) -> Iterator[list[StoredGame]]:
    """The current games after ``checkpoint`` in schedule order (all without one), at most
    ``limit`` of them, :data:`CHUNK` at a time: ranges of the schedule index, read on."""
    left = -1 if limit is None else limit
    after = checkpoint
    while left != 0:
        size = CHUNK if left < 0 else min(CHUNK, left)
        if after is None:
            found = _read_games(db, "", (), size)
        else:
            found = _read_games(
                db,
                " WHERE (s.round, s.ord) >= (?, ?) AND (s.round, s.ord, g.id) > (?, ?, ?)",
                (*after[:2], *after),
                size,
            )
        if not found:
            return
        yield found
        left -= len(found)
        last = found[-1]
        after = [last.round, last.ord, last.id]


def _games_after(db: sqlite3.Connection, checkpoint: list[int] | None) -> list[StoredGame]:
    """Every current game after ``checkpoint`` in schedule order (all without one)."""
    return [g for chunk in _chunks_after(db, checkpoint) for g in chunk]


def _by_ids(db: sqlite3.Connection, ids: Sequence[int]) -> Iterator[list[StoredGame]]:
    """The current games of ``ids`` (in schedule order within each chunk of ids)."""
    for i in range(0, len(ids), 500):
        chunk = list(ids[i : i + 500])
        yield _read_games(db, f" WHERE g.id IN ({', '.join('?' * len(chunk))})", tuple(chunk))


def _read_games(
    db: sqlite3.Connection, where: str, args: tuple[Any, ...], limit: int | None = None
) -> list[StoredGame]:
    """Current games matching ``where`` (the first ``limit``), seats included (no text
    fields), in schedule order."""
    query = CURRENT + where + ORDER + ("" if limit is None else f" LIMIT {int(limit)}")
    rows = db.execute(query, args).fetchall()
    seats: dict[int, list[SeatRecord]] = {r[0]: [] for r in rows}
    timed = "late" in {row[1] for row in db.execute("PRAGMA table_info(seats)")}
    columns = "game_id, bot, rank, score, forfeit, " + ("late, turn_ms" if timed else "0, NULL")
    ids = list(seats)
    chunks = [ids[i : i + 500] for i in range(0, len(ids), 500)]
    found: Iterable[Any] = (
        row
        for chunk in chunks
        for row in db.execute(
            f"SELECT {columns} FROM seats WHERE game_id IN ({', '.join('?' * len(chunk))})"
            " ORDER BY game_id, seat",
            chunk,
        )
    )
    for gid, bot, rank, score, forfeit, late, blob in found:
        times = list(unpack_times(blob))
        seats[gid].append(SeatRecord(bot, rank, score, forfeit, late=late, turn_ms=times))
    return [
        StoredGame(
            id=r[0], key=r[1], ord=r[2], round=r[3], group=r[4], game=r[5], seed=r[6],
            reason=r[7], turns=r[8], duration_ms=r[9], dir=r[10], seats=tuple(seats[r[0]]),
            settings=json.loads(r[11]),
        )
        for r in rows
    ]  # fmt: skip


class _Delta:
    """The counts of some games (each of two or more seats), added to the kept tables at
    once by :meth:`write`: a game alone as it is stored, or thousands when the counts are
    built."""

    def __init__(self, db: sqlite3.Connection, variant_keys: Sequence[str]) -> None:
        self.db = db
        self.keys = variant_keys
        self.counts = rt.Counts()
        self.late: dict[str, int] = {}
        self.bins: dict[tuple[str, float], int] = {}
        self.halves: dict[str, dict[str, float]] = {}  # pair id -> first bot -> its points
        self.ptnml: dict[tuple[str, str], list[int]] = {}

    def add(self, g: StoredGame) -> None:
        """Count one game."""
        (event,) = rt.events([g], self.keys)
        self.counts.add_event(event)
        for s in g.seats:
            self.late[s.bot] = self.late.get(s.bot, 0) + s.late
            for ms in s.turn_ms:
                key = (s.bot, round(ms, 2))
                self.bins[key] = self.bins.get(key, 0) + 1
        self._add_half(g)

    def _add_half(self, g: StoredGame) -> None:
        """Count a two-bot game as half of its seat-swapped pair, as
        :func:`arena.results.rating.pentanomials` does (the latest game of each seating
        counts)."""
        bots = tuple(s.bot for s in g.seats)
        if len(bots) != 2 or bots[0] == bots[1]:
            return
        pid = json.dumps(rt.pair_id(g.round, g.settings, bots))
        a, b = sorted(bots)
        points = rt.pair_points(g.seats, a)
        halves = self.halves.get(pid)
        if halves is None:
            found = self.db.execute("SELECT first, points FROM kept_halves WHERE pid = ?", (pid,))
            halves = self.halves[pid] = dict(found)
        me, other = bots
        if other in halves:  # the pair is complete
            counts = self.ptnml.setdefault((a, b), [0] * 5)
            if me in halves:  # it was already, with an earlier game of this seating
                counts[round(2 * (halves[me] + halves[other]))] -= 1
            counts[round(2 * (points + halves[other]))] += 1
        halves[me] = points

    def write(self) -> None:
        """Add the counts to the kept tables."""
        db = self.db
        for bot, bs in self.counts.stats.items():
            self._write_bot(bs, self.late.get(bot, 0))
            self._write_score(bot, OVERALL, "", bs.scores)
            for variant, m in bs.variant_scores.items():
                self._write_score(bot, VARIANT, variant, m)
        db.executemany(
            "INSERT INTO kept_pairs(a, b, wins, draws, losses) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(a, b) DO UPDATE SET wins = wins + excluded.wins,"
            " draws = draws + excluded.draws, losses = losses + excluded.losses",
            [(a, b, pw.wins, pw.draws, pw.losses) for (a, b), pw in self.counts.pairs.items()],
        )
        db.executemany(
            "INSERT INTO kept_multi(pattern, count) VALUES (?, ?)"
            " ON CONFLICT(pattern) DO UPDATE SET count = count + excluded.count",
            [(json.dumps(pattern), n) for pattern, n in self.counts.multi.items()],
        )
        for (a, b), delta in self.ptnml.items():
            row = db.execute("SELECT counts FROM kept_ptnml WHERE a = ? AND b = ?", (a, b))
            found = row.fetchone()
            counts = json.loads(found[0]) if found else [0] * 5
            counts = [x + d for x, d in zip(counts, delta, strict=True)]
            db.execute(
                "INSERT OR REPLACE INTO kept_ptnml(a, b, counts) VALUES (?, ?, ?)",
                (a, b, json.dumps(counts)),
            )
        db.executemany(
            "INSERT OR REPLACE INTO kept_halves(pid, first, points) VALUES (?, ?, ?)",
            [(pid, first, p) for pid, halves in self.halves.items() for first, p in halves.items()],
        )
        db.executemany(
            "INSERT INTO kept_times(bot, ms, count) VALUES (?, ?, ?)"
            " ON CONFLICT(bot, ms) DO UPDATE SET count = count + excluded.count",
            [(bot, ms, n) for (bot, ms), n in self.bins.items()],
        )

    def _write_bot(self, bs: rt.BotStats, late: int) -> None:
        row = self.db.execute("SELECT forfeits FROM kept_bots WHERE bot = ?", (bs.name,))
        found = row.fetchone()
        forfeits = json.loads(found[0]) if found else dict.fromkeys(rt.REASONS, 0)
        for k, n in bs.forfeits.items():
            forfeits[k] = forfeits.get(k, 0) + n
        self.db.execute(
            "INSERT INTO kept_bots(bot, games, wins, draws, losses, rank_sum, late, forfeits)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(bot) DO UPDATE SET"
            " games = games + excluded.games, wins = wins + excluded.wins,"
            " draws = draws + excluded.draws, losses = losses + excluded.losses,"
            " rank_sum = rank_sum + excluded.rank_sum, late = late + excluded.late,"
            " forfeits = excluded.forfeits",
            (bs.name, bs.games, bs.wins, bs.draws, bs.losses, bs.rank_sum, late,
             json.dumps(forfeits)),
        )  # fmt: skip

    def _write_score(self, bot: str, scope: int, variant: str, added: st.Moments) -> None:
        row = self.db.execute(
            "SELECT n, total, m2, low, high FROM kept_scores WHERE bot = ? AND scope = ?"
            " AND variant = ?",
            (bot, scope, variant),
        ).fetchone()
        m = st.Moments(*row) if row else st.Moments()
        m.merge(added)
        self.db.execute(
            "INSERT OR REPLACE INTO kept_scores(bot, scope, variant, n, total, m2, low, high)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (bot, scope, variant, m.n, m.total, m.m2, m.low, m.high),
        )


Percentiles = dict[str, tuple[float | None, float | None, float | None]]
"""Each bot's response time (ms) at the median, the 99th percentile and the maximum."""


class Kept:
    """What the leaderboard reads of the kept counts: everything but the games."""

    def __init__(
        self,
        counts: rt.Counts,
        states: dict[str, dict[str, Any]],
        games: int,
        late: dict[str, int],
        times: dict[str, list[tuple[float, int]]],
        history: history.Points | None = None,
        fit_key: str = "",
        fitted: rt.Fitted | None = None,
        percentiles: Percentiles | None = None,
    ) -> None:
        self.counts = counts
        self.states = states  # every incremental rating's state after every current game
        self.games = games  # current games
        self.late = late
        self.times = times  # each bot's response times: (ms to 0.01, how many), ascending
        self.history = history  # each bot's TrueSkill mu over the games, when asked for
        self.fit_key = fit_key  # what the fitted ratings were fitted on (see fitted_key)
        self.fitted = fitted  # the fitted ratings of these counts, when kept
        # each bot's response time at the median, 99th percentile and maximum, when kept
        # with the fitted ratings (then ``times`` is not read: a thousand bots have up to
        # millions of bins)
        self.percentiles = percentiles


def read(db: sqlite3.Connection, bots: Sequence[str], with_history: bool = False) -> Kept | None:
    """The kept counts and ratings of the current games (the bots of ``bots`` first), the
    tail rated now (and ``with_history``, the rating history); ``None`` when they are not
    valid (read from scratch then)."""
    if not is_valid(db):
        return None
    counts = rt.Counts()
    for b in bots:
        counts.bot(b)
    late: dict[str, int] = {}
    for bot, games, wins, draws, losses, rank_sum, late_n, forfeits in db.execute(
        "SELECT bot, games, wins, draws, losses, rank_sum, late, forfeits FROM kept_bots"
        " ORDER BY rowid"
    ):
        bs = counts.bot(bot)
        bs.games, bs.wins, bs.draws, bs.losses, bs.rank_sum = games, wins, draws, losses, rank_sum
        bs.forfeits.update(json.loads(forfeits))
        late[bot] = late_n
    for bot, scope, variant, n, total, m2, low, high in db.execute(
        "SELECT bot, scope, variant, n, total, m2, low, high FROM kept_scores ORDER BY rowid"
    ):
        m = st.Moments(n, total, m2, low, high)
        if scope == OVERALL:
            counts.bot(bot).scores = m
        else:
            counts.bot(bot).variant_scores[variant] = m
    results = db.execute("SELECT a, b, wins, draws, losses FROM kept_pairs ORDER BY rowid")
    found = db.execute("SELECT a, b, counts FROM kept_ptnml ORDER BY rowid").fetchall()
    # one JSON text for every pairing's pairs: a decode per pairing would cost more
    decoded = json.loads(f"[{','.join(text for _, _, text in found)}]")
    ptnml = {(a, b): c for (a, b, _), c in zip(found, decoded, strict=True)}
    counts.pairs = rt.StoredPairs(results.fetchall(), ptnml)
    for pattern, n in db.execute("SELECT pattern, count FROM kept_multi ORDER BY rowid"):
        counts.multi[tuple((a, b, p) for a, b, p in json.loads(pattern))] = n
    counts.finish()
    states = _get(db, "states") or {}
    evs = rt.events(_games_after(db, _get(db, "checkpoint")), _variant_keys(db))
    points = _history(db, bots, evs, states.get(history.trueskill().name)) if with_history else None
    for r in ratings.everyone():
        if isinstance(r, ratings.IncrementalRating):
            states[r.name] = ratings.rate_events(r, evs, states.get(r.name))
    key = fitted_key(db, list(counts.stats))
    cache = _get(db, "fitted")
    if not cache or cache.get("key") != key:
        cache = {}  # fitted on other games
    percentiles = cache.get("times")
    times: dict[str, list[tuple[float, int]]] = {}
    if percentiles is None:
        for bot, ms, n in db.execute("SELECT bot, ms, count FROM kept_times ORDER BY bot, ms"):
            times.setdefault(bot, []).append((ms, n))
    else:
        percentiles = {bot: tuple(p) for bot, p in percentiles.items()}
    return Kept(counts, states, int(_get(db, "games") or 0), late, times, points, key,
                _fitted(cache), percentiles)  # fmt: skip


def read_history(db: sqlite3.Connection, bots: Sequence[str]) -> history.Points | None:
    """:func:`read`'s rating history alone, without reading the counts (a thousand bots'
    half a million pairings); ``None`` when the kept counts are not valid."""
    if not is_valid(db):
        return None
    states = _get(db, "states") or {}
    evs = rt.events(_games_after(db, _get(db, "checkpoint")), _variant_keys(db))
    return _history(db, bots, evs, states.get(history.trueskill().name))


FIT = 1
"""The fitted ratings' version in their cache (raise it when a fit's figures change)."""


def fitted_key(db: sqlite3.Connection, bots: Sequence[str]) -> str:
    """What the fitted ratings of the kept counts depend on: the current games (their
    number and digest) and the bots, in order."""
    return json.dumps([FIT, _get(db, "games"), _get(db, "digest"), list(bots)])


def _fitted(found: dict[str, Any]) -> rt.Fitted | None:
    """The fitted ratings kept in ``found`` (``None`` when it is empty)."""
    if not found:
        return None
    return {
        name: {bot: ratings.Rated(*fields) for bot, fields in by_bot.items()}
        for name, by_bot in found["ratings"].items()
    }


def keep_fitted(
    db: sqlite3.Connection, key: str, fitted: rt.Fitted, percentiles: Percentiles | None = None
) -> None:
    """Keep ``fitted`` (fitted on the counts of ``key``), and the bots' response-time
    ``percentiles``, until other games count, in the caller's transaction: the next
    leaderboard of the same games fits nothing and reads no bins."""
    if fitted_key(db, json.loads(key)[3]) != key:
        return  # games were stored meanwhile
    by_name = {
        name: {bot: [r.value, r.numbers, r.cells, r.raw] for bot, r in by_bot.items()}
        for name, by_bot in fitted.items()
    }
    kept: dict[str, Any] = {"key": key, "ratings": by_name}
    if percentiles is not None:
        kept["times"] = percentiles
    _set(db, "fitted", kept)


def _history(
    db: sqlite3.Connection,
    bots: Sequence[str],
    tail: list[list[rt.Entry]],
    state: dict[str, Any] | None,
) -> history.Points:
    """The kept rating history and the ``tail``'s events rated from the kept ``state`` (a
    copy), bots in the order :func:`arena.results.history.from_events` gives them when it
    rates every game: ``bots``, then the others by name."""
    kept = history.read(db)
    prior = [(0, history.trueskill().centre({}, ""))]
    others = (set(kept) | {e.bot for event in tail for e in event}) - set(bots)
    seeded = {b: kept.get(b, list(prior)) for b in [*bots, *sorted(others)]}
    rated = int(_get(db, "games") or 0) - int(_get(db, "tail") or 0)
    state = json.loads(json.dumps(state or {}))
    return history.from_events([], tail, state, rated, seeded)
