"""The auction: call grammar, turn order, the ladder, end of auction, liability, legal calls."""

import pytest

from engine.games.pymtheg.auction import (
    BIDS,
    AuctionError,
    CallError,
    legal_next_calls,
    lowest_gam_above,
    parse_call,
    run_auction,
)
from engine.games.pymtheg.cards import Seat


@pytest.mark.parametrize(
    ("text", "seat", "code", "trump"),
    [
        ("N:P", Seat.N, None, None),
        ("e:pass", Seat.E, None, None),
        ("S:G", Seat.S, "G", None),
        ("S:Gam", Seat.S, "G", None),
        ("S:Gâm", Seat.S, "G", None),
        ("W:G+4/nt", Seat.W, "G+4", "nt"),
        ("W:Gâm +4/NT", Seat.W, "G+4", "nt"),
        ("N:gam+6/stone", Seat.N, "G+6", "earth"),
        ("N:R", Seat.N, "R", None),
        ("N:Ry", Seat.N, "R", None),
        ("N:Ry 2", Seat.N, "R2", None),
        ("N:r3", Seat.N, "R3", None),
        ("N:L", Seat.N, "L", None),
        ("N:Lon/fire", Seat.N, "L", "fire"),
        ("N:L/wind", Seat.N, "L", "wind"),
        ("N:G+2/water", Seat.N, "G+2", "water"),
    ],
)
def test_call_spellings(text, seat, code, trump):
    call = parse_call(text)
    assert call.seat == seat
    assert (call.bid.code if call.bid else None) == code
    assert call.trump == trump


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("G", "write SEAT:CALL"),
        ("X:G", "unknown seat"),
        ("N:G+7", "unknown call"),
        ("N:R/fire", "Ry bid never names a trump"),
        ("N:G/moon", "unknown call"),
        ("N:", "unknown call"),
        ("N:double", "unknown call"),
        (["N", "G"], "must be a string"),
        (None, "must be a string"),
    ],
)
def test_bad_calls(text, fragment):
    with pytest.raises(CallError, match=fragment):
        parse_call(text)


def test_ladder_order():
    order = ["G", "G+1", "G+2", "G+3", "R", "G+4", "R2", "G+5", "R3", "G+6", "L"]
    assert sorted(BIDS, key=lambda code: BIDS[code].rank) == order


@pytest.mark.parametrize(
    ("highest", "expected"),
    [
        (None, "G"),
        ("G", "G+1"),
        ("G+3", "G+4"),
        ("R", "G+4"),
        ("G+4", "G+5"),
        ("R2", "G+5"),
        ("R3", "G+6"),
        ("G+6", None),
        ("L", None),
    ],
)
def test_lowest_gam_above(highest, expected):
    rank = BIDS[highest].rank if highest else 0
    bid = lowest_gam_above(rank)
    assert (bid.code if bid else None) == expected


# The five worked examples of the manual's "Gâm over Ry" section.
LIABILITY_EXAMPLES = [
    (["N:G", "E:R", "S:G+4", "W:P", "N:P", "E:P"], "S", "G+4", 150),
    (["N:R", "E:P", "S:G+4", "W:P", "N:P"], "S", "G+4", 0),
    (["N:R", "E:P", "S:G+4", "W:G+5", "N:P", "S:P"], "W", "G+5", 0),
    (["N:R", "E:G+4", "S:P", "W:G+5", "N:P", "E:P"], "W", "G+5", 150),
    (["N:R", "E:G+4", "S:G+5", "W:G+6", "N:P", "E:P", "S:P"], "W", "G+6", 0),
]


@pytest.mark.parametrize(("calls", "declarer", "contract", "liability"), LIABILITY_EXAMPLES)
def test_manual_liability_examples(calls, declarer, contract, liability):
    result = run_auction(calls)
    assert result.declarer == Seat[declarer]
    assert result.contract.code == contract
    assert result.liability_amount == liability


@pytest.mark.parametrize(
    ("calls", "amount"),
    [
        (["N:R2", "E:G+5", "S:P", "W:P", "N:P"], 200),
        (["N:R3", "E:G+6", "S:P", "W:P", "N:P"], 1000),
        # Lon never carries the liability.
        (["N:R", "E:L", "S:P", "W:P", "N:P"], 0),
        # A Ry contract never carries it.
        (["N:G", "E:R", "S:R2", "W:P", "N:P", "E:P"], 0),
        # Liability created, then the Ry team bids again (clears), then the same team outbids.
        (["N:R", "E:G+4", "S:R2", "W:G+5", "N:P", "E:P", "S:P"], 200),
        # The liable team's Gâm is overbid by the Ry team's Gâm: the Ry team is not liable.
        (["N:R", "E:G+4", "S:G+5", "W:P", "N:P", "E:P"], 0),
    ],
)
def test_liability_cases(calls, amount):
    assert run_auction(calls).liability_amount == amount


def test_counterclockwise_turn_order_from_any_seat():
    result = run_auction(["E:G", "N:G+1", "W:P", "S:P", "E:P"], Seat.E, "counterclockwise")
    assert result.declarer == Seat.N
    with pytest.raises(AuctionError, match="it is North's turn"):
        run_auction(["E:G", "S:P"], Seat.E, "counterclockwise")


def test_passed_players_are_skipped():
    # N passes and is out; after W the turn goes to E, not N.
    result = run_auction(["N:P", "E:G", "S:G+1", "W:P", "E:G+2", "S:P"])
    assert result.declarer == Seat.E
    with pytest.raises(AuctionError, match="it is East's turn"):
        run_auction(["N:P", "E:G", "S:G+1", "W:P", "N:G+2"])


def test_players_may_overbid_their_partner():
    result = run_auction(["N:G", "E:P", "S:G+1", "W:P", "N:G+2", "S:P"])
    assert result.declarer == Seat.N and result.contract.code == "G+2"


def test_passed_out_auction():
    result = run_auction(["N:P", "E:P", "S:P", "W:P"])
    assert result.passed_out and result.declarer is None


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        (["N:G+1"], "N:G+1 at call 1: a Gâm bid as the first bid must be G"),
        (["N:G", "E:G+2"], "E:G+2 at call 2: a Gâm bid over G must be G+1"),
        (["N:R", "E:G+1"], "a Gâm bid over R must be G+4"),
        (["N:G+0"], "unknown call"),
        (["N:R2", "E:R"], "E:R at call 2: R does not rank above R2"),
        (["N:L", "E:G+6"], "no Gâm bid ranks above L"),
        (["N:L", "E:L"], "L does not rank above L"),
        (["E:G"], "it is North's turn"),
        (["N:G", "E:P", "S:P", "W:P", "N:P"], "N:P at call 5: the auction already ended at call 4"),
        (["N:G", "E:P"], "incomplete after 2 calls: South is to call"),
        ([], "incomplete after 0 calls: North is to call"),
    ],
)
def test_illegal_auctions(calls, message):
    with pytest.raises(AuctionError, match=message.replace("+", r"\+")):
        run_auction(calls)


def test_legal_next_calls_at_start():
    box = legal_next_calls([])
    assert box.seat == Seat.N
    assert box.calls[:7] == ["P", "G", "G/fire", "G/earth", "G/water", "G/wind", "G/nt"]
    assert "G+1" not in box.calls
    assert {"R", "R2", "R3", "L", "L/nt"} <= set(box.calls)


def test_legal_next_calls_over_ry():
    box = legal_next_calls(["N:G", "E:R"])
    assert box.seat == Seat.S
    codes = {c.split("/")[0] for c in box.calls}
    assert codes == {"P", "G+4", "R2", "R3", "L"}


def test_legal_next_calls_after_end():
    box = legal_next_calls(["N:G", "E:P", "S:P", "W:P"])
    assert box.ended and box.calls == [] and box.seat is None and not box.passed_out
    assert legal_next_calls(["N:P", "E:P", "S:P", "W:P"]).passed_out


def test_legal_next_calls_rejects_illegal_prefix():
    with pytest.raises(AuctionError, match="call 2"):
        legal_next_calls(["N:G", "E:G"])
