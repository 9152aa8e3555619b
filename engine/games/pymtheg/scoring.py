"""Contract scores, revokes and table results.

``score_record`` takes a board record (decoded JSON) and returns the board score of the
interchange formats. The arithmetic follows the rulebook; where it was silent, the ruling is
written beside the code and in ``docs/rules-rulings.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.pymtheg.auction import Bid
from engine.games.pymtheg.cards import Seat
from engine.games.pymtheg.records import TOTAL_TRICKS, BoardRecord, read_board_record
from engine.games.pymtheg.rulesets import Ruleset


@dataclass(frozen=True)
class BoardScore:
    contract: str | None
    declarer: str | None
    playing: str | None
    trump: str | None
    announced: str | None
    double: str
    made: bool | None
    liability: int
    declarer_score: int | None
    ns: int | None
    ew: int | None
    passed_out: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "playing": self.playing,
            "trump": self.trump,
            "announced": self.announced,
            "double": self.double,
            "made": self.made,
            "liability": self.liability,
            "declarer_score": self.declarer_score,
            "ns": self.ns,
            "ew": self.ew,
            "passed_out": self.passed_out,
            "seats": {"N": self.ns, "E": self.ew, "S": self.ns, "W": self.ew},
        }


def gam_score(rec: BoardRecord, bid: Bid, team_tricks: int, liability: int) -> tuple[int, bool]:
    """The playing party's score for a Gâm-family contract before doubling, and whether made."""
    rules, options = rec.ruleset, rec.options
    kind = "nt" if rec.trump == "nt" else "trump"
    base = rules.gam_base[kind][rec.announced][bid.level]  # type: ignore[index]
    unit = rules.gam_trick_unit[kind]
    required = bid.required_tricks
    if team_tricks >= required:
        score = base + (team_tricks - required) * unit
        if team_tricks == TOTAL_TRICKS and bid.level < 6:
            score += options.all_tricks_bonus
        return score, True
    score = -(base + (required - team_tricks) * unit + liability)
    if TOTAL_TRICKS - team_tricks >= required:
        score -= options.heavy_failure_penalty
    return score, False


def lon_score(rec: BoardRecord, won: bool, opponent_tricks: int) -> int:
    values = rec.ruleset.lon["nt" if rec.trump == "nt" else "trump"]
    value = values.value + (values.announced_during_bonus if rec.announced == "during" else 0)
    return value if won else -(value + values.per_opponent_trick * opponent_tricks)


def ry_score(rules: Ruleset, bid: Bid, won: bool, partner_tricks: int) -> int:
    values = rules.ry[bid.code]
    penalty = values.partner_trick * partner_tricks
    return values.value - penalty if won else -values.value - penalty


def _contract_outcome(
    rec: BoardRecord, bid: Bid, declarer: Seat, liability: int
) -> tuple[int, bool]:
    """Score before doubling of a contract played to its end (no revoke)."""
    team = declarer.team
    if bid.family == "gam":
        return gam_score(rec, bid, rec.tricks_of_team(team), liability)
    opponents = "EW" if team == "NS" else "NS"
    if bid.family == "lon":
        won = rec.tricks_of_seat(declarer) == TOTAL_TRICKS
        return lon_score(rec, won, rec.tricks_of_team(opponents)), won
    if bid.code == "R3":
        won = rec.tricks_of_team(team) == 0
    else:
        won = rec.tricks_of_seat(declarer) == 0
    return ry_score(rec.ruleset, bid, won, rec.tricks_of_seat(declarer.partner)), won


def _revoke_outcome(
    rec: BoardRecord, bid: Bid, declarer: Seat, liability: int
) -> tuple[float, bool]:
    """Score before doubling after a revoke: the worst case for the offender's side."""
    assert rec.revoke is not None
    by_playing_party = rec.revoke.team == declarer.team
    rules = rec.ruleset
    if bid.family == "gam":
        tricks = 0 if by_playing_party else TOTAL_TRICKS
        return gam_score(rec, bid, tricks, liability)
    if bid.family == "lon":
        return lon_score(rec, not by_playing_party, TOTAL_TRICKS if by_playing_party else 0), (
            not by_playing_party
        )
    # Ry family: the partner's tricks are those recorded before the revoke.
    score: float = ry_score(rules, bid, not by_playing_party, rec.tricks_of_seat(declarer.partner))
    if by_playing_party:
        score = score * rules.revoke_ry_offender_factor
    return score, not by_playing_party


def _passed_out_score(rec: BoardRecord) -> BoardScore:
    if not rec.ruleset.second_auction:
        return BoardScore(None, None, None, None, None, "none", None, 0, None, None, None, True)
    result = rec.ruleset.second_passed_out_result
    return BoardScore(None, None, None, None, None, "none", None, 0, None, result, result, True)


def _penalties(rec: BoardRecord, declarer: Seat) -> int:
    """What the revoke's extra points and the illegal trump's penalty add to the declarer's
    score: against his side when it offended, for it when the defenders did."""
    score = 0
    if rec.revoke is not None and rec.ruleset.revoke_extra:
        by_playing_party = rec.revoke.team == declarer.team
        score += -rec.ruleset.revoke_extra if by_playing_party else rec.ruleset.revoke_extra
    if rec.illegal_trump is not None and rec.options.illegal_trump_penalty:
        by_playing_party = rec.illegal_trump.team == declarer.team
        penalty = rec.options.illegal_trump_penalty
        score += -penalty if by_playing_party else penalty
    return score


def score_board(rec: BoardRecord) -> BoardScore:
    """The board score of a checked record."""
    auction = rec.final_auction
    bid, declarer = auction.contract, auction.declarer
    if bid is None or declarer is None:
        return _passed_out_score(rec)
    liability = auction.liability_amount
    raw: float
    if rec.revoke is None:
        raw, made = _contract_outcome(rec, bid, declarer, liability)
    else:
        raw, made = _revoke_outcome(rec, bid, declarer, liability)
    score = round(raw * rec.multiplier) + _penalties(rec, declarer)
    charge = rec.ruleset.first_passed_out_charge if len(rec.auctions) == 2 else 0
    playing = declarer.team
    ns = (score if playing == "NS" else -score) + charge
    ew = (score if playing == "EW" else -score) + charge
    return BoardScore(
        contract=bid.code,
        declarer=declarer.name,
        playing=playing,
        trump=rec.trump,
        announced=rec.announced,
        double=rec.double,
        made=made,
        liability=liability,
        declarer_score=score,
        ns=ns,
        ew=ew,
        passed_out=False,
    )


def score_record(record: Any, *, default_ruleset: str | None = None) -> BoardScore:
    """Check and score one board record; raises ``RecordError`` if it cannot be scored."""
    return score_board(read_board_record(record, default_ruleset=default_ruleset))
