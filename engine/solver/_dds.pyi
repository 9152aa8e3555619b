"""The C search (engine/solver/_dds.c)."""

from collections.abc import Sequence

MUST_TRUMP: int
NO_UNDERTRUMP: int

class Solver:
    nodes: int
    @property
    def clears(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def __init__(self, memory_mib: int = ...) -> None: ...
    def solve(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        weights: Sequence[int],
        maximisers: Sequence[int],
        flags: int = ...,
        lo: int = ...,
        hi: int = ...,
        guess: int = ...,
        max_nodes: int = ...,
        played: Sequence[int] = ...,
        max_seconds: float = ...,
    ) -> int: ...
    def clear(self) -> None: ...
