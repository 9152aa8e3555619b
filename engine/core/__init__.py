"""What every game shares: seats at a table, the errors a record or deal raises, JSON checks.

Nothing here knows a game; each game (``engine.games``) builds on it.
"""
