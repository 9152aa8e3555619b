"""Signals other apps listen to, so this app needs to know nothing about them."""

from django.dispatch import Signal

# Sent (inside the transaction) when something the standings depend on changes outside the
# results themselves: a disqualification given or lifted, the tournament finalised or
# reopened. Argument: ``tournament``.
standings_inputs_changed = Signal()
