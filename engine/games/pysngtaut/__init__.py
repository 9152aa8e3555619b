"""Pys'ngtaut (Kuzanasta): a rummy for 2 to 4 players with a 93-card pack, wild cards of the
turned-up rank, a god card and settlements between the players (docs/games/pysngtaut.md)."""
