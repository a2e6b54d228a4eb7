"""Plugins: the hook specifications, the plugin manager that finds games, the game scaffold."""
