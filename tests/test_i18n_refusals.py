"""The engine's refusals of an impossible entry (its record readers' ``RecordError``) given in
French: the English sentence unchanged, its French with no English word left."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.utils import translation

from engine.core.errors import RecordError
from engine.games import get_game
from tests.test_i18n import english_left
from tournaments.templatetags.languages import translated

# The record's own keys and values, which stay as written in any language.
KEYS = {
    "seat",
    "card",
    "tricks",
    "partner",
    "bid",
    "sparrow",
    "slam",
    "none",
    "contra",
    "re",
    "play",
    "out_of_turn",
}


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    record = copy.deepcopy(base)
    for name, value in fields.items():
        if value is ...:
            record.pop(name, None)
        else:
            record[name] = value
    return record


def refusal(game: str, record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        get_game(game).score(record)
    return caught.value


def in_french(error: RecordError) -> str:
    with translation.override("fr"):
        return str(translated(error.words))


def check_french(game: str, record: dict[str, Any], english: str, french: str) -> None:
    error = refusal(game, record)
    assert str(error) == english == error.words
    said = in_french(error)
    assert said == french
    assert not english_left(said, KEYS | {error.field}), said


TWENTY = {"dealer": "N", "auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "W",
          "points": 57, "tricks": 6}  # fmt: skip
SPARROW = {"dealer": "S", "auction": ["W:PART", "N:P+SPARROW", "E:P", "S:P"], "points": 55,
           "tricks": 5, "last": {"seat": "N", "card": "T1"}}  # fmt: skip
PER_SEAT = {"dealer": "S", "auction": ["W:PART", "N:NT", "E:P", "S:P", "W:P"],
            "points": {"N": 40, "E": 30, "S": 20, "W": 12},
            "tricks": {"N": 4, "E": 3, "S": 2, "W": 1}}  # fmt: skip

TWENTY_BAD = [
    (changed(TWENTY, points=...), "points: missing (the declarer's side's points, 0 to 102)",
     "points : manquant (les points du camp du preneur, de 0 à 102)"),
    (changed(TWENTY, tricks=11), "tricks: 11 is not a whole number from 0 to 10",
     "tricks : 11 n’est pas un nombre entier de 0 à 10"),
    (changed(TWENTY, points=90, tricks=1),
     "points: the declarer's side cannot have 90 points with 1 trick (5 to 21)",
     "points : le camp du preneur ne peut pas avoir 90 points avec 1 levée (de 5 à 21)"),
    (changed(TWENTY, auction=["E:PART", "S:P"]), "auction: not finished: W has still to call",
     "auction : pas terminées : O doit encore parler"),
    (changed(TWENTY, called="T1"), "called: T1 is not a trump from T4 to T20",
     "called : T1 n’est pas un atout de T4 à T20"),
    (changed(TWENTY, partner="E"), "partner: E is Eldest, who cannot be his own partner",
     "partner : E est le premier à parler, il ne peut pas être son propre partenaire"),
    (changed(TWENTY, partner=...),
     "partner: missing: a Partnership needs the partner (give partner, or the deal)",
     "partner : manquant : un Appel demande l’appelé (donnez partner, ou la donne)"),
    (changed(TWENTY, contras={"slam": "none"}), "contras: slam: no slam stands in this auction",
     "contras : slam : aucun slam ne tient dans ces enchères"),
    (changed(SPARROW, last=...), "last: missing: a Sparrow stands (who won the last trick, with)",
     "last : manquant : le Petit tient (qui a fait la dernière levée, et avec quelle carte)"),
    (changed(PER_SEAT, tricks={"N": 4, "E": 3, "S": 2, "W": 2}),
     "tricks: the seats add up to 11, not 10", "tricks : les places totalisent 11, et non 10"),
    (changed(TWENTY, auction=["S:PART", "W:P", "N:P", "E:P"]),
     "auction: call 1 ('S:PART'): out of turn: it is E's call",
     "auction : annonce 1 ('S:PART') : hors tour : c’est à E de parler"),
    (changed(TWENTY, auction=["E:PART", "S:SOLO", "W:P", "N:P", "E:P"]),
     "auction: call 2 ('S:SOLO'): SOLO is not the lowest bid not yet made (NT)",
     "auction : annonce 2 ('S:SOLO') : SOLO n’est pas la plus basse enchère pas encore faite "
     "(NT)"),
    (changed(TWENTY, auction=["E:P", "S:P", "W:P", "N:P"]),
     "auction: call 1 ('E:P'): Eldest E must open with Partnership (PART)",
     "auction : annonce 1 ('E:P') : le premier, E, doit ouvrir par un Appel (PART)"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "english", "french"), TWENTY_BAD)
def test_twenty_refuses_an_impossible_entry_in_french(record, english, french):
    check_french("twenty", record, english, french)


GAM = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 9, "EW": 6}}
RY = {"auctions": [["N:R", "E:P", "S:P", "W:P"]], "tricks": {"N": 0, "E": 5, "S": 5, "W": 5}}
PASSED = {"auctions": [["N:P", "E:P", "S:P", "W:P"]]}

PYMTHEG_BAD = [
    (changed(GAM, tricks={"NS": 10, "EW": 6}), "tricks: add up to 16, more than 15",
     "tricks : totalisent 16, plus de 15"),
    (changed(GAM, tricks=...), "tricks: required: the tricks taken, per seat or per team",
     "tricks : obligatoire : les levées faites, par place ou par camp"),
    (changed(GAM, trump="lava"), "trump: unknown trump 'lava' (fire, earth, water, wind or nt)",
     "trump : atout inconnu 'lava' (fire, earth, water, wind ou nt)"),
    (changed(RY, trump="fire"), "trump: a Ry contract has no trump",
     "trump : un contrat Ry n’a pas d’atout"),
    (changed(RY, tricks={"NS": 0, "EW": 15}),
     "tricks: Ry needs the tricks per seat (N, E, S, W), not per team",
     "tricks : Ry demande les levées par place (N, E, S, W), et non par camp"),
    (changed(GAM, tricks={"NS": 16, "EW": 6}), "tricks.NS: 16 is out of range (0 to 15)",
     "tricks.NS : 16 est hors limites (de 0 à 15)"),
    (changed(PASSED, revoke="N"),
     "auctions: the auction was passed out: ruleset manual-2016 needs the second auction",
     "auctions : tous ont passé : le règlement manual-2016 demande la seconde séquence "
     "d’enchères"),
    (changed(GAM, trump="nt", illegal_trump="E"), "illegal_trump: the contract has no trump suit",
     "illegal_trump : le contrat n’a pas de couleur d’atout"),
    (changed(GAM, trick=3), "trick: unknown field", "trick : champ inconnu"),
    (changed(GAM, auctions=[["N:G", "E:G+2"]]),
     "auctions[0]: E:G+2 at call 2: a Gâm bid over G must be G+1",
     "auctions[0] : E:G+2 à l’annonce 2 : une enchère Gâm sur G doit être G+1"),
    (changed(GAM, auctions=[["N:G", "E:P", "S:P"]]),
     "auctions[0]: the auction is incomplete after 3 calls: West is to call",
     "auctions[0] : les enchères sont incomplètes après 3 annonces : c’est à Ouest de parler"),
    (changed(GAM, auctions=[["N:G", "S:P"]]), "auctions[0]: S:P at call 2: it is East's turn",
     "auctions[0] : S:P à l’annonce 2 : c’est à Est de parler"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "english", "french"), PYMTHEG_BAD)
def test_pymtheg_refuses_an_impossible_entry_in_french(record, english, french):
    check_french("pymtheg", record, english, french)


PYRAMID = {"game": "pyramid", "players": 4, "dealer": "N", "declared": 3, "trump": "hearts",
           "won": 2}  # fmt: skip

PYRAMID_BAD = [
    (changed(PYRAMID, declarer="S"),
     "declarer: S does not declare: E does, the first player after the dealer N (clockwise, "
     "4 players)",
     "declarer : S n’est pas le déclarant : c’est E, le premier joueur après le donneur N (sens "
     "des aiguilles d’une montre, 4 joueurs)"),
    (changed(PYRAMID, declared=...), "declared: missing (the declaration, 0 to 6)",
     "declared : manquante (l’annonce, de 0 à 6)"),
    (changed(PYRAMID, declared=7), "declared: 7 is not an integer 0 to 6",
     "declared : 7 n’est pas un nombre entier de 0 à 6"),
    (changed(PYRAMID, trump="hats"), "trump: 'hats' is not spades, hearts, diamonds, clubs or nt",
     "trump : 'hats' n’est ni spades, ni hearts, ni diamonds, ni clubs, ni nt"),
    (changed(PYRAMID, won=...), "won: missing (the declarer's tricks; or give tricks or play)",
     "won : manquant (les levées du déclarant ; ou donnez tricks ou play)"),
    (changed(PYRAMID, tricks={"N": 1, "E": 1, "S": 2, "W": 2}),
     "won: 2 differs from the declarer's tricks (E: 1)",
     "won : 2 diffère des levées du déclarant (E : 1)"),
    (changed(PYRAMID, tricks={"N": 1, "E": 1, "S": 2, "W": 3}), "tricks: add up to 7, not 6",
     "tricks : totalisent 7, et non 6"),
    (changed(PYRAMID, play=[]), "play: needs the deal (the play is checked against its hands)",
     "play : demande la donne (le jeu de la carte est vérifié sur ses mains)"),
    (changed(PYRAMID, players=3, dealer="W"),
     "dealer: 'W' is not a seat at a table of 3 (N, E or S)",
     "dealer : 'W' n’est pas une place d’une table de 3 (N, E ou S)"),
    (changed(PYRAMID, players=5), "players: 5 is not 2, 3 or 4",
     "players : 5 n’est ni 2, ni 3, ni 4"),
    (changed(PYRAMID, dealer=...), "dealer: missing (the dealer's seat; or give the deal)",
     "dealer : manquant (la place du donneur ; ou donnez la donne)"),
    (changed(PYRAMID, players=3, won=..., tricks={"N": 1, "E": 2, "W": 3}),
     "tricks: 'W' is not a seat at a table of 3 (the keys are exactly N, E, S)",
     "tricks : 'W' n’est pas une place d’une table de 3 (les clés sont exactement N, E, S)"),
    (changed(PYRAMID, won=..., tricks={"N": 1, "E": 2, "S": 3}),
     "tricks: seat W is missing (the keys are exactly N, E, S, W)",
     "tricks : la place W manque (les clés sont exactement N, E, S, W)"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "english", "french"), PYRAMID_BAD)
def test_pyramid_refuses_an_impossible_entry_in_french(record, english, french):
    check_french("pyramid", record, english, french)


PYS = {"game": "pysngtaut", "players": 3, "up": "3S", "winner": "E",
       "melds": {"E": [["QH", "QD", "QS", "QC"], ["7H", "7D", "7S", "3H"]]},
       "hands": {"N": ["KC", "9D"], "S": ["4H"]}}  # fmt: skip

PYSNGTAUT_BAD = [
    (changed(PYS, dead=True), "winner: E went out, but dead is true",
     "winner : E est sorti, mais dead vaut true"),
    (changed(PYS, melds={"E": [["QH", "QD", "QS", "QC"], ["6H", "6D", "3C"]]}),
     "melds.E[1]: a three-card set, but E has 1 set of four or more (two needed)",
     "melds.E[1] : une combinaison de trois cartes, mais E a 1 combinaison de quatre cartes ou "
     "plus (il en faut deux)"),
    (changed(PYS, hands={"N": ["KC", "9D"], "S": []}),
     "hands.S: S holds no cards, but he did not go out",
     "hands.S : S n’a aucune carte, mais il n’est pas sorti"),
    (changed(PYS, hands={"N": ["KC", "XX"], "S": ["4H"]}),
     "hands.N[1]: 'XX' is not a card (rank A 2-9 T J Q K and suit S H D C, or JK)",
     "hands.N[1] : 'XX' n’est pas une carte (rang A 2-9 T J Q K et couleur S H D C, ou JK)"),
    (changed(PYS, hands={"N": ["QH", "9D"], "S": ["4H"]}),
     "hands.N[0]: QH appears too often: the packs hold it once",
     "hands.N[0] : QH apparaît trop souvent : les jeux ne la contiennent qu’une fois"),
    (changed(PYS, penalties=[{"seat": "N", "kind": "cheating"}]),
     "penalties[0].kind: 'cheating' is not a penalty (improper_draw, improper_meld, out_of_turn)",
     "penalties[0].kind : 'cheating' n’est pas une pénalité (improper_draw, improper_meld, "
     "out_of_turn)"),
    (changed(PYS, penalties=[{"seat": "E", "kind": "improper_draw"}]),
     "penalties[0]: the winner E cannot have improper_draw: the offender cannot win",
     "penalties[0] : le gagnant E ne peut pas avoir improper_draw : le fautif ne peut pas "
     "gagner"),
    (changed(PYS, melds={"E": [["QH", "QD", "QS", "QC"]]}),
     "melds.E: the winner E has 1 set of four or more; going out needs two",
     "melds.E : le gagnant E a 1 combinaison de quatre cartes ou plus ; il en faut deux pour "
     "sortir"),
    (changed(PYS, melds={"E": [["QH", "QD", "QS", "QC"], ["7H", "7D", "7S", "4H"]]}),
     "melds.E[1]: cards of two ranks, 7 and 4; only 3 is wild",
     "melds.E[1] : cartes de deux hauteurs, 7 et 4 ; seul 3 est joker"),
    (changed(PYS, melds={"E": [["QH", "QD", "QS", "QC"], ["7H", "7D"]]}),
     "melds.E[1]: 2 cards; a set has at least 3",
     "melds.E[1] : 2 cartes ; une combinaison en a au moins 3"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "english", "french"), PYSNGTAUT_BAD)
def test_pysngtaut_refuses_an_impossible_entry_in_french(record, english, french):
    check_french("pysngtaut", record, english, french)
