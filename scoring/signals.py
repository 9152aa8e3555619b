"""Signals other apps listen to, so this app needs to know nothing about them."""

from django.dispatch import Signal

# Sent (inside the transaction) when the standings task has stored newer standings for a
# tournament. Argument: ``tournament_id``.
standings_stored = Signal()
