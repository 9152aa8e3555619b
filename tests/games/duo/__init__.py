"""Duo: a game of pairs that lives only in the tests, to prove that a game of pairs is one
package like any other (registered by tests/conftest.py, never shipped)."""
