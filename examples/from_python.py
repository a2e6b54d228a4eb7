"""arena from Python: one game, then a tournament (run from the repository's root)."""

import arena

result = arena.play(
    "stc",
    ["python3 bots/stc/greedy.py", "python3 bots/stc/enemy.py"],
    seed=7,
    settings={"max_turns": 50},
)
print(result.ranks, result.scores, result.reason, result.forfeits)

summary = arena.run("tournaments/stc.yaml", games=4)  # like `arena run`, resumable
print(summary.leaderboard.render("markdown"))
