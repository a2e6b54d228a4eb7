"""arena_games: the games shipped with arena, each registered through the ``arena`` entry points."""
