"""The board record of the interchange formats: reading and checking one match playing one deal.

``read_board_record`` turns the JSON object into a ``BoardRecord`` whose auctions are legal and
whose facts fit the contract, or raises ``RecordError`` naming the field and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RecordError
from engine.core.messages import words
from engine.games.pymtheg.auction import (
    TRUMP_ALIASES,
    TRUMPS,
    AuctionError,
    AuctionResult,
    Bid,
    run_auction,
)
from engine.games.pymtheg.cards import DIRECTIONS, Seat
from engine.games.pymtheg.rulesets import DEFAULT_RULESET, OPTION_NAMES, RULESETS, Ruleset

GAME_ID = "pymtheg"
RECORD_FIELDS = frozenset(
    {
        "game",
        "ruleset",
        "options",
        "opening",
        "direction",
        "auctions",
        "trump",
        "double",
        "tricks",
        "revoke",
        "illegal_trump",
    }
)
DOUBLES = {"none": 1, "x": 2, "xx": 4}
SEAT_KEYS = frozenset("NESW")
TEAM_KEYS = frozenset(("NS", "EW"))
TOTAL_TRICKS = 15


@dataclass(frozen=True)
class Options:
    all_tricks_bonus: int = 0
    heavy_failure_penalty: int = 0
    illegal_trump_penalty: int = 0


@dataclass(frozen=True)
class BoardRecord:
    ruleset: Ruleset
    options: Options
    opening: Seat
    direction: str
    auctions: tuple[AuctionResult, ...]
    trump: str | None  # the contract's trump, however it was announced; None for Ry
    announced: str | None  # "during" or "after"; None for Ry and passed out
    double: str
    # tricks per seat (index Seat) or None when given per team / absent
    seat_tricks: tuple[int, int, int, int] | None
    team_tricks: dict[str, int] | None
    revoke: Seat | None
    illegal_trump: Seat | None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def final_auction(self) -> AuctionResult:
        return self.auctions[-1]

    @property
    def multiplier(self) -> int:
        return DOUBLES[self.double]

    def tricks_of_team(self, team: str) -> int:
        if self.team_tricks is not None:
            return self.team_tricks[team]
        if self.seat_tricks is None:
            return 0
        a, b = (Seat.N, Seat.S) if team == "NS" else (Seat.E, Seat.W)
        return self.seat_tricks[a] + self.seat_tricks[b]

    def tricks_of_seat(self, seat: Seat) -> int:
        return 0 if self.seat_tricks is None else self.seat_tricks[seat]


def _choice(record: Mapping[str, Any], name: str, default: str, allowed: Any) -> str:
    value = record.get(name, default)
    if not isinstance(value, str) or value.lower() not in allowed:
        choices = ", ".join(sorted(allowed))
        raise RecordError(
            name, words("%(value)s is not one of %(choices)s", value=repr(value), choices=choices)
        )
    return value.lower()


def _ruleset(record: Mapping[str, Any], default: str | None) -> Ruleset:
    name = record.get("ruleset", default or DEFAULT_RULESET)
    if not isinstance(name, str) or name not in RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise RecordError(
            "ruleset",
            words("unknown ruleset %(name)s (known: %(known)s)", name=repr(name), known=known),
        )
    return RULESETS[name]


def _options(record: Mapping[str, Any]) -> Options:
    raw = record.get("options", {})
    if raw is None:
        return Options()
    if not isinstance(raw, dict):
        raise RecordError("options", words("must be an object of house rules in points"))
    return Options(**{name: _option_value(name, value) for name, value in raw.items()})


def _option_value(name: str, value: Any) -> int:
    """A house rule's value: a known rule, a whole number of points."""
    if name not in OPTION_NAMES:
        raise RecordError(
            f"options.{name}",
            words("unknown house rule (known: %(known)s)", known=", ".join(OPTION_NAMES)),
        )
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(
            f"options.{name}",
            words("must be a whole number of points ≥ 0, not %(value)s", value=repr(value)),
        )
    return value


def _seat(record: Mapping[str, Any], name: str, default: str | None) -> Seat | None:
    value = record.get(name, default)
    if value is None:
        return None
    if not isinstance(value, str) or value.upper() not in SEAT_KEYS:
        raise RecordError(name, words("%(value)s is not a seat (N, E, S or W)", value=repr(value)))
    return Seat[value.upper()]


def _auction_list(raw: Any) -> list[Any]:
    """``auctions``: a list of one or two auctions, each a list of calls."""
    if raw is None:
        raise RecordError("auctions", words("required: the calls of the auction"))
    if not isinstance(raw, list) or not raw:
        raise RecordError("auctions", words("must be a list holding one auction (a list of calls)"))
    if isinstance(raw[0], str):
        raise RecordError(
            "auctions", words("must be a list of auctions, each a list of calls: [[...]]")
        )
    if len(raw) > 2:
        raise RecordError(
            "auctions",
            words("%(count)s auctions: there is at most a second auction", count=len(raw)),
        )
    return raw


def _check_second(first: AuctionResult, ruleset: Ruleset, where: str) -> None:
    """A second auction follows a passed-out first, under a ruleset that holds one."""
    if not first.passed_out:
        raise RecordError(where, words("a second auction is held only after a passed-out first"))
    if not ruleset.second_auction:
        raise RecordError(
            where,
            words(
                "ruleset %(ruleset)s holds no second auction after a passed-out one",
                ruleset=ruleset.name,
            ),
        )


def _run_auction(calls: Any, opening: Seat, direction: str, where: str) -> AuctionResult:
    """One auction's calls, run."""
    if not isinstance(calls, list):
        raise RecordError(where, words('must be a list of calls like "N:G"'))
    try:
        return run_auction(calls, opening, direction)
    except AuctionError as exc:
        raise RecordError(where, exc.args[0]) from None


def _auctions(record: Mapping[str, Any], ruleset: Ruleset, opening: Seat, direction: str):
    raw = _auction_list(record.get("auctions"))
    results: list[AuctionResult] = []
    for index, calls in enumerate(raw):
        where = f"auctions[{index}]"
        if index == 1:
            _check_second(results[0], ruleset, where)
        results.append(_run_auction(calls, opening, direction, where))
    if results[0].passed_out and ruleset.second_auction and len(results) == 1:
        raise RecordError(
            "auctions",
            words(
                "the auction was passed out: ruleset %(ruleset)s needs the second auction",
                ruleset=ruleset.name,
            ),
        )
    return tuple(results)


def _trump(record: Mapping[str, Any], auction: AuctionResult) -> tuple[str | None, str | None]:
    raw = record.get("trump")
    contract = auction.contract
    if contract is None or contract.family == "ry":
        if raw is not None:
            raise RecordError("trump", _no_trump_to_name(contract))
        return None, None
    if auction.trump_in_bid is not None:
        _check_trump_not_named(raw, auction.trump_in_bid)
        return auction.trump_in_bid, "during"
    return _trump_named_after(raw), "after"


def _no_trump_to_name(contract: Bid | None) -> str:
    """Why a board has no trump to name: passed out, or a Ry."""
    if contract is None:
        return words("the board was passed out")
    return words("a Ry contract has no trump")


def _check_trump_not_named(raw: Any, trump_in_bid: str) -> None:
    """A trump announced in the bid is not named again."""
    if raw is not None:
        raise RecordError(
            "trump",
            words("the trump (%(trump)s) was already announced in the bid", trump=trump_in_bid),
        )


def _trump_named_after(raw: Any) -> str:
    """The trump the declarer named after the auction."""
    if raw is None:
        raise RecordError("trump", words("required: the trump was not announced in the bid"))
    name = TRUMP_ALIASES.get(raw.lower(), raw.lower()) if isinstance(raw, str) else None
    if name not in TRUMPS:
        raise RecordError(
            "trump",
            words("unknown trump %(value)s (fire, earth, water, wind or nt)", value=repr(raw)),
        )
    return name


def _trick_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(
            name, words("must be a whole number of tricks, not %(value)s", value=repr(value))
        )
    if not 0 <= value <= TOTAL_TRICKS:
        raise RecordError(
            name,
            words("%(value)s is out of range (0 to %(top)s)", value=value, top=TOTAL_TRICKS),
        )
    return value


def _team_tricks(
    raw: Mapping[str, Any], contract: Bid, auction: AuctionResult, revoke: Seat | None
) -> dict[str, int]:
    """``tricks`` per team, for a contract whose score needs no more."""
    if contract.family == "lon" or contract.code in ("R", "R2"):
        raise RecordError(
            "tricks",
            words(
                "%(contract)s needs the tricks per seat (N, E, S, W), not per team",
                contract=contract.words,
            ),
        )
    teams = {t: _trick_count(f"tricks.{t}", raw[t]) for t in ("NS", "EW")}
    _check_total(sum(teams.values()), contract, auction, None, revoke, teams)
    return teams


def _tricks(record: Mapping[str, Any], auction: AuctionResult, revoke: Seat | None):
    raw = record.get("tricks")
    contract = auction.contract
    if contract is None:
        if raw is not None:
            raise RecordError("tricks", words("the board was passed out: no tricks were played"))
        return None, None
    if raw is None:
        if revoke is not None:
            return None, None
        raise RecordError("tricks", words("required: the tricks taken, per seat or per team"))
    return _given_tricks(raw, contract, auction, revoke)


def _given_tricks(raw: Any, contract: Bid, auction: AuctionResult, revoke: Seat | None):
    """``(tricks per seat, tricks per team)``, one of them given."""
    if not isinstance(raw, dict):
        raise RecordError("tricks", words("must be an object of tricks per seat or per team"))
    keys = set(raw)
    if keys == SEAT_KEYS:
        seats = tuple(_trick_count(f"tricks.{s.name}", raw[s.name]) for s in Seat)
        _check_total(sum(seats), contract, auction, seats, revoke)
        return seats, None
    if keys == TEAM_KEYS:
        return None, _team_tricks(raw, contract, auction, revoke)
    raise RecordError(
        "tricks", words("keys must be N, E, S, W or NS, EW, not %(keys)s", keys=str(sorted(keys)))
    )


def _check_total(total, contract, auction, seats, revoke, teams=None) -> None:
    if total > TOTAL_TRICKS:
        raise RecordError(
            "tricks",
            words("add up to %(total)s, more than %(top)s", total=total, top=TOTAL_TRICKS),
        )
    if revoke is not None or total == TOTAL_TRICKS:
        return
    if contract.family != "ry":
        raise RecordError(
            "tricks", words("add up to %(total)s, not %(top)s", total=total, top=TOTAL_TRICKS)
        )
    # A lost Ry stops at the trick that loses it; a won one is played out.
    if _ry_taken(contract, auction.declarer, seats, teams) == 0:
        raise RecordError(
            "tricks",
            words(
                "add up to %(total)s, not %(top)s: only a lost Ry ends early, and this one is won",
                total=total,
                top=TOTAL_TRICKS,
            ),
        )


def _ry_taken(contract: Bid, declarer: Any, seats: Any, teams: Any) -> int:
    """The tricks a Ry's declarer took: his side's for R3."""
    if contract.code != "R3":
        return seats[declarer]
    return teams[declarer.team] if teams else seats[declarer] + seats[declarer.partner]


def _check_record_object(record: Any) -> None:
    """A JSON object of known fields, of this game when it says."""
    if not isinstance(record, dict):
        raise RecordError("record", words("must be a JSON object"))
    unknown = set(record) - RECORD_FIELDS
    if unknown:
        raise RecordError(sorted(unknown)[0], words("unknown field"))
    game = record.get("game")
    if game is not None and game != GAME_ID:
        raise RecordError(
            "game", words("%(value)s is not %(game)s", value=repr(game), game=repr(GAME_ID))
        )


def _check_nothing_played(double: str, revoke: Seat | None, illegal_trump: Seat | None) -> None:
    """A passed-out board has no double, no revoke, no illegal trump."""
    played = {
        "double": double != "none",
        "revoke": revoke is not None,
        "illegal_trump": illegal_trump is not None,
    }
    for name, was_given in played.items():
        if was_given:
            raise RecordError(name, words("the board was passed out: nothing was played"))


def read_board_record(record: Any, *, default_ruleset: str | None = None) -> BoardRecord:
    """Check a board record (a decoded JSON object) and return it in engine terms."""
    _check_record_object(record)
    ruleset = _ruleset(record, default_ruleset)
    options = _options(record)
    opening = _seat(record, "opening", "N")
    direction = _choice(record, "direction", "clockwise", DIRECTIONS)
    auctions = _auctions(record, ruleset, opening, direction)  # type: ignore[arg-type]
    final = auctions[-1]
    trump, announced = _trump(record, final)
    double = _choice(record, "double", "none", DOUBLES)
    revoke = _seat(record, "revoke", None)
    illegal_trump = _seat(record, "illegal_trump", None)
    if final.passed_out:
        _check_nothing_played(double, revoke, illegal_trump)
    if illegal_trump is not None and (trump is None or trump == "nt"):
        raise RecordError("illegal_trump", words("the contract has no trump suit"))
    seat_tricks, team_tricks = _tricks(record, final, revoke)
    return BoardRecord(
        ruleset=ruleset,
        options=options,
        opening=opening,  # type: ignore[arg-type]
        direction=direction,
        auctions=auctions,
        trump=trump,
        announced=announced,
        double=double,
        seat_tricks=seat_tricks,
        team_tricks=team_tricks,
        revoke=revoke,
        illegal_trump=illegal_trump,
    )
