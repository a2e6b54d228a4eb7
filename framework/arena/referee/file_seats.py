"""File seats: a bot process per turn, its input and answer in files of its own directory
(a game's :class:`~arena.game.FileTransport`: chess5)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.botproc import TurnOptions, TurnProcessResult, crash_detail, run_turn_process
from arena.botproc.seatdisk import SeatCaps, cap_seats, over_cap
from arena.errors import AnswerError
from arena.game import FileTransport, Move
from arena.records import Forfeit, ReplayStep, SeatIO
from arena.referee.clocks import Stall
from arena.referee.seats import STEP_LOG_CAP, Table, Verdicts


class FileSeats:
    """The :class:`~arena.referee.seats.Seats` of a game of per-turn processes."""

    def __init__(self, table: Table, transport: FileTransport) -> None:
        self.table = table
        self.transport = transport
        self.caps = SeatCaps()
        self.options: list[TurnOptions] = []

    def start(self) -> None:
        t, transport, home = self.table, self.transport, self.table.home
        self.caps = cap_seats(home.workdirs, home.fds, t.sandbox)  # the directories' cap
        self.options = [
            TurnOptions(
                bot.argv,
                home.workdirs[seat],
                transport.input_name,
                transport.output_name,
                t.stderr_paths[seat],
                transport.max_extra_files,
                transport.max_file_bytes,
                t.sandbox,
                home.fds[seat],
                excuse=t.clock.excuses_turn_processes,
                core=t.cores[seat],
            )
            for seat, bot in enumerate(t.bots)
        ]

    def play_step(
        self, state: Any, to_act: list[int], budgets: dict[int, float], step: ReplayStep
    ) -> Verdicts:
        """Run each seat's turn process in turn and judge what it left."""
        moves: dict[int, Move] = {}
        forfeits: dict[int, Forfeit] = {}
        margin_ms = self.table.clock.margin_ms
        for seat in to_act:
            prompt = self.table.game.prompt(state, seat)
            log_path = self.table.stderr_paths[seat]
            log_start = log_path.stat().st_size if log_path.exists() else 0
            limit_ms = budgets[seat] + margin_ms
            result = run_turn_process(self.options[seat], prompt, limit_ms / 1000.0)
            output = result.output or ""
            io: SeatIO = {
                "input": prompt,
                "lines": [output] if result.output is not None else [],
                "ms": result.elapsed_ms,
                "budget_ms": budgets[seat],
                "exit_code": result.exit_code,
                "stderr": _read_from(log_path, log_start, STEP_LOG_CAP),
            }
            step["io"][str(seat)] = io
            if result.waited_ms:
                over = max(0.0, result.elapsed_ms - limit_ms)
                io["wait_ms"] = round(min(result.waited_ms, over), 3)
            if result.excused and not result.timed_out and result.started:
                # Over its limit only because the machine kept it waiting: not its doing.
                raise Stall(
                    f"{self.table.who(seat)} took {result.elapsed_ms:.1f} ms "
                    f"(limit {limit_ms:g} ms), {result.waited_ms:.1f} ms of it kept waiting "
                    "by the machine"
                )
            verdict = self._judge(state, seat, result, budgets[seat])
            fd = self.table.home.fds[seat]
            if full := over_cap(fd, self.caps, self.table.sandbox.disk_mb):
                verdict = Forfeit("memory", full, output)
            if isinstance(verdict, Move):
                moves[seat] = verdict
                step["moves"][str(seat)] = output
                if verdict.message:
                    step["messages"][str(seat)] = verdict.message
                if result.elapsed_ms > budgets[seat]:
                    io["late"] = True  # over the budget, within the margin
            else:
                forfeits[seat] = verdict
        return moves, forfeits

    def _judge(
        self, state: Any, seat: int, result: TurnProcessResult, budget_ms: float
    ) -> Move | Forfeit:
        """What seat's turn process did, as the game reads it."""
        transport = self.transport
        out, output = transport.output_name, result.output
        if not result.started and result.file_problem is not None:
            return Forfeit("invalid", result.file_problem)
        if result.memory is not None and not result.timed_out and result.exit_code != 0:
            return Forfeit("memory", result.memory, output or "")
        if result.timed_out:
            margin = self.table.clock.margin_ms
            extra = f" + {margin:g} ms margin" if margin else ""
            return Forfeit("timeout", f"still running after {budget_ms:g} ms{extra}")
        if result.exit_code != 0:
            reason, meaning = transport.exit_codes.get(result.exit_code or 0, ("crash", ""))
            context = f"({meaning})" if meaning else ""
            summary = self.table.exit_summary(seat, result.exit_code, context)
            return Forfeit(reason, crash_detail(summary, result.log_tail), output or "")
        if result.file_problem is not None:
            return Forfeit("invalid", result.file_problem)
        if output is None:
            return Forfeit("invalid", f"exited 0 without writing {out}")
        try:
            answer = self.table.game.interpret(state, seat, output)
        except AnswerError as bad:
            return Forfeit(bad.reason, bad.message, bad.raw or output)
        if not isinstance(answer, Move):
            return Forfeit("invalid", f"{out} holds no move", output)
        return answer

    def forfeited(self, seat: int, forfeit: Forfeit) -> Forfeit:
        """The forfeit as it is: the seat's process ended with its turn."""
        return forfeit

    def step_done(self, step: ReplayStep) -> None:
        """Nothing: each turn's log was read as its process ended."""

    def finish(self, state: Any, forfeited: Sequence[bool]) -> dict[str, str]:
        """Nothing to send: no process outlives its turn."""
        return {}

    def close(self) -> None:
        """Close the game's home (orphans killed, descriptors closed), then unmount the directories'
        cap."""
        self.table.home.close()
        self.caps.release()


def _read_from(path: Path, offset: int, cap: int) -> str:
    """At most ``cap`` bytes of ``path`` from ``offset``, decoded leniently ("" if gone)."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read(cap).decode("utf-8", "replace")
    except OSError:
        return ""
