"""Results: the store (SQLite), game identities, ratings, statistics, the leaderboard."""
