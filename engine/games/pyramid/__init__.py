"""Pyramid: a trick-taking game for 2 to 4 players with a 24-card pack, in which the player
after the dealer declares how many of the six tricks he will take, and every player's
declarations fill a sheet shaped like a pyramid (docs/games/pyramid.md)."""
