"""The entry and the deal (GAMES.md, "What the phone may learn"): the entry form holds no card
of a board's deal, whatever the deal; North enters the turned-up card, and what he enters is
scored without the deal; a simulated board's entry scores the same without the deal as with
it, and an entry with another turned-up card is always caught by the check against the deal,
never by anything the table is answered."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RecordError
from engine.games.pysngtaut.cards import CARD_CODES, CARD_TEXT, RANK_CHARS
from engine.games.pysngtaut.game import GAME, SET_RESTRICTIONS
from engine.games.pysngtaut.sets import CATEGORY_IDS, FLAGS, SetFault, read_set

SEATS = "NESW"


def random_settings(rng: random.Random) -> dict:
    chosen = {"direction": rng.choice(("clockwise", "counterclockwise"))}
    chosen.update({name: rng.choice(("off", "on")) for name in FLAGS})
    for category in CATEGORY_IDS:
        if rng.random() < 0.2:
            chosen["value_" + category.replace("-", "_")] = rng.randrange(0, 30000)
    return GAME.settings(chosen)


def test_the_entry_form_is_the_same_whatever_the_deal():
    seed = 20260315
    print(f"seed {seed}")
    rng = random.Random(seed)
    for round_ in range(60):
        players = rng.choice((2, 3, 4))
        dealer = rng.choice(SEATS[:players])
        chosen = random_settings(rng)
        table = rng.randrange(1, 20)
        context = {"players": players, "dealer": dealer, "settings": chosen, "table": table}
        without = GAME.entry_form(**context)
        text = json.dumps(without, sort_keys=True)
        for _ in range(8):
            deal = GAME.deal_cards(rng, players=players, dealer=dealer)
            for given_deal in (deal, GAME.format_deal(deal)):
                form = GAME.entry_form(**context, deal=given_deal)
                assert json.dumps(form, sort_keys=True) == text, (round_, GAME.format_deal(deal))
            # Even told a turned-up card, the form does not follow it.
            assert GAME.entry_form(**context, up=CARD_TEXT[deal.up]) == without
        assert "up" not in without and "cards" not in without and "problem" not in without


def test_scorer_facts_carry_the_turned_up_card():
    deal = GAME.seeded_deal("facts", 1, 2, 4)
    record = GAME.simulate_record(deal, random.Random(3), GAME.default_settings)
    assert "up" not in record  # a simulated record carries its deal
    facts = GAME.scorer_facts(record, GAME.score(record))
    assert facts["up"] == CARD_TEXT[deal.up] and set(facts) <= GAME.entry_fields
    entered = {**record, "up": CARD_TEXT[deal.up].lower()}
    entered.pop("deal")
    assert GAME.scorer_facts(entered, GAME.score(entered))["up"] == CARD_TEXT[deal.up]


def test_the_words_of_an_entry_name_only_the_card_entered():
    deal = GAME.seeded_deal("words", 1, 1, 3)
    record = GAME.simulate_record(deal, random.Random(1), GAME.default_settings)
    score = GAME.score(record)
    assert "Turned up" not in dict(GAME.entry_in_words(record, score))  # the deal's: never
    facts = GAME.scorer_facts(record, score)
    entered = GAME.entry_record(
        facts, settings=GAME.default_settings, table=1, players=3, dealer="N", deal=""
    )
    words = dict(GAME.entry_in_words(entered, GAME.score(entered)))
    assert words["Turned up"] == GAME.hands_in_words(deal)[0][1]


def deal_less(facts: dict, players: int, chosen: dict, dealer: str) -> dict:
    return GAME.entry_record(
        facts, settings=chosen, table=1, players=players, dealer=dealer, deal=""
    )


def picker_allows(facts: dict, players: int, chosen: dict) -> bool:
    """What the phone's picker lets North send, in the engine's terms: every card within the
    copies ``entry_options`` leaves for the turned-up card entered, every set a set under its
    wild rank and the table's options, the god card where it may lie."""
    options = GAME.entry_options(players=players, up=facts["up"], settings=chosen)
    counts: Counter[str] = Counter()
    wild = None if options["wild"] is None else RANK_CHARS.index(options["wild"])
    flags = {name: chosen.get(name) == "on" for name in SET_RESTRICTIONS}
    for sets in facts.get("melds", {}).values():
        for cards in sets:
            counts.update(cards)
            try:
                read_set([CARD_CODES[c] for c in cards], wild, **flags)
            except SetFault:
                return False
    for held in facts.get("hands", {}).values():
        counts.update(held)
    if facts.get("god"):
        counts["JK"] += 1
    if facts.get("god") not in options["god"]:
        return False
    return all(used <= options["cards"].get(card, 0) for card, used in counts.items())


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from((2, 3, 4)),
    board=st.integers(1, 8),
    flags=st.sets(st.sampled_from(FLAGS)),
    direction=st.sampled_from(("clockwise", "counterclockwise")),
    other=st.integers(0, 52),
)
def test_the_box_and_the_server_agree(seed, players, board, flags, direction, other):
    """A simulated board's entry is allowed by the picker, scores without the deal as with
    it (never goes to the director); the same entry with another turned-up card is always
    caught by the deal check, and refused or scored without the deal exactly when the picker
    refuses or allows it."""
    chosen = GAME.settings({"direction": direction, **dict.fromkeys(flags, "on")})
    deal = GAME.seeded_deal(seed, 1, board, players)
    record = GAME.simulate_record(deal, random.Random(seed), chosen)
    score = GAME.score(record)
    facts = GAME.scorer_facts(record, score)
    assert picker_allows(facts, players, chosen)
    entered = deal_less(facts, players, chosen, deal.dealer)
    entered_score = GAME.score(entered)
    assert entered_score == score
    assert GAME.entry_problem(entered, entered_score) is None
    with_deal = {**entered, "deal": GAME.format_deal(deal)}
    assert GAME.score(with_deal) == entered_score  # no disagreement: not to the director

    wrong = CARD_TEXT[other]
    if other == deal.up:
        return
    changed = {**facts, "up": wrong}
    with pytest.raises(RecordError) as caught:
        GAME.score({**deal_less(changed, players, chosen, deal.dealer), "deal": with_deal["deal"]})
    assert caught.value.field == "deal"
    try:
        GAME.score(deal_less(changed, players, chosen, deal.dealer))
    except RecordError as refused:
        assert refused.field, str(refused)
        assert not picker_allows(changed, players, chosen), str(refused)
    else:
        assert picker_allows(changed, players, chosen)
