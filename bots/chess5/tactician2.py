#!/usr/bin/env python3
"""5x5 ability chess (Code Clash): tactician2, the tactician's successor.

What it adds to ``tactician.py``: it never moves into a fogged square (under fog every
square a piece could move to or capture on is shown, so a fogged target is never a legal
move: the tactician, filling fog from memory, sometimes tried to capture a piece that had
left and lost the game for an illegal move); it searches longer (until 1.6 s after its
process started, of the 5 s clock) with history-ordered quiet moves; it places its rooks,
bishops and pawns by searching the position each placement leaves (as if play began: a
rook left on a file an enemy rook sees is lost to white's first move); and it varies its
setup at random among equally good placements, so that games against a deterministic
opponent differ. Against a bot that fills fog from memory it
plays fog when its move takes a piece off a square an enemy pawn attacks (the pawn may
then try to capture the piece that left: an illegal move).

Play: negamax alpha-beta with a transposition table, capture-first move ordering and a
capture-only quiescence search; capturing the king ends the search line.
Abilities: shield is tried at the root on the most valuable piece the opponent could take
after each move (used when it gains clearly more than its cost), pawn reset when it surely
brings attacked or stuck pawns home, fog when the chosen move attacks a valuable piece.
Memory: one file, ``tactician2_memory.json`` next to state.json, keeps the pawn setup
squares (for pawn reset), the setup's column order and the last board seen without fog
(to fill fogged squares for the search; moves are only chosen among visible squares).
Run as ``tactician2.py <dir>/state.json``; writes ``move.json`` there and exits 0.
Single file, stdlib only; logs to stderr.
"""

from __future__ import annotations

import time

T0 = time.perf_counter()

import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402


def started_ago() -> float:
    """Seconds since this process was started (interpreter start-up included), 0 if unknown."""
    try:
        with open("/proc/self/stat", encoding="ascii") as src:
            start_ticks = int(src.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as src:
            uptime = float(src.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


TURN_BUDGET = 1.60  # seconds after the process started: stop searching (clock: 5 s)
MIN_SEARCH = 0.10  # but always search at least this long
DEADLINE = max(TURN_BUDGET - started_ago(), MIN_SEARCH)  # seconds after T0
NEW_ITERATION_LIMIT = DEADLINE * 0.4  # do not start a deeper iteration after this
MEMORY = "tactician2_memory.json"
SIZE = 5
N = SIZE * SIZE
P, B, R, Q, K = 1, 2, 3, 4, 5
LETTERS = {"P": P, "B": B, "R": R, "Q": Q, "K": K}
VALUE = (0, 100, 320, 500, 950, 0)
MATE = 100000
SHIELD_COST = 60
RESET_COST = 40
FOG_THREAT = 500  # use fog when the move attacks a piece worth at least this (or the king)
MAX_PLIES = 200
INF = 10**9

# Precomputed geometry: sliding rays and king steps per square.
DIRS_R = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIRS_B = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays(sq: int, dirs: tuple) -> list[list[int]]:
    r0, c0 = divmod(sq, SIZE)
    out = []
    for dr, dc in dirs:
        ray = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < SIZE and 0 <= c < SIZE:
            ray.append(r * SIZE + c)
            r, c = r + dr, c + dc
        if ray:
            out.append(ray)
    return out


RAYS = {
    B: [_rays(s, DIRS_B) for s in range(N)],
    R: [_rays(s, DIRS_R) for s in range(N)],
    Q: [_rays(s, DIRS_R + DIRS_B) for s in range(N)],
}
KING_STEPS = [[ray[0] for ray in RAYS[Q][s]] for s in range(N)]
CENTER = [2 - max(abs(s // SIZE - 2), abs(s % SIZE - 2)) for s in range(N)]  # 0 edge .. 2 centre


def log(*parts: object) -> None:
    """Reasoning goes to stderr."""
    print(*parts, file=sys.stderr, flush=True)


class Timeout(Exception):
    """The search ran out of time."""


def gen_moves(board: list[int], side: int, shield: int) -> list[tuple[int, int, int]]:
    """Moves (from, to, captured piece code) of ``side`` (+1 white, -1 black), captures first."""
    caps: list[tuple[int, int, int]] = []
    quiet: list[tuple[int, int, int]] = []
    for s in range(N):
        p = board[s] * side
        if p <= 0:
            continue
        if p == P:
            t = s + SIZE * side
            if 0 <= t < N:
                if board[t] == 0:
                    quiet.append((s, t, 0))
                c = s % SIZE
                for dc in (-1, 1):
                    if 0 <= c + dc < SIZE:
                        u = t + dc
                        v = board[u] * side
                        if v < 0 and u != shield:
                            caps.append((s, u, -v))
        elif p == K:
            for t in KING_STEPS[s]:
                v = board[t] * side
                if v == 0:
                    quiet.append((s, t, 0))
                elif v < 0 and t != shield:
                    caps.append((s, t, -v))
        else:
            for ray in RAYS[p][s]:
                for t in ray:
                    v = board[t] * side
                    if v == 0:
                        quiet.append((s, t, 0))
                        continue
                    if v < 0 and t != shield:
                        caps.append((s, t, -v))
                    break
    caps.sort(key=lambda m: (m[2] == K, VALUE[m[2]] * 10 - VALUE[abs(board[m[0]])]), reverse=True)
    return caps + quiet


def evaluate(board: list[int]) -> int:
    """Score for white: material, pawn advance, centre, pressure on the enemy king."""
    score = 0
    wk = bk = -1
    for s in range(N):
        p = board[s]
        if p == K:
            wk = s
        elif p == -K:
            bk = s
    for s in range(N):
        p = board[s]
        if p == 0:
            continue
        a = abs(p)
        row = s // SIZE
        v = VALUE[a]
        if a == P:
            v += 12 * (row if p > 0 else 4 - row)
        elif a != K:
            v += 6 * CENTER[s]
            enemy_king = bk if p > 0 else wk
            if enemy_king >= 0:
                er, ec = divmod(enemy_king, SIZE)
                v -= 4 * max(abs(er - row), abs(ec - s % SIZE))
        score += v if p > 0 else -v
    return score


class Searcher:
    """Negamax alpha-beta with a transposition table and quiescence."""

    def __init__(self, first_ply: int) -> None:
        self.tt: dict[tuple, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.nodes = 0
        self.first_ply = first_ply  # turnNumber of the root move (1-based ply)
        self.history: dict[tuple[int, int], int] = {}  # quiet moves that caused cut-offs

    def tick(self) -> None:
        """Count a node; raise Timeout past the deadline."""
        self.nodes += 1
        if self.nodes & 511 == 0 and time.perf_counter() - T0 > DEADLINE:
            raise Timeout

    def quiesce(self, board: list[int], side: int, alpha: int, beta: int, made: int) -> int:
        """Captures only, with stand-pat."""
        self.tick()
        stand = evaluate(board) * side
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        for s, t, cap in gen_moves(board, side, -1):
            if cap == 0:
                break
            if cap == K:
                return MATE - made
            moved, old = board[s], board[t]
            board[t] = moved if abs(moved) != P or t // SIZE not in (0, 4) else Q * side
            board[s] = 0
            score = -self.quiesce(board, -side, -beta, -alpha, made + 1)
            board[s], board[t] = moved, old
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def search(
        self, board: list[int], side: int, depth: int, alpha: int, beta: int, shield: int, made: int
    ) -> int:
        """Negamax value of the position for ``side``; ``made`` plies from the root."""
        self.tick()
        if self.first_ply - 1 + made >= MAX_PLIES:
            return 0
        if depth <= 0:
            return self.quiesce(board, side, alpha, beta, made)
        key = (tuple(board), side, shield)
        entry = self.tt.get(key)
        best_move = None
        if entry is not None:
            d, score, flag, best_move = entry
            if d >= depth:
                if flag == 0:
                    return score
                if flag == 1 and score >= beta:
                    return score
                if flag == -1 and score <= alpha:
                    return score
        moves = gen_moves(board, side, shield)
        if not moves:
            return -MATE + made
        if moves[0][2] == K:
            return MATE - made
        history = self.history
        if history:
            first_quiet = next((i for i, m in enumerate(moves) if not m[2]), len(moves))
            quiet = moves[first_quiet:]
            quiet.sort(key=lambda m: -history.get((m[0], m[1]), 0))
            moves[first_quiet:] = quiet
        if best_move is not None:
            moves.sort(key=lambda m: (m[0], m[1]) != best_move)
        alpha0 = alpha
        best = -INF
        best_pair = None
        for s, t, _cap in moves:
            moved, old = board[s], board[t]
            board[t] = moved if abs(moved) != P or t // SIZE not in (0, 4) else Q * side
            board[s] = 0
            score = -self.search(board, -side, depth - 1, -beta, -alpha, -1, made + 1)
            board[s], board[t] = moved, old
            if score > best:
                best, best_pair = score, (s, t)
            alpha = max(alpha, score)
            if alpha >= beta:
                if not _cap:
                    history[(s, t)] = history.get((s, t), 0) + depth * depth
                break
        flag = 0 if alpha0 < best < beta else (1 if best >= beta else -1)
        self.tt[key] = (depth, best, flag, best_pair)
        return best


def attacked_targets(board: list[int], side: int) -> dict[int, int]:
    """Squares of ``side``'s pieces the opponent could capture now -> piece code."""
    return {t: cap for _, t, cap in gen_moves(board, -side, -1) if cap}


def make(board: list[int], s: int, t: int, side: int) -> list[int]:
    """A copy of the board after the move (promotion included)."""
    nb = board[:]
    moved = nb[s]
    nb[t] = moved if abs(moved) != P or t // SIZE not in (0, 4) else Q * side
    nb[s] = 0
    return nb


def pawn_reset_board(board: list[int], homes: list[int], side: int) -> list[int] | None:
    """The board after pawn reset if its result is certain (as many free homes as pawns away)."""
    away = [s for s in range(N) if board[s] == P * side and s not in homes]
    free = [h for h in homes if board[h] == 0]
    if not away or len(away) != len(free):
        return None
    nb = board[:]
    for s in away:
        nb[s] = 0
    for h in free:
        nb[h] = P * side
    return nb


def choose_play(state: dict, board: list[int], memory: dict) -> dict:
    """Pick the move and ability for a play turn; returns the move.json object."""
    side = 1 if state["playerColor"] == "white" else -1
    shield_against_me = -1
    for eff in state["abilitiesActivated"]:
        if eff["name"] == "shield" and eff.get("target") is not None:
            shield_against_me = eff["target"][0] * SIZE + eff["target"][1]
    left = state["abilitiesRemaining"]
    homes = [h[0] * SIZE + h[1] for h in memory.get("homes", [])]
    moves = gen_moves(board, side, shield_against_me)
    fog = fogged_squares(state)
    if fog:
        # Under fog every square a piece could move to or capture on is shown: a move into
        # a fogged square is illegal (the piece remembered there has left).
        moves = [m for m in moves if m[1] not in fog]
    if not moves:
        raise RuntimeError("no legal move")
    # Root candidates: (from, to, ability, target, board after, shield for the reply, cost)
    cands = []
    for s, t, _cap in moves:
        nb = make(board, s, t, side)
        cands.append((s, t, None, None, nb, -1, 0))
        if left.get("shield"):
            threats = attacked_targets(nb, side)
            if threats:
                target = max(threats, key=lambda sq: (threats[sq] == K, VALUE[threats[sq]]))
                cands.append((s, t, "shield", target, nb, target, SHIELD_COST))
        if left.get("pawnReset") and homes:
            rb = pawn_reset_board(nb, homes, side)
            if rb is not None:
                cands.append((s, t, "pawnReset", None, rb, -1, RESET_COST))
    searcher = Searcher(state["turnNumber"])
    best = cands[0]
    best_score = -INF
    depth = 1
    for cand in cands:  # an immediate king capture needs no search
        if board[cand[1]] == -K * side:
            best, best_score, depth = cand, MATE, 99
            break
    done_depth = 0
    while depth < 40:
        iter_best, iter_score = None, -INF
        try:
            for cand in cands:
                s, t, ability, target, nb, shield, cost = cand
                alpha = max(iter_score, -INF + 1) + cost
                score = -searcher.search(nb[:], -side, depth - 1, -INF, -alpha, shield, 1) - cost
                if score > iter_score:
                    iter_best, iter_score = cand, score
        except Timeout:
            if iter_best is not None:
                best, best_score = iter_best, iter_score
            log(f"depth {depth} cut short")
            break
        best, best_score = iter_best, iter_score
        done_depth = depth
        cands.sort(key=lambda c: c is not best)
        log(f"depth {depth}: {fmt(best)} score {best_score} nodes {searcher.nodes}")
        if abs(best_score) >= MATE - 100 or time.perf_counter() - T0 > NEW_ITERATION_LIMIT:
            break
        depth += 1
    last_depth = done_depth if abs(best_score) < MATE - 100 else 0
    if best[2] is None and left.get("fog") and last_depth > 1:
        ghost = ghost_candidate(board, side, cands, best_score, searcher, last_depth)
        if ghost is not None:
            best = ghost
            log(f"fog on a ghost: {fmt(ghost)} leaves a square an enemy pawn attacks")
            s, t, ability, target, nb, _shield, _cost = best
            answer = {
                "move": {"from": list(divmod(s, SIZE)), "to": list(divmod(t, SIZE))},
                "ability": {"name": "fog", "target": None},
            }
            return answer
    s, t, ability, target, nb, _shield, _cost = best
    if ability is None and left.get("fog"):
        threats = attacked_targets(nb, -side)  # enemy pieces we attack after the move
        if threats and max(VALUE[c] if c != K else MATE for c in threats.values()) >= FOG_THREAT:
            ability = "fog"
    answer: dict = {"move": {"from": list(divmod(s, SIZE)), "to": list(divmod(t, SIZE))}}
    target_sq = None if target is None else list(divmod(target, SIZE))
    answer["ability"] = {"name": ability, "target": target_sq}
    log(f"play {fmt(best)} ability {ability} score {best_score} in {time.perf_counter() - T0:.2f}s")
    return answer


GHOST_MARGIN = 40  # a ghost move may score this much below the best move


def ghost_candidate(
    board: list[int], side: int, cands: list, best_score: int, searcher: Searcher, depth: int
) -> tuple | None:
    """A root move (nearly as good as the best) that leaves a ghost behind under fog.

    Under fog a pawn sees the empty square in front of it and enemy pieces diagonally in
    front of it, not an empty diagonal square. A bot that fills fog from its memory then
    still sees the piece that stood there, and may try to capture it: an illegal move.
    A candidate qualifies when it moves a bishop, rook or queen off a square an enemy pawn
    attacks and no other enemy piece can reach that square (it stays fogged).
    """
    pawn_targets = set()
    for sq in range(N):
        if board[sq] == -P * side:
            front = sq - SIZE * side
            if 0 <= front < N:
                for dc in (-1, 1):
                    if 0 <= sq % SIZE + dc < SIZE:
                        pawn_targets.add(front + dc)
    for cand in cands:
        s, _t, ability, _target, nb, shield, cost = cand
        if ability is not None or s not in pawn_targets or abs(board[s]) not in (B, R, Q):
            continue
        if any(to == s for _fr, to, _c in gen_moves(nb, -side, -1)):
            continue  # another enemy piece can move there: the square is shown
        floor = best_score - GHOST_MARGIN
        try:
            score = -searcher.search(nb[:], -side, depth - 1, -INF, -floor, shield, 1) - cost
        except Timeout:
            return None
        if score >= floor:
            return cand
    return None


def fmt(cand: tuple | None) -> str:
    """Human-readable root candidate."""
    if cand is None:
        return "-"
    s, t, ability = cand[0], cand[1], cand[2]
    extra = f"+{ability}" if ability else ""
    return f"{list(divmod(s, SIZE))}->{list(divmod(t, SIZE))}{extra}"


def fogged_squares(state: dict) -> set[int]:
    """Squares shown as fog in this turn's state."""
    return {
        r * SIZE + c
        for r, row in enumerate(state["board"])
        for c, cell in enumerate(row)
        if cell is not None and cell.get("color") == "fog"
    }


def read_board(state: dict, memory: dict) -> tuple[list[int], bool]:
    """Board as signed piece codes; fogged squares filled from the last clear board."""
    board = [0] * N
    fogged = False
    last = memory.get("board")
    for r, row in enumerate(state["board"]):
        for c, cell in enumerate(row):
            s = r * SIZE + c
            if cell is None:
                continue
            if cell.get("color") == "fog":
                fogged = True
                if (
                    last is not None
                    and last[s] * (1 if state["playerColor"] == "white" else -1) < 0
                ):
                    board[s] = last[s]
                continue
            code = LETTERS[cell["type"]]
            board[s] = code if cell["color"] == "white" else -code
    return board, fogged


SETUP_ORDERS = ((2, 1, 3, 0, 4), (1, 2, 3, 0, 4), (3, 2, 1, 4, 0), (2, 3, 1, 4, 0), (1, 3, 2, 0, 4))


def choose_setup(state: dict, board: list[int], memory: dict) -> dict:
    """Placement: the king near the middle of the back row (the column order drawn at random
    once per game among a few sound ones, so that games against a deterministic opponent
    differ); the block in front of the enemy king; rooks, pawns and bishops where a short
    search of the position (as if play began now) likes them best."""
    side = 1 if state["playerColor"] == "white" else -1
    step = state["setupStep"]
    back, front = (0, 1) if side == 1 else (4, 3)
    blocked = {b[0] * SIZE + b[1] for b in state["blockedTiles"]}
    if "cols" not in memory:
        memory["cols"] = random.choice(SETUP_ORDERS)
    cols = tuple(memory["cols"])

    def free(row: int) -> list[int]:
        return [
            row * SIZE + c
            for c in cols
            if board[row * SIZE + c] == 0 and row * SIZE + c not in blocked
        ]

    if step == 2:
        enemy_back, enemy_front = (4, 3) if side == 1 else (0, 1)
        king = next((s for s in range(N) if board[s] == -K * side), enemy_back * SIZE + 2)
        options = free(enemy_front) + free(enemy_back)
        target = min(options, key=lambda s: (s // SIZE != enemy_front, abs(s % SIZE - king % SIZE)))
        return {"move": {"to": list(divmod(target, SIZE))}}
    own = free(back) + free(front)
    if step == 1:
        target = own[0]
        return {"move": {"from": [0, 0], "to": list(divmod(target, SIZE))}}
    if step == 3:
        rooks = [(sq, R, 6 if sq // SIZE == back and sq % SIZE in (0, 4) else 0) for sq in own]
        target, _piece = best_placement(board, side, rooks)
        return {"move": {"from": [0, 2], "to": list(divmod(target, SIZE))}}
    pawns_left = 3 - sum(1 for p in board if p == P * side)
    bishops_left = 2 - sum(1 for p in board if p == B * side)
    king = next(s for s in range(N) if board[s] == K * side)
    options = []
    for sq in free(front) + free(back):
        near = 2 - min(2, abs(sq % SIZE - king % SIZE))
        if pawns_left:
            options.append((sq, P, (20 if sq // SIZE == front else 0) + 4 * near))
        if bishops_left:
            options.append((sq, B, 5 if sq // SIZE == back else 0))
    target, piece = best_placement(board, side, options)
    if piece == P:
        memory.setdefault("homes", []).append(list(divmod(target, SIZE)))
        return {"move": {"from": [0, 4], "to": list(divmod(target, SIZE))}}
    return {"move": {"from": [0, 3], "to": list(divmod(target, SIZE))}}


SETUP_DEPTH = 3  # plies searched from each candidate setup, white to move as in play


def best_placement(board: list[int], side: int, options: list[tuple[int, int, int]]) -> tuple:
    """The (square, piece) of ``options`` whose position searches best for us.

    Each candidate is placed and the position searched ``SETUP_DEPTH`` plies as if play
    began now (white moves first), so a rook left on a file an enemy rook sees, or a
    piece a bishop can take, is avoided; the option's bonus (its usual spot) and a little
    randomness break ties. Out of time, the remaining options count their bonus only.
    """
    scored = []
    searcher = Searcher(1)
    timed_out = False
    for sq, piece, bonus in options:
        value = 0
        if not timed_out:
            trial = board[:]
            trial[sq] = piece * side
            try:
                value = searcher.search(trial, 1, SETUP_DEPTH, -INF, INF, -1, 0) * side
            except Timeout:
                timed_out = True
        scored.append((value + bonus + random.random() * 3, sq, piece))
    _, sq, piece = max(scored)
    log(
        f"setup options: {len(options)}, best {list(divmod(sq, SIZE))} {piece} "
        f"({'partly ' if timed_out else ''}searched {SETUP_DEPTH} plies)"
    )
    return sq, piece


def main() -> int:
    """Read state.json, think, write move.json and the memory file."""
    state_path = os.path.abspath(sys.argv[1])
    folder = os.path.dirname(state_path)
    with open(state_path, encoding="utf-8") as src:
        state = json.load(src)
    memory_path = os.path.join(folder, MEMORY)
    memory: dict = {}
    if os.path.exists(memory_path):
        try:
            with open(memory_path, encoding="utf-8") as src:
                memory = json.load(src)
        except (OSError, ValueError):
            memory = {}
    board, fogged = read_board(state, memory)
    if state["phase"] == "setup":
        answer = choose_setup(state, board, memory)
        log(f"setup step {state['setupStep']}: {answer['move']}")
    else:
        answer = choose_play(state, board, memory)
    if not fogged:
        memory["board"] = board
    with open(os.path.join(folder, "move.json"), "w", encoding="utf-8") as out:
        json.dump(answer, out)
    with open(memory_path, "w", encoding="utf-8") as out:
        json.dump(memory, out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # internal error: exit code 3 as the protocol says
        log(f"internal error: {exc!r}")
        sys.exit(3)
