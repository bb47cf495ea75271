"""Routers by resource: games (rulesets, moves, scoring, end of game), compare, lexicons, health."""
