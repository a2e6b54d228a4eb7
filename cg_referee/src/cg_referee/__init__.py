"""Cg Referee: a game plugin for arena."""
