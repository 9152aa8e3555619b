"""Pymtheg: the four-player partnership game of 60 cards (the rulebook, ``docs/rulebook.md``).

Cards and deal notation (``cards``), the auction and its legal calls (``auction``), rulesets
as data files (``rulesets``), board records (``records``), scores (``scoring``), card play
(``play``), a simple player for simulation (``simulate``), results in words (``words``);
``game.GAME`` is what the generic code sees.
"""
