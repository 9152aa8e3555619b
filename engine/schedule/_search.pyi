"""The movement search in C (engine/schedule/_search.c)."""

from collections.abc import Sequence

def improve(
    rows: Sequence[Sequence[Sequence[int]]],
    players: int,
    seed: int,
    work: int,
    bits: int,
    settings: tuple[int, int, int, int, int],
    /,
) -> list[int] | bool | None: ...
def draws(seed: int, bounds: Sequence[int], /) -> list[int]: ...
