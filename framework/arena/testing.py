"""The conformance kit: the checks arena runs on every game, for any game plugin's tests.

One line in a plugin's tests runs them all::

    from arena.testing import check_game

    def test_my_game_conforms():
        check_game(MyGame, bad_settings=[{"size": 0}, {"size": 10**12}])

It checks that random playthroughs (the game's own
:meth:`~arena.game.Game.random_answer`) end and make sense, that the same seed and answers
replay identically, that a forfeiting seat ranks last, that views are JSON and prompts
end in newlines, that bad settings are refused with :class:`~arena.errors.InvalidSetting`
before any game, and that answers fuzzed with hypothesis never make
:meth:`~arena.game.Game.interpret` raise anything but
:class:`~arena.errors.InvalidAnswer` or :class:`~arena.errors.IllegalMove`. Each check is
also a function of its own. A failure is an :class:`AssertionError` naming the game, the
seed and what went wrong. Fuzzing needs hypothesis (``pip install 'bot-arena[testing]'``).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.errors import AnswerError, ConfigError
from arena.game import FileTransport, Game, Ignore, Incomplete, Move, Outcome, Reply
from arena.referee.external import helper_scope
from arena.referee.framing import C_SPACE

MAX_STEPS = 20_000
"""A random game still running after this many steps fails the check: it may never end."""
FUZZ_STATES = 40
"""Positions of a random game that fuzzed answers are tried in."""
SWEEP_STATES = 8
"""Positions where every hostile token is tried alone and in place of each legal token."""

GameLike = type[Game[Any]] | Game[Any]


@dataclass
class Playthrough:
    """Every step's prompts and answers of one game, and how it ended."""

    seed: int
    players: int
    settings: dict[str, Any]
    prompts: list[dict[int, str]] = field(default_factory=list)
    answers: list[dict[int, str]] = field(default_factory=list)
    views: list[Any] = field(default_factory=list)
    outcome: Outcome | None = None
    turns: int = 0


def _instance(game: GameLike) -> Game[Any]:
    return game() if isinstance(game, type) else game


def _name(game: Game[Any]) -> str:
    return str(getattr(getattr(game, "info", None), "id", type(game).__name__))


def _check_outcome(gid: str, outcome: Any, players: int) -> None:
    assert isinstance(outcome, Outcome), f"{gid}: outcome() returned {outcome!r}"
    assert len(outcome.ranks) == players == len(outcome.scores), (
        f"{gid}: outcome has {len(outcome.ranks)} ranks and {len(outcome.scores)} scores "
        f"for {players} players"
    )
    assert all(isinstance(r, int) and 0 <= r < players for r in outcome.ranks), (
        f"{gid}: ranks {outcome.ranks} are not places 0..{players - 1}"
    )
    assert min(outcome.ranks) == 0, f"{gid}: nobody ranks first in {outcome.ranks}"
    assert all(math.isfinite(float(s)) for s in outcome.scores), f"{gid}: scores {outcome.scores}"


def _json(gid: str, what: str, value: Any) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{gid}: {what} is not JSON: {exc}") from None


def playthrough(
    game: GameLike,
    seed: int,
    players: int,
    settings: Mapping[str, Any],
    rng: random.Random,
) -> Playthrough:
    """Play one game with random legal answers, checking every step; raise AssertionError.

    Checks: the seats to act are valid, prompts are text (ending in a newline for line
    protocols), clocks are positive, views and action views are JSON, every random
    answer is a :class:`~arena.game.Move`, the game ends within :data:`MAX_STEPS` steps,
    and its outcome ranks every seat.
    """
    game = _instance(game)
    gid = _name(game)
    lines = not isinstance(game.info.transport, FileTransport)
    merged = {**game.info.settings, **settings}
    state = game.start(seed, players, merged)
    record = Playthrough(seed, players, merged)
    first = [True] * players
    while seats := list(game.to_act(state)):
        where = f"{gid} (seed {seed}, {players} players, step {len(record.prompts) + 1})"
        assert len(record.prompts) < MAX_STEPS, f"{gid}: no end after {MAX_STEPS} steps"
        assert len(set(seats)) == len(seats) and all(
            isinstance(s, int) and 0 <= s < players for s in seats
        ), f"{where}: bad seats to act {seats}"
        prompts, answers, moves = {}, {}, {}
        for seat in seats:
            prompt = game.prompt(state, seat)
            assert isinstance(prompt, str), f"{where}: prompt is {type(prompt).__name__}"
            if lines:
                assert prompt == "" or prompt.endswith("\n"), (
                    f"{where}: prompt for seat {seat} does not end in a newline: {prompt[-40:]!r}"
                )
            ms = game.clock_ms(state, seat, first[seat])
            first[seat] = False
            assert isinstance(ms, int) and ms > 0, f"{where}: clock_ms is {ms!r}"
            prompts[seat] = prompt
            answers[seat] = game.random_answer(state, seat, rng)
            try:
                answer = game.interpret(state, seat, answers[seat])
            except AnswerError as exc:
                raise AssertionError(f"{where}: random_answer was refused: {exc}") from None
            assert isinstance(answer, Move), (
                f"{where}: random_answer gave a non-move {answers[seat]!r} ({answer!r})"
            )
            _json(gid, f"{where}: action_view({answer.action!r})", game.action_view(answer.action))
            moves[seat] = answer.action
        record.prompts.append(prompts)
        record.answers.append(answers)
        state = game.apply(state, moves)
        record.views.append(
            _json(gid, f"view() after step {len(record.prompts)}", game.view(state))
        )
        assert isinstance(game.render(state), str), f"{gid}: render() is not text"
    record.outcome = game.outcome(state)
    _check_outcome(gid, record.outcome, players)
    record.turns = game.turn_number(state)
    return record


def replay(game: GameLike, recorded: Playthrough) -> Playthrough:
    """Play ``recorded``'s answers again from its seed, recording the prompts anew."""
    game = _instance(game)
    state = game.start(recorded.seed, recorded.players, recorded.settings)
    again = Playthrough(recorded.seed, recorded.players, recorded.settings)
    for answers in recorded.answers:
        seats = list(game.to_act(state))
        assert sorted(seats) == sorted(answers), (
            f"{_name(game)} (seed {recorded.seed}): step {len(again.prompts) + 1} asks seats "
            f"{seats} on replay, {sorted(answers)} the first time"
        )
        again.prompts.append({seat: game.prompt(state, seat) for seat in seats})
        again.answers.append(dict(answers))
        moves = {}
        for seat in seats:
            answer = game.interpret(state, seat, answers[seat])
            assert isinstance(answer, Move)
            moves[seat] = answer.action
        state = game.apply(state, moves)
        again.views.append(json.loads(json.dumps(game.view(state))))
    assert not game.to_act(state), "the replayed game did not end where the original did"
    again.outcome = game.outcome(state)
    again.turns = game.turn_number(state)
    return again


def check_replays(
    game: GameLike, seed: int, players: int, settings: Mapping[str, Any] | None = None
) -> Playthrough:
    """A random game, then the same seed and answers again: the same seats act, and every
    prompt, view and the outcome are identical (all randomness comes from the seed)."""
    game = _instance(game)
    gid = _name(game)
    # The global generator is seeded differently for each run, so that a game drawing
    # from it (not from its seed) is caught every time, not only when two draws differ.
    saved = random.getstate()
    try:
        random.seed(f"{gid} first run")
        with helper_scope(None):
            first = playthrough(game, seed, players, settings or {}, random.Random(seed))
        random.seed(f"{gid} replay")
        return _replay(type(game)(), gid, first, seed, players)
    finally:
        random.setstate(saved)


def _replay(again: Game[Any], gid: str, first: Playthrough, seed: int, players: int) -> Playthrough:
    """Play ``first``'s answers again from the same seed; every prompt, view and the
    outcome must be what they were (see :func:`check_replays`)."""
    with helper_scope(None):
        state = again.start(seed, players, first.settings)
        for step, (prompts, answers) in enumerate(
            zip(first.prompts, first.answers, strict=True), start=1
        ):
            where = f"{gid} (seed {seed}): step {step}"
            seats = list(again.to_act(state))
            assert sorted(seats) == sorted(answers), (
                f"{where} asks seats {seats} on replay, {sorted(answers)} the first time"
            )
            moves = {}
            for seat in seats:
                prompt = again.prompt(state, seat)
                assert prompt == prompts[seat], (
                    f"{where} prompt for seat {seat} differs on replay (randomness not from "
                    f"the seed?):\n{prompts[seat][:300]!r}\n{prompt[:300]!r}"
                )
                answer = again.interpret(state, seat, answers[seat])
                assert isinstance(answer, Move), f"{where}: {answers[seat]!r} is no move now"
                moves[seat] = answer.action
            state = again.apply(state, moves)
            view = _json(gid, f"view() after step {step}", again.view(state))
            assert view == first.views[step - 1], f"{where}: the view differs on replay"
        assert not again.to_act(state), f"{gid} (seed {seed}): the replay goes on after the end"
        outcome = again.outcome(state)
    assert outcome == first.outcome, (
        f"{gid} (seed {seed}): outcome {first.outcome} then {outcome} on replay"
    )
    return first


def _play_on(game: Game[Any], state: Any, rng: random.Random) -> Any:
    steps = 0
    while seats := list(game.to_act(state)):
        steps += 1
        assert steps < MAX_STEPS, f"{_name(game)}: no end after {MAX_STEPS} steps"
        moves = {}
        for s in seats:
            answer = game.interpret(state, s, game.random_answer(state, s, rng))
            assert isinstance(answer, Move)
            moves[s] = answer.action
        state = game.apply(state, moves)
    return state


def check_forfeit_ranks_last(
    game: GameLike, seed: int, players: int, settings: Mapping[str, Any] | None = None
) -> None:
    """A seat eliminated on its first turn, and one eliminated half-way through a game,
    never acts again and ranks below every seat that did not forfeit."""
    game = _instance(game)
    gid = _name(game)
    merged = {**game.info.settings, **(settings or {})}
    with helper_scope(None):
        length = len(playthrough(game, seed, players, merged, random.Random(seed)).prompts)
    for after in sorted({0, length // 2}):
        with helper_scope(None):
            rng = random.Random(seed)
            state = game.start(seed, players, merged)
            for _ in range(after):  # play the same random game up to the forfeit
                seats = list(game.to_act(state))
                moves = {}
                for s in seats:
                    answer = game.interpret(state, s, game.random_answer(state, s, rng))
                    assert isinstance(answer, Move)
                    moves[s] = answer.action
                state = game.apply(state, moves)
            seats = list(game.to_act(state))
            if not seats:
                continue
            seat = seats[0]
            where = f"{gid} (seed {seed}, {players} players, seat {seat} out at step {after + 1})"
            state = game.eliminate(state, seat)
            assert seat not in game.to_act(state), f"{where}: the seat is asked to act again"
            state = _play_on(game, state, rng)
            outcome = game.outcome(state)
            _check_outcome(gid, outcome, players)
            others = [r for i, r in enumerate(outcome.ranks) if i != seat]
            # A game ranking forfeits itself (Outcome.forfeits_ranked) may tie the seat with
            # the last of the others; never above any of them.
            mine, tie = outcome.ranks[seat], outcome.forfeits_ranked
            assert all(mine > r or (tie and mine == r) for r in others), (
                f"{where}: the forfeiting seat ranks {outcome.ranks[seat]}, others {others}"
            )


def check_settings_accepted(
    game: GameLike, settings: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The defaults overridden by ``settings`` pass the core's checks and the game's own;
    return them merged (what ``start`` receives)."""
    from arena.tournament.config import game_settings

    cls = type(_instance(game))
    try:
        return game_settings(cls, dict(settings or {}))
    except ConfigError as exc:
        given = dict(settings or {})
        raise AssertionError(f"{cls.info.id}: settings {given} refused: {exc}") from None


def check_bad_settings(game: GameLike, bad: Iterable[Mapping[str, Any]]) -> None:
    """Each mapping of ``bad`` is refused before any game with one clear message.

    Wrong types and unknown keys are the core's to refuse; ranges and combinations the
    game's (:meth:`~arena.game.Game.check_settings` raising
    :class:`~arena.errors.InvalidSetting` that names a setting).
    """
    from arena.tournament.config import game_settings

    cls = type(_instance(game))
    for settings in bad:
        try:
            game_settings(cls, dict(settings))
        except ConfigError as exc:
            assert str(exc).strip(), f"{cls.info.id}: settings {dict(settings)} refused silently"
            continue
        raise AssertionError(f"{cls.info.id}: bad settings {dict(settings)} were accepted")


def _tokens(text: str) -> list[str]:
    out = text.replace("\n", " ").replace(",", " , ").replace(":", " : ").split()
    return out[:40]


HOSTILE = [
    "", " ", "\t", "-", "-1", "0", "1", "2", "-0", "007", "1.5", "1e9", "nan", "inf",
    "99999999999999999999", "-99999999999999999999", "²", "٣", "é", "\x00", "\x7f", "\ufeff",
    "{", "}", "[", "]", '"', "'", ",", ":", "null", "true", "false", "{}", "[]", '""', "#",
]  # fmt: skip
"""Tokens fuzzed answers are made of, besides pieces of legal answers."""


def _json_mutants(legal: str) -> list[str]:
    """Legal JSON answers with one value replaced by something hostile."""
    try:
        doc = json.loads(legal)
    except ValueError:
        return []
    hostile: list[Any] = [None, -1, 10**20, 1.5, "", "x", [], {}, [0], True, [[0, 0]], "fog"]
    out = []

    def walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        yield path
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, (*path, i))

    for path in list(walk(doc, ()))[:30]:
        for value in hostile:
            copy = json.loads(legal)
            if not path:
                out.append(json.dumps(value))
                continue
            parent = copy
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
            out.append(json.dumps(copy))
        if path and isinstance(doc, dict) and len(path) == 1:
            copy = json.loads(legal)
            del copy[path[0]]
            out.append(json.dumps(copy))
    return out


def _units(text: str, framing: str | None) -> list[str]:
    """What the core would hand ``interpret`` one at a time for this output."""
    if framing is None:  # a FileTransport game reads the whole file
        return [text]
    if framing == "tokens":
        return [word for word in C_SPACE.split(text) if word]
    return [line.rstrip("\r") for line in text.split("\n")]


def check_fuzzed_answers(
    game: GameLike,
    seed: int,
    players: int,
    settings: Mapping[str, Any] | None = None,
    examples: int = 200,
) -> None:
    """Answers fuzzed with hypothesis, in positions of a random game, never make
    ``interpret`` raise anything but InvalidAnswer or IllegalMove, nor return anything
    but a Move, Reply, Ignore or Incomplete.

    The answers mix random text, legal answers cut, spliced and retokenised, hostile
    tokens (huge numbers, unicode digits, NUL, JSON punctuation) and, for JSON answers,
    legal ones with a value replaced. They reach ``interpret`` as the core would pass
    them: line by line or word by word (``GameInfo.framing``), the command growing while
    the game answers Incomplete. Examples are derandomized: every run tries the same.
    """
    try:
        from hypothesis import HealthCheck, given
        from hypothesis import settings as fuzz_settings
        from hypothesis import strategies as st
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "arena.testing's answer fuzzing needs hypothesis: pip install 'bot-arena[testing]'"
        ) from None
    game = _instance(game)
    gid = _name(game)
    file_game = isinstance(game.info.transport, FileTransport)
    framing = None if file_game else game.info.framing
    separator = " " if framing == "tokens" else "\n"
    merged = {**game.info.settings, **(settings or {})}
    samples: list[tuple[Any, int, str]] = []
    with helper_scope(None):
        rng = random.Random(seed)
        state = game.start(seed, players, merged)
        while seats := list(game.to_act(state)):
            assert len(samples) < MAX_STEPS * 4, f"{gid}: no end after {MAX_STEPS} steps"
            moves = {}
            for seat in seats:
                legal = game.random_answer(state, seat, rng)
                samples.append((state, seat, legal))
                answer = game.interpret(state, seat, legal)
                assert isinstance(answer, Move)
                moves[seat] = answer.action
            state = game.apply(state, moves)
    if len(samples) > FUZZ_STATES:
        stride = len(samples) / FUZZ_STATES
        samples = [samples[int(i * stride)] for i in range(FUZZ_STATES)]
    pieces = sorted({t for _, _, legal in samples for t in _tokens(legal)} | set(HOSTILE))
    mutants = sorted({m for _, _, legal in samples[:5] for m in _json_mutants(legal)})
    token_line = st.lists(st.sampled_from(pieces), max_size=8).map(" ".join)
    free_text = st.text(max_size=40)

    @st.composite
    def outputs(draw: Any, legal: str) -> str:
        kind = draw(st.integers(0, 6 if mutants else 5))
        if kind == 0:
            return str(draw(free_text))
        if kind == 1:
            return str(draw(token_line))
        if kind == 5:  # one token alone (a bare "²" or "-1")
            return str(draw(st.sampled_from(pieces)))
        if kind == 2:  # a legal answer cut and spliced with something else
            cut = draw(st.integers(0, len(legal)))
            text = legal[:cut] + draw(st.one_of(st.sampled_from(pieces), free_text))
            return text + legal[cut + draw(st.integers(0, 3)) :]
        if kind == 3:  # a legal answer with one token replaced
            tokens = legal.split(" ")
            i = draw(st.integers(0, max(0, len(tokens) - 1)))
            tokens[i] = draw(st.sampled_from(pieces))
            return " ".join(tokens)
        if kind == 4:  # several lines of tokens
            return "\n".join(draw(st.lists(token_line, min_size=2, max_size=4)))
        return str(draw(st.sampled_from(mutants)))

    def feed(state: Any, seat: int, legal: str, output: str) -> None:
        """Hand ``output`` to interpret as the core would; fail on anything but the contract."""
        command: list[str] = []
        for unit in _units(output, framing):
            command.append(unit)
            text = separator.join(command)
            try:
                answer = game.interpret(state, seat, text)
            except AnswerError:
                return
            except Exception as exc:
                raise AssertionError(
                    f"{gid}: interpret raised {type(exc).__name__}: {exc} for the answer "
                    f"{text!r} (seat {seat}; a legal answer there: {legal!r})"
                ) from None
            assert isinstance(answer, Move | Reply | Ignore | Incomplete), (
                f"{gid}: interpret returned {answer!r} for {text!r}"
            )
            if isinstance(answer, Move):
                return
            if not isinstance(answer, Incomplete):
                command = []  # a reply or an ignored unit: the next command starts afresh

    # First a sweep: every hostile token alone and in place of each token of a legal
    # answer, in a few positions; then hypothesis explores the rest.
    for state, seat, legal in samples[:: max(1, len(samples) // SWEEP_STATES)]:
        tokens = legal.split(" ")
        for token in HOSTILE:
            feed(state, seat, legal, token)
            for i in range(min(len(tokens), 8)):
                feed(state, seat, legal, " ".join([*tokens[:i], token, *tokens[i + 1 :]]))

    @fuzz_settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        report_multiple_bugs=False,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def fuzz(data: Any) -> None:
        state, seat, legal = data.draw(st.sampled_from(samples), label="position")
        feed(state, seat, legal, data.draw(outputs(legal), label="output"))

    fuzz()


def check_contract(game: GameLike) -> None:
    """The class is a complete :class:`~arena.game.Game` with valid ``info`` that a
    plugin may register, and its default settings are JSON."""
    from arena.plugins.registry import contract_problem

    cls = game if isinstance(game, type) else type(game)
    problem = contract_problem(cls)
    assert problem is None, problem
    _json(cls.info.id, "info.settings", dict(cls.info.settings))


def player_counts(game: GameLike, limit: int = 4) -> list[int]:
    """The player counts a game is checked with: each from min to max (at most ``limit``)."""
    info = _instance(game).info
    return list(range(info.min_players, min(info.max_players, info.min_players + limit - 1) + 1))


def check_game(
    game: GameLike,
    *,
    settings: Mapping[str, Any] | None = None,
    bad_settings: Iterable[Mapping[str, Any]] = (),
    players: Sequence[int] | None = None,
    seeds: Sequence[int] = (1, 2),
    fuzz_examples: int = 200,
) -> None:
    """Run every conformance check on ``game`` (a Game class or instance).

    ``settings`` are played with (the defaults otherwise); each of ``bad_settings`` must be
    refused; ``players`` defaults to every count the game allows (four at most); each
    count plays every seed of ``seeds``. Raises AssertionError on the first problem.
    """
    check_contract(game)
    merged = check_settings_accepted(game, settings)
    check_bad_settings(game, bad_settings)
    for count in players or player_counts(game):
        for seed in seeds:
            check_replays(game, seed, count, merged)
        check_forfeit_ranks_last(game, seeds[0], count, merged)
        if fuzz_examples:
            check_fuzzed_answers(game, seeds[0], count, merged, fuzz_examples)
