#!/usr/bin/env python3
"""Sticks: a referee speaking the protocol of CodinGame's original referees, in Python.

cg-brutaltester and arena's ``cg-referee`` game drive referees written for CodinGame's
original engine (``AbstractReferee`` / ``MultiReferee``) through stdin and stdout. This
file is such a referee, for a small game, written to follow that engine's protocol
exactly so arena's side can be tested against it (``tests/games/cg_referee/test_cg_referee.py``).

The protocol. Every message is a header ``[[COMMAND] n]`` followed by n lines.
The arena writes:
  ``[[INIT] n]``              the player count, then n-1 ``key=value`` lines (``seed=7``)
  ``[[GET_GAME_INFO] 0]``     "what next?"
  ``[[SET_PLAYER_OUTPUT] n]`` the n lines the player asked for answered
  ``[[SET_PLAYER_TIMEOUT] 0]`` the player asked for did not answer (it is out)
The referee answers GET_GAME_INFO with ``[[VIEW] n]``, ``[[INFOS] n]`` and, at a new
round, ``[[SUMMARY] n]`` (and ``[[TOOLTIP] n]``), then either ``[[NEXT_PLAYER_INPUT] n]``
(the lines to send the player) and ``[[NEXT_PLAYER_INFO] 3]`` (the player, the number of
lines it must answer, its time in ms), or, when the game is over, ``[[UINPUT] n]`` (the
configuration played, ``key=value``) and ``[[SCORES] n]`` (one ``player score`` line each)
and it exits. A game that ends while handling an output or a timeout (a player lost and
too few remain) writes its last VIEW, INFOS and SCORES at once, without waiting.

The game. Players take turns taking 1 to 3 sticks from a pile (``sticks``, drawn from the
seed unless given); whoever takes the last one wins. First turn input: ``players id
lines``; every turn: the sticks left. Answer ``k`` (``lines`` lines: the first holds k,
the others anything). Score: sticks taken, +10 for the last one; -1 for a player who lost.

Parameters (``key=value`` in INIT): ``seed``, ``sticks``, ``lines``, ``first_ms``,
``turn_ms``, and for tests of broken referees ``crash_at``, ``hang_at``, ``garbage_at``
(at that frame). Every line received is echoed on stderr (``< ...``); with a file name as
argument, the exact bytes received are also appended to that file.
"""

import random
import re
import sys
import time

HEADER = re.compile(r"\[\[(?P<cmd>.+)\] ?(?P<count>[0-9]+)\]")
MAX_ROUNDS = 100


class GameError(Exception):
    """A player's loss, win or the end of the game, with a reason code."""

    def __init__(self, code=None, *values):
        super().__init__(code)
        self.code = code
        self.values = values


class Lost(GameError):
    """The player loses and plays no more."""


class GameOver(GameError):
    """The game ends now."""


MESSAGES = {
    "InvalidInput": "invalid input. Expected '%s' but found '%s'",
    "playerTimeoutMulti": "Timeout: the program did not provide %d input lines in due time... "
    "$%d will no longer be active in this game.",
    "playerTimeoutSolo": "Timeout: the program did not provide %d input lines in due time...",
    "maxRoundsCountReached": "Max rounds reached",
    "notEnoughPlayers": "Not enough players (expected > %d, found %d)",
    "InvalidActionTooltip": "$%d: invalid action",
    "TimeoutTooltip": "$%d: timeout!",
    "WinTooltip": "$%d: victory!",
    "LostTooltip": "$%d lost: %s",
    "pileEmpty": "The pile is empty",
    "tooMany": "$%d cannot take %d sticks",
}


def translate(code, *values):
    """The message of a reason code, formatted like Java's String.format."""
    text = MESSAGES.get(code)
    return text % values if text is not None else code


class Player:
    """One seat as the referee tracks it."""

    def __init__(self, index):
        self.id = index
        self.score = 0
        self.lost = False
        self.win = False
        self.info = None
        self.reason_code = None
        self.next_input = None


class Sticks:
    """The game's own rules, behind the hooks the protocol engine calls."""

    name = "Sticks"
    turn_based = True

    def init(self, players, props):
        """Read the INIT parameters."""
        self.players = players
        self.seed = int(props.get("seed", random.randrange(2**31)))
        rng = random.Random(self.seed)
        self.sticks = int(props.get("sticks", rng.randint(15, 30)))
        self.initial = self.sticks
        self.lines = int(props.get("lines", 1))
        self.first_ms = int(props.get("first_ms", 1000))
        self.turn_ms = int(props.get("turn_ms", 100))
        self.faults = {
            k: int(props[k]) for k in ("crash_at", "hang_at", "garbage_at") if k in props
        }
        self.taken = [0] * players
        self.last_taker = None
        self.actions = {}

    def configuration(self):
        """What UINPUT reports at the end."""
        return {"seed": self.seed, "sticks": self.initial, "lines": self.lines}

    def minimum_players(self):
        """Players needed for the game to go on."""
        return 1 if self.players == 1 else 2

    def init_input(self, player):
        """Lines sent before the first turn's input."""
        return [f"{self.players} {player} {self.lines}"]

    def input(self, round_, player):
        """Lines sent every turn."""
        return [str(self.sticks)]

    def handle_output(self, frame, round_, player, output):
        """Apply a player's answer; raise Lost, Win or GameOver."""
        first = output[0].split(" ")[0] if output else ""
        if not re.fullmatch(r"[0-9]+", first):
            raise Lost("InvalidInput", "a number of sticks", output[0] if output else "")
        take = int(first)
        if not 1 <= take <= min(3, self.sticks):
            raise Lost("tooMany", player, take)
        for i, line in enumerate(output[1:], start=2):
            print(f"player {player} line {i}: {line}", file=sys.stderr)
        self.sticks -= take
        self.taken[player] += take
        self.actions[player] = take
        if self.sticks == 0:
            self.last_taker = player
            raise GameOver("pileEmpty")

    def score(self, player, status):
        """A player's score: sticks taken, +10 for the last one, -1 once lost."""
        if status.lost:
            return -1
        return self.taken[player] + (10 if self.last_taker == player else 0)

    def view_init(self):
        """First frame of the viewer's data."""
        return [f"{self.players} {self.initial}"]

    def view_frame(self, round_, frame, key_frame):
        """Every frame's viewer data."""
        return [str(self.sticks)]

    def summary(self, round_):
        """What the round's summary shows."""
        return [f"${p} took {k}" for p, k in sorted(self.actions.items())]

    def player_actions(self, player, round_):
        """What a player did, for INFOS."""
        return [f"${player} took {self.actions.get(player, 0)}"]


class Engine:
    """The protocol side of CodinGame's original referees, driving one game."""

    def __init__(self, game, stdin, stdout, transcript=None):
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.transcript = transcript
        self.tooltips = []
        self.frame = 0
        self.round = -1
        self.new_round = True
        self.reason_code = None
        self.reason = None
        self.last_player = None
        self.status = None

    def read(self):
        raw = self.stdin.readline()
        if not raw:
            raise EOFError("the arena closed the referee's input")
        if self.transcript is not None:  # every byte received, for protocol tests
            self.transcript.write(raw)
            self.transcript.flush()
        line = raw.decode("utf-8").rstrip("\n")
        print(f"< {line}", file=sys.stderr, flush=True)
        return line

    def block(self, command, lines):
        # Java's OutputData.toString(): header and lines, the whole block trimmed.
        text = "\n".join([f"[[{command}] {len(lines)}]", *lines]).strip()
        self.fault()
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def fault(self):
        faults = getattr(self.game, "faults", {})
        if faults.get("crash_at") == self.frame:
            print("referee: simulated crash", file=sys.stderr, flush=True)
            sys.exit(3)
        if faults.get("hang_at") == self.frame:
            time.sleep(3600)
        if faults.get("garbage_at") == self.frame:
            self.stdout.write("this is not a header\n")
            self.stdout.flush()

    def colored(self, error, reason):
        color = "RED" if error else "GREEN"
        return f"¤{color}¤{reason}§{color}§"

    def run(self):
        game = self.game
        try:
            while True:
                match = HEADER.fullmatch(self.read())
                if match is None:
                    raise RuntimeError("Error in data sent to referee")
                command, count = match["cmd"], int(match["count"])
                if command == "INIT":
                    self.players = [Player(i) for i in range(int(self.read().split()[0]))]
                    self.alive = len(self.players)
                    props = {}
                    for _ in range(count - 1):
                        key, _, value = self.read().partition("=")
                        props[key.strip()] = value.strip()
                    game.init(len(self.players), props)
                    self.status = self.players[0]
                    self.current = self.next = len(self.players) - 1
                    if len(self.players) < game.minimum_players():
                        raise GameOver(
                            "notEnoughPlayers", game.minimum_players(), len(self.players)
                        )
                elif command == "GET_GAME_INFO":
                    self.last_player = self.status
                    self.status = self.next_player()
                    if self.round >= MAX_ROUNDS:
                        raise GameOver("maxRoundsCountReached")
                    self.dump_view()
                    self.dump_infos()
                    self.dump_next_player_input()
                    self.dump_next_player_info()
                elif command == "SET_PLAYER_OUTPUT":
                    self.frame += 1
                    output = [self.read() for _ in range(count)]
                    try:
                        game.handle_output(self.frame, self.round, self.next, output)
                    except Lost as exc:
                        self.status.lost = True
                        self.status.score = game.score(self.next, self.status)
                        self.status.info = translate(exc.code, *exc.values)
                        self.status.reason_code = exc.code
                        self.tooltip(
                            self.next, translate("LostTooltip", self.next, self.status.info)
                        )
                        self.alive -= 1
                        if self.alive < game.minimum_players() and game.turn_based:
                            self.last_player = self.status
                            raise GameOver(None) from None
                elif command == "SET_PLAYER_TIMEOUT":
                    self.frame += 1
                    self.status.lost = True
                    expected = game.lines
                    if len(self.players) <= 1:
                        self.status.info = translate("playerTimeoutSolo", expected)
                    else:
                        self.status.info = translate("playerTimeoutMulti", expected, self.next)
                    self.tooltip(self.next, translate("TimeoutTooltip", self.next))
                    self.alive -= 1
                    if self.alive < game.minimum_players() and game.turn_based:
                        self.last_player = self.status
                        raise GameOver(None)
                else:
                    raise RuntimeError(f"unknown command {command}")
        except GameOver as over:
            self.new_round = True
            self.reason_code = over.code
            self.reason = translate(over.code, *over.values) if over.code else None
            self.dump_view()
            self.dump_infos()
            for i, player in enumerate(self.players):
                player.score = game.score(i, player)
        config = game.configuration()
        self.block("UINPUT", [f"{k}={v}" for k, v in config.items()])
        self.block("SCORES", [f"{i} {p.score}" for i, p in enumerate(self.players)])

    def next_player(self):
        self.current = self.next
        self.new_round = False
        while True:
            self.next += 1
            if self.next >= len(self.players):
                self.new_round = True
                self.round += 1
                if self.alive < self.game.minimum_players():
                    raise GameOver(None)
                self.next = 0
            if not (self.players[self.next].lost or self.players[self.next].win):
                return self.players[self.next]

    def tooltip(self, player, message):
        self.tooltips.append((player, message))

    def dump_view(self):
        code = self.reason_code
        if code is None and self.status is not None:
            code = self.status.reason_code
        kind = "KEY_FRAME" if self.new_round else "INTERMEDIATE_FRAME"
        lines = [f"{kind} {self.frame} {code}" if code else f"{kind} {self.frame}"]
        if self.new_round and self.frame == 0:
            lines += [self.game.name, *self.game.view_init()]
        if self.new_round or self.game.turn_based:
            lines += self.game.view_frame(self.round, self.frame, self.new_round)
        self.block("VIEW", lines)

    def dump_infos(self):
        lines = []
        if self.reason is not None and self.game.turn_based:
            lines.append(self.colored(True, self.reason))
        elif self.last_player is not None:
            if self.last_player.info is not None:
                lines.append(self.colored(self.last_player.lost, self.last_player.info))
            elif self.frame > 0:
                round_ = self.round - 1 if self.new_round else self.round
                lines += self.game.player_actions(self.current, round_)
        self.block("INFOS", lines)
        if self.new_round and self.round >= -1 and len(self.players) > 1:
            summary = []
            if self.frame == 0:
                summary.append("Sticks: take 1 to 3, the last stick wins")
            if self.round >= 0:
                summary += self.game.summary(self.round)
            self.block("SUMMARY", summary)
        if self.tooltips and (self.new_round or self.game.turn_based):
            lines = []
            for player, message in self.tooltips:
                lines += [message, str(player)]
            self.tooltips = []
            self.block("TOOLTIP", lines)

    def dump_next_player_input(self):
        lines = []
        if self.round == 0:
            lines += self.game.init_input(self.next)
        lines += self.game.input(self.round, self.next)
        self.block("NEXT_PLAYER_INPUT", lines)

    def dump_next_player_info(self):
        ms = self.game.first_ms if self.round == 0 else self.game.turn_ms
        self.block("NEXT_PLAYER_INFO", [str(self.next), str(self.game.lines), str(ms)])


def main():
    transcript = None
    if len(sys.argv) > 1:  # sticks_referee.py TRANSCRIPT: keep the bytes received there
        transcript = open(sys.argv[1], "ab")  # noqa: SIM115 - open for the whole game
    Engine(Sticks(), sys.stdin.buffer, sys.stdout, transcript).run()


if __name__ == "__main__":
    main()
