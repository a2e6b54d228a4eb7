"""Contest mode (``arena serve contest.yaml``): participants' accounts, their uploaded bots
joining a league, the public leaderboard, privacy per participant and the organisers' page
(see docs/contest.md)."""
