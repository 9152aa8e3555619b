"""``python -m engine deal`` and the deal notation it writes."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.games.pymtheg.cards import (
    FULL_DECK,
    SEATS,
    Card,
    DealError,
    Seat,
    format_deal,
    format_hand,
    parse_deal,
    seeded_deal,
)

ROOT = Path(__file__).resolve().parents[2]


def run_deal(capsys, *args):
    status = main(["deal", *args])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


# --- the command ----------------------------------------------------------------------------


def test_one_valid_deal_per_table_and_board(capsys):
    status, lines, _ = run_deal(capsys, "--tables", "3", "--boards", "2", "--seed", "club")
    assert status == 0
    assert len(lines) == 6
    deals = [parse_deal(line) for line in lines]
    assert len(set(deals)) == 6
    for deal in deals:
        assert sorted(card for seat in SEATS for card in deal.hand(seat)) == sorted(FULL_DECK)


def test_boards_default_to_one(capsys):
    _, lines, _ = run_deal(capsys, "--tables", "4", "--seed", "1")
    assert len(lines) == 4


def test_lines_are_tables_then_boards_from_the_seed(capsys):
    _, lines, _ = run_deal(capsys, "--tables", "2", "--boards", "2", "--seed", "club")
    expected = [format_deal(seeded_deal("club", t, b)) for t in (1, 2) for b in (1, 2)]
    assert lines == expected


def test_same_seed_same_deals(capsys):
    first = run_deal(capsys, "--tables", "5", "--seed", "spring-cup")[1]
    again = run_deal(capsys, "--tables", "5", "--seed", "spring-cup")[1]
    assert first == again


def test_different_seeds_differ(capsys):
    first = run_deal(capsys, "--tables", "5", "--seed", "a")[1]
    other = run_deal(capsys, "--tables", "5", "--seed", "b")[1]
    assert not set(first) & set(other)


def test_no_seed_gives_new_deals_each_run(capsys):
    first = run_deal(capsys, "--tables", "3")[1]
    again = run_deal(capsys, "--tables", "3")[1]
    assert len(first) == len(again) == 3
    assert all(parse_deal(line) for line in first + again)
    assert not set(first) & set(again)


@pytest.mark.parametrize("args", [["--tables", "0"], ["--tables", "2", "--boards", "0"]])
def test_zero_tables_or_boards_fail_with_a_message(capsys, args):
    status, lines, err = run_deal(capsys, *args)
    assert status != 0
    assert lines == []
    assert "--tables and --boards must be at least 1" in err


def test_command_line_end_to_end():
    command = [sys.executable, "-m", "engine", "deal", "--tables", "2", "--seed", "x"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [format_deal(seeded_deal("x", t, 1)) for t in (1, 2)]
    bad = [sys.executable, "-m", "engine", "deal", "--tables", "many"]
    done = subprocess.run(bad, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "--tables: invalid int value: 'many'" in done.stderr
    assert done.stdout == ""


# --- the notation ---------------------------------------------------------------------------

TEXT = "N:E74.C641.DA94.A853 FC82.FBA8.EB5.B962 DB953.D73.FC763.C7 A61.E952.821.FED41"
DEAL = parse_deal(TEXT)
HANDS = TEXT[2:].split()  # North, East, South, West


def with_hand(seat, text):
    hands = list(HANDS)
    hands[seat] = text
    return "N:" + " ".join(hands)


def test_round_trip_from_every_seat():
    for first in SEATS:
        text = format_deal(DEAL, first)
        assert text.startswith(f"{first.name}:")
        assert parse_deal(text) == DEAL


def test_output_is_upper_case_highest_first_and_input_is_case_insensitive():
    scrambled = "n:47e.146c.49ad.358a fc82.fba8.eb5.b962 db953.d73.fc763.c7 a61.e952.821.fed41"
    assert parse_deal(scrambled) == DEAL
    assert format_deal(parse_deal(scrambled)) == TEXT


def test_hands_are_read_clockwise_from_the_first_seat():
    deal = parse_deal(
        "E:FEDC.FEDC.FEDC.FED BA98.BA98.BA98.CBA 7654.7654.7654.987 321.321.321.654321"
    )
    assert Card.parse("FF") in deal.hand(Seat.E)
    assert Card.parse("FB") in deal.hand(Seat.S)
    assert Card.parse("F7") in deal.hand(Seat.W)
    assert Card.parse("I1") in deal.hand(Seat.N)


def test_voids_are_empty_groups():
    deal = parse_deal(
        "N:FEDCBA98.FED.FED.F .98765.98765.CBA98 7654321.CBA.CBA.ED .4321.4321.7654321"
    )
    assert not any(card.suit.name == "FIRE" for card in deal.hand(Seat.E))
    assert format_deal(deal).split()[1].startswith(".")


def test_a_rank_written_twice_in_a_hand():
    fire = HANDS[1].split(".")[0]
    text = with_hand(Seat.E, fire[0] + HANDS[1])
    rank = "123456789ABCDEF".index(fire[0]) + 1
    with pytest.raises(DealError, match=f"East hand, Fire: Fire {rank} is written twice"):
        parse_deal(text)


def test_a_card_in_two_hands_names_both_hands():
    # Swap one card of East for one of South's: South's card is then in two hands and East's
    # card in none, while every hand still holds 15.
    east_card = min(DEAL.hand(Seat.E))
    south_card = min(DEAL.hand(Seat.S))
    hands = {seat: set(DEAL.hand(seat)) for seat in SEATS}
    hands[Seat.E] = hands[Seat.E] - {east_card} | {south_card}
    text = "N:" + " ".join(format_hand(hands[seat]) for seat in SEATS)
    with pytest.raises(DealError, match=f"{south_card} is in both the East and South hands"):
        parse_deal(text)


def test_fourteen_cards_in_a_hand_names_the_hand():
    east = HANDS[1]
    text = with_hand(Seat.E, east.replace(east.strip(".")[0], "", 1))
    with pytest.raises(DealError, match="East hand holds 14 cards"):
        parse_deal(text)


def test_a_missing_card_is_named():
    east = HANDS[1]
    text = with_hand(Seat.E, east.replace(east.strip(".")[0], "", 1))
    with pytest.raises(DealError, match="Fire 15 is in no hand"):
        parse_deal(text)


def test_a_card_copied_into_a_second_hand_is_named():
    west_wind = HANDS[3].split(".")[3]
    east = HANDS[1] + west_wind[0]  # East gets a 16th card, one of West's Winds
    with pytest.raises(DealError, match="Wind 15 is in both the East and West hands"):
        parse_deal(with_hand(Seat.E, east))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            with_hand(Seat.W, HANDS[3][:1] + "G" + HANDS[3][1:]),
            "West hand, Fire: 'G' is not a card",
        ),
        (with_hand(Seat.S, HANDS[2] + ".5"), "South hand .* has 5 suit groups, not 4"),
        (with_hand(Seat.N, HANDS[0].rsplit(".", 1)[0]), "North hand .* has 3 suit groups, not 4"),
        (with_hand(Seat.E, HANDS[1].replace(".", "0.", 1)), "East hand, Fire: '0' is not a card"),
        ("X:" + TEXT[2:], "unknown seat 'X'"),
        (TEXT[2:], "starts with the first seat's letter and a colon"),
        (TEXT + " 123...", "a deal has 4 hands separated by spaces, this one has 5"),
        ("N:" + " ".join(HANDS[:3]), "this one has 3"),
        (None, "a deal must be a string"),
    ],
)
def test_notation_errors(text, message):
    with pytest.raises(DealError, match=message):
        parse_deal(text)
