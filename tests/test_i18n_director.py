"""The director's pages and the engine's words of a board in French: every director page of
every registered game, with a board confirmed, a board disputed, an adjusted result and a
form sent back with its errors, shows no English sentence; the score sentences of every game
(simulated boards from a fixed seed, and hand-made scores for the rarer branches) translate
whole, their values too."""

from __future__ import annotations

import random
import re
from html import escape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.core.messages import Words
from engine.games import GAME_IDS, get_game
from scoring import services
from tests.test_i18n import _data_of, _french_event, english_left, shown_text
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import Match, Status, Tournament
from tournaments.templatetags.languages import translated

SEED = 20261127
# The product's games (the tests' own game, tests/games/duo, speaks English only).
GAMES = list(GAME_IDS)

# English words of the engine's score sentences that French does not use, besides the page
# test's (tests.test_i18n.ENGLISH_WORDS).
SCORE_WORDS = frozenset(
    [
        "plays",
        "made",
        "lost",
        "won",
        "trick",
        "tricks",
        "declared",
        "took",
        "exact",
        "went",
        "out",
        "set",
        "sets",
        "worth",
        "held",
        "dead",
        "hand",
        "passed",
        "doubled",
        "redoubled",
        "named",
        "auction",
        "bid",
        "team",
        "each",
        "includes",
        "overbidding",
        "turned",
        "pile",
        "top",
        "dealer",
        "front",
        "anybody",
        "nobody",
        "god",
        "card",
        "improper",
        "draw",
        "meld",
        "turn",
        "kings",
        "honours",
        "sparrow",
        "slam",
        "partnership",
        "result",
        "fire",
        "earth",
        "water",
        "wind",
    ]
)


def _english_words(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[A-Za-z']+", text) if not word.isupper()}


def _in_french(text: Any) -> str:
    with translation.override("fr"):
        return str(translated(text))


def _english_left(text: Any) -> list[str]:
    """The English of one of the engine's texts rendered in French: a word of the page test
    or of the score sentences."""
    french = _in_french(text)
    left = english_left(f"<p>{escape(french)}</p>", set())
    return left + sorted(_english_words(french) & SCORE_WORDS)


# --- the engine's words of a board ------------------------------------------------------------


def _simulated_boards(game_id: str, count: int = 8) -> list[tuple[dict, dict]]:
    """``count`` boards of the game played by the simple player, dealt from ``SEED``."""
    game = get_game(game_id)
    rng = random.Random(f"{SEED}-{game_id}")
    settings = game.default_settings
    players = max(game.table_sizes)
    boards = []
    for board in range(1, count + 1):
        dealer = game.dealer(board, players)
        deal = game.deal_cards(rng, players=players, dealer=dealer)
        record = game.simulate_record(
            deal, rng, settings, table=1, players=players, dealer=dealer, board=board
        )
        boards.append((record, game.score(record, settings)))
    return boards


def _item(name: str, by: str, base: int, contra: str, value: int, won: bool) -> dict[str, Any]:
    return {"item": name, "by": by, "base": base, "contra": contra, "value": value, "won": won}


# Scores made by hand for the branches a few simulated boards may not reach.
RARE_SCORES: dict[str, list[dict[str, Any]]] = {
    "pymtheg": [
        {"contract": None, "ns": None},
        {"contract": None, "ns": -40},
        {
            "contract": "G+4",
            "declarer": "S",
            "trump": "nt",
            "announced": "after",
            "double": "xx",
            "made": False,
            "declarer_score": -276,
            "playing": "NS",
            "liability": 30,
        },
        {
            "contract": "R",
            "declarer": "W",
            "trump": None,
            "double": "x",
            "made": True,
            "declarer_score": 150,
            "playing": "EW",
        },
    ],
    "pyramid": [
        {"declarer": "E", "declared": 1, "trump": "nt", "won": 1, "points": 10, "exact": True},
        {"declarer": "S", "declared": 0, "trump": "clubs", "won": 3, "points": 4, "exact": False},
    ],
    "twenty": [
        {
            "contract": "PART",
            "declarer": "E",
            "partner": "W",
            "points": 58,
            "tricks": 1,
            "made": True,
            "items": [
                _item("bid", "E", 1, "contra", 2, True),
                _item("sparrow", "W", 4, "re", 16, True),
                _item("slam", "E", 12, "none", 12, False),
                _item("honours", "W", 1, "none", 1, True),
                _item("kings", "N", 1, "none", 1, True),
            ],
            "seats": {"N": -19, "E": 17, "S": -19, "W": 21},
        }
    ],
    "pysngtaut": [
        {
            "winner": "E",
            "multiplier": 3,
            "god": "N",
            "sets": [{"cards": ["QH", "QD", "QS"], "category": "3-natural-face", "value": 20000}],
            "payments": [
                {"from": "N", "to": "E", "amount": 10, "for": "settlement"},
                {"from": "S", "to": "E", "amount": 10, "for": "improper_meld"},
                {"from": "W", "to": "E", "amount": 10, "for": "out_of_turn"},
                {"from": "W", "to": "E", "amount": 10, "for": "improper_draw"},
            ],
            "seats": {"N": -10, "E": 40, "S": -10, "W": -20},
        },
        {
            "winner": None,
            "god": None,
            "sets": [],
            "payments": [{"from": "N", "to": "pot", "amount": 65, "for": "pot"}],
            "seats": {"N": -65, "E": 0, "S": 0, "W": 0},
        },
    ],
}


def test_every_game_has_its_rare_scores():
    assert set(RARE_SCORES) == set(GAMES), "add hand-made scores for a new game"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_score_sentences_of_simulated_boards_are_french_whole(game_id):
    print(f"seed {SEED}")
    game = get_game(game_id)
    for record, score in _simulated_boards(game_id):
        sentence = game.describe(score)
        assert isinstance(sentence, Words), f"{game_id}: describe() gives no engine words"
        assert not _english_left(sentence), (sentence, _in_french(sentence))
        assert _in_french(sentence) != sentence
        for label, text in game.entry_in_words(record, score):
            assert not _english_left(label), (label, _in_french(label))
            assert not _english_left(text), (text, _in_french(text))
        for title, calls in game.calls_in_words(record):
            assert not _english_left(title)
            for seat, call in calls:
                assert not _english_left(seat) and not _english_left(call), (seat, call)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rarer_score_sentences_are_french_whole(game_id):
    game = get_game(game_id)
    for score in RARE_SCORES[game_id]:
        sentence = game.describe(score)
        assert not _english_left(sentence), (sentence, _in_french(sentence))
        assert _in_french(sentence) != sentence


def test_a_score_sentence_keeps_its_english_and_translates_its_values():
    twenty = get_game("twenty")
    sentence = twenty.describe(RARE_SCORES["twenty"][0])
    assert sentence == (
        "East's Partnership with West: 58 points, 1 trick, won (contra'd, worth 2); "
        "West's Sparrow (re-contra'd, worth 16) won; East's Slam (worth 12) lost; "
        "West held the Honours (1 from each); North held the Kings (1 from each). "
        "Result: N −19, E +17, S −19, W +21"
    )
    assert _in_french(sentence) == (
        "Appel par Est avec Ouest : 58 points, 1 levée, gagné (contré, vaut 2); "
        "Petit par Ouest (surcontré, vaut 16) : gagné; Chelem par Est (vaut 12) : perdu; "
        "Ouest avait les Honneurs (1 de chacun); Nord avait les Rois (1 de chacun). "
        "Résultat : N −19, E +17, S −19, O +21"  # West's letter is O in French
    )
    pysngtaut = get_game("pysngtaut")
    sets = _in_french(pysngtaut.describe(RARE_SCORES["pysngtaut"][0]))
    assert "D♥ D♦ D♠ (3 figures naturelles, 20\u202f000)" in sets and "hors tour" in sets
    english = pysngtaut.describe(RARE_SCORES["pysngtaut"][0])
    assert "Q♥ Q♦ Q♠ (3 Natural Face Cards, 20,000)" in english


def test_a_number_is_grouped_as_the_reader_writes_it():
    from engine.core.messages import grouped

    assert [grouped(n) for n in (7, 999, 1000, 1234567, -48140)] == [
        "7",
        "999",
        "1,000",
        "1,234,567",
        "-48,140",
    ]
    assert [_in_french(grouped(n)) for n in (999, 1234567, -48140)] == [
        "999",
        "1\u202f234\u202f567",
        "-48\u202f140",
    ]


# --- the director's pages ---------------------------------------------------------------------


def _played(tournament: Tournament) -> dict[str, Any]:
    """Round 1: table 1's board 1 entered by North and accepted by East, its board 2 given an
    adjusted result; table 2's board 1 entered and sent to the director by East."""
    from tests.contract.events import board_facts, round_one

    tournament.status = Status.RUNNING
    tournament.save()
    first, second = round_one(tournament)[:2]
    for match, number, then in ((first, 1, "accept"), (second, 1, "call")):
        north = match.north_entrant
        entry = services.submit_entry(
            match_id=match.pk,
            board_number=number,
            entrant=north,
            facts=board_facts(match, number),
            client_id=f"north-{match.pk}-{number}",
        )
        east = match.east_entrant
        if then == "accept":
            services.accept_entry(
                match_id=match.pk,
                board_number=number,
                entrant=east,
                submission_id=entry.pk,
                client_id=f"east-{match.pk}-{number}",
            )
        else:
            services.call_director(
                match_id=match.pk,
                board_number=number,
                entrant=east,
                reason="pas d’accord",
                client_id=f"east-{match.pk}-{number}",
            )
    # Table 2's board 2: North's entry rejected by East (back with North), then the director
    # enters the board himself.
    entry = services.submit_entry(
        match_id=second.pk,
        board_number=2,
        entrant=second.north_entrant,
        facts=board_facts(second, 2),
        client_id=f"north-{second.pk}-2",
    )
    services.reject_entry(
        match_id=second.pk,
        board_number=2,
        entrant=second.east_entrant,
        submission_id=entry.pk,
        reason="mauvaise donne",
        client_id=f"east-{second.pk}-2",
    )
    services.director_enter_result(
        match_id=second.pk,
        board_number=2,
        user=OrganiserFactory(),
        facts=board_facts(second, 2),
        reason="vu à la table",
        client_id=f"director-{second.pk}-2",
    )
    seats = tournament.seats
    by_seat = {"seats": {seat: 0 for seat in seats}} if tournament.of_players else {}
    services.director_adjust(
        match_id=first.pk,
        board_number=2,
        user=OrganiserFactory(),
        reason="jeu lent",
        **(by_seat or {"ns": 10, "ew": -10}),
    )
    return {"first": first.pk, "second": second.pk}


@pytest.fixture(scope="module")
def director_events(django_db_blocker):
    from tests.conftest import rows_for_the_scope

    def build() -> dict[str, tuple[int, dict[str, Any]]]:
        events = {}
        for game in GAMES:
            pk = _french_event(game)
            events[game] = (pk, _played(Tournament.objects.get(pk=pk)))
        return events

    yield from rows_for_the_scope(django_db_blocker, build)


def _director_pages(tournament: Tournament, matches: dict[str, Any]):
    slug = tournament.slug
    director = Client()
    director.force_login(OrganiserFactory())
    yield "overview", director.get(reverse("scoring:director", args=[slug]))
    yield (
        "overview, disputed",
        director.get(reverse("scoring:director", args=[slug]), {"state": "disputed", "round": 1}),
    )
    yield "live list", director.get(reverse("scoring:director-fragment", args=[slug]))
    for name, match, number in (
        ("confirmed board", matches["first"], 1),
        ("adjusted board", matches["first"], 2),
        ("disputed board", matches["second"], 1),
        ("board entered by the director", matches["second"], 2),
    ):
        yield name, director.get(reverse("scoring:director-board", args=[slug, match, number]))
    board = [slug, matches["second"], 1]
    yield "adjustment refused", director.post(reverse("scoring:director-adjust", args=board), {})
    yield "erase refused", director.post(reverse("scoring:director-erase", args=board), {})
    empty = {"client_id": "0123456789abcdef"}
    yield "entry refused", director.post(reverse("scoring:director-enter", args=board), empty)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_director_s_pages_show_no_english_sentence(db, director_events, game_id):
    pk, matches = director_events[game_id]
    tournament = Tournament.objects.get(pk=pk)
    data = _data_of(tournament) | {"pas d’accord", "jeu lent", "mauvaise donne", "vu à la table"}
    for name, response in _director_pages(tournament, matches):
        assert response.status_code in (200, 400), name
        assert response["Content-Language"] == "fr", name
        html = response.content.decode()
        left = english_left(html, data)
        assert not left, f"{game_id}, {name}: English left: {left}"
        # The engine's words too: a score, a card, a suit's name (the deal on file).
        pieces = [piece for piece in shown_text(html) if piece not in data]
        score_words = [piece for piece in pieces if _english_words(piece) & SCORE_WORDS]
        assert not score_words, f"{game_id}, {name}: the engine's English: {score_words}"
    assert Match.objects.filter(pk=matches["second"]).exists()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_director_reads_the_entry_and_its_score_in_french(db, director_events, game_id):
    pk, matches = director_events[game_id]
    tournament = Tournament.objects.get(pk=pk)
    director = Client()
    director.force_login(OrganiserFactory())
    page = director.get(
        reverse("scoring:director-board", args=[tournament.slug, matches["first"], 1])
    ).content.decode()
    assert "Historique" in page and "Saisie " in page and "Approuvé par Est" in page
    assert "Ajuster" not in page or "Résultat ajusté" in page
    # The score's sentence as the engine says it, in French.
    words = re.search(r'<p class="score-words">(.*?)</p>', page, re.S)
    assert words and words.group(1).strip()
    assert not set(_english_words(words.group(1))) & SCORE_WORDS, words.group(1)


def test_the_director_s_messages_and_forms_are_french(db, director_events):
    pk, matches = director_events["pymtheg"]
    tournament = Tournament.objects.get(pk=pk)
    director = Client()
    director.force_login(OrganiserFactory())
    board = [tournament.slug, matches["second"], 1]
    refused = director.post(reverse("scoring:director-adjust", args=board), {"ns": "x"})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert "Le résultat ajusté n’a pas été enregistré" in html and "Motif" in html
    stored = director.post(
        reverse("scoring:director-adjust", args=board),
        {"ns": "10", "ew": "-10", "reason": "jeu lent"},
        follow=True,
    )
    assert "Résultat ajusté enregistré." in stored.content.decode()
    assert "Ajusté par l’arbitre" in stored.content.decode()
    empty = {"client_id": "0123456789abcdef"}
    entry = director.post(reverse("scoring:director-enter", args=board), empty).content.decode()
    assert "Non enregistré" in entry and "Saisissez le résultat ci-dessus" in entry


def test_the_services_refusals_are_in_the_reader_s_language(db, director_events):
    from scoring.errors import InvalidEntry, NoLongerStands

    _pk, matches = director_events["pymtheg"]
    director = OrganiserFactory()
    adjust = {"match_id": matches["second"], "board_number": 1, "user": director, "ns": 1}
    with translation.override("fr"), pytest.raises(InvalidEntry) as refused:
        services.director_adjust(reason="", ew=-1, **adjust)
    assert refused.value.message == "donnez un motif"
    with pytest.raises(InvalidEntry) as english:
        services.director_adjust(reason="", ew=-1, **adjust)
    assert english.value.message == "give a reason"
    # A re-sent acceptance of a result the director replaced since says so, whole.
    first = Match.objects.get(pk=matches["first"])
    with translation.override("fr"), pytest.raises(NoLongerStands) as gone:
        services.director_adjust(**{**adjust, "match_id": first.pk}, ew=-1, reason="jeu lent")
        services.accept_entry(
            match_id=first.pk,
            board_number=1,
            entrant=first.east_entrant,
            submission_id=0,
            client_id=f"east-{first.pk}-1",
        )
    assert gone.value.message.startswith("Le résultat que vous avez accepté ne tient plus : ")


# --- Twenty's score preview on the phone and the director's page --------------------------------

TWENTY_HARNESS = r"""
const A = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const catalogue = job.catalogue;
  const tr = (text) => (text in catalogue ? catalogue[text] : text);
  const trf = (text, values) => tr(text).replace(/%\((\w+)\)s/g, (_, name) => values[name]);
  const english = { items: A.itemLines(job.score), seats: A.seatLines(job.score),
    problem: A.pointsProblem(50, 1, job.fewest, job.most) };
  A.useWords(tr, trf);
  const french = { items: A.itemLines(job.score), seats: A.seatLines(job.score),
    problem: A.pointsProblem(50, 1, job.fewest, job.most) };
  process.stdout.write(JSON.stringify({ english, french }));
});
"""


def test_twenty_s_score_preview_lines_are_french_with_the_page_s_catalogue():
    """The script's rules give their lines in English (under Node, as the engine's tests read
    them) and in the page's language once the page hands them its catalogue."""
    import gettext
    from pathlib import Path

    from tests.conftest import run_node

    root = Path(__file__).resolve().parent.parent
    script = root / "engine" / "games" / "twenty" / "static" / "entry.js"
    with (root / "locale/fr/LC_MESSAGES/djangojs.mo").open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    catalogue = {key: value for key, value in compiled._catalog.items() if isinstance(key, str)}
    score = {
        **RARE_SCORES["twenty"][0],
        "contract": "SOLO",
        "partner": None,
        "seats": {"N": -31, "E": 93, "S": -31, "W": -31},
    }
    job = {"catalogue": catalogue, "score": score, "fewest": [0, 0], "most": [40, 40]}
    answer = run_node(script, TWENTY_HARNESS, job)
    english, french = answer["english"], answer["french"]
    assert english["seats"] == [
        "North pays 31",
        "East receives 93",
        "South pays 31",
        "West pays 31",
    ]
    assert english["items"][0] == (
        "Bid (East's Solo, contra'd), worth 2: won. North, South and West pay 2 each, "
        "East receives 6."
    )
    assert french["seats"] == ["Nord paie 31", "Est reçoit 93", "Sud paie 31", "Ouest paie 31"]
    assert french["items"][0] == (
        "Enchère (Solo par Est, contré), vaut 2 : gagné. Nord, Sud et Ouest paient 2 chacun, "
        "Est reçoit 6."
    )
    assert french["problem"] == (
        "50 points ne vont pas avec 1 levée : un camp qui a 1 levée a de 0 à 40 points."
    )
    for line in french["items"] + french["seats"]:
        assert not _english_left(line), line


# --- Pys'ngtaut's entry: cards, a set's faults, the pack's counts ------------------------------

PYSNGTAUT_HARNESS = r"""
const logic = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const catalogue = job.catalogue;
  const tr = (text) => (text in catalogue ? catalogue[text] : text);
  const trf = (text, values) => tr(text).replace(/%\((\w+)\)s/g, (_, name) => values[name]);
  const words = () => ({
    name: logic.cardName("QH"),
    symbol: logic.cardWords("QH"),
    up: logic.upNote({ up: "7D", wild: "7", multiplier: 1 }),
    fault: logic.classify(["QH", "KD", "KS"], "7", {}).fault,
    refused: logic.refusal("QH", { QH: 1 }, { QH: 1 }, "7D", 4),
    points: logic.points(12000),
  });
  const english = words();
  logic.useWords(tr, trf, "fr");
  process.stdout.write(JSON.stringify({ english, french: words() }));
});
"""


def test_pys_ngtaut_s_cards_faults_and_counts_are_french_with_the_page_s_catalogue():
    import gettext
    from pathlib import Path

    from tests.conftest import run_node

    root = Path(__file__).resolve().parent.parent
    script = root / "engine" / "games" / "pysngtaut" / "static" / "entry.js"
    with (root / "locale/fr/LC_MESSAGES/djangojs.mo").open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    catalogue = {key: value for key, value in compiled._catalog.items() if isinstance(key, str)}
    answer = run_node(script, PYSNGTAUT_HARNESS, {"catalogue": catalogue})
    assert answer["english"] == {
        "name": "queen of hearts",
        "symbol": "Q♥",
        "up": "Seven of diamonds (7♦) turned up: sevens are wild.",
        "fault": "cards of two ranks, Q and K; only 7 is wild",
        "refused": "Queen of hearts (Q♥) refused: the pack holds it once, and it is entered "
        "once already.",
        "points": "12,000",
    }
    assert answer["french"] == {
        "name": "dame de cœur",
        "symbol": "D♥",
        "up": "Sept de carreau (7♦) en retourne : les sept sont jokers.",
        "fault": "cartes de deux hauteurs, D et R ; seul 7 est joker",
        "refused": "Dame de cœur (D♥) refusé : le paquet le contient une fois, et il est déjà "
        "saisi une fois.",
        "points": "12\u202f000",
    }


def test_a_wrong_access_code_is_refused_in_the_tournament_s_language(db, director_events):
    pk, _matches = director_events["twenty"]
    tournament = Tournament.objects.get(pk=pk)
    page = reverse("scorer-entry", args=[tournament.slug])
    refused = Client().get(page, {"code": "NOTACODE"})
    html = refused.content.decode()
    assert refused.status_code == 403 and "Ce code d’accès n’est pas un code de ce tournoi" in html
    assert not english_left(html, _data_of(tournament) | {"NOTACODE"})


def test_a_full_pyramid_sheet_is_refused_in_french():
    from engine.games.pyramid.sheet import QUOTA, quota_error

    full = [6] * QUOTA[6]
    problem = quota_error("E", 1, full, 6)
    assert problem.startswith("E has no declaration of 6 left on sheet 1")
    french = _in_french(problem)
    assert french.startswith("E n’a plus d’annonce de 6 sur la feuille 1") and "possibles" in french
    assert not _english_left(problem)


# --- the public pages of a played tournament: a board's words on the table page and the card ---


def _played_event(game_id: str) -> int:
    """A French tournament of the game with every board entered and accepted."""
    from scoring.standings import recompute
    from tests.contract.events import board_facts, build_event
    from tournaments import services as tournament_services

    tournament = build_event(game_id, f"frplayed-{game_id}")
    tournament.name = f"Coupe d’hiver {game_id}"
    tournament.language = "fr"
    tournament.save()
    for entrant in tournament.entrants.all():
        entrant.name = f"Les As {entrant.number}"
        entrant.save()
    tournament = tournament_services.start_tournament(by=None, tournament=tournament)
    matches = Match.objects.filter(table__tournament=tournament).select_related(
        "table", "north_entrant", "east_entrant"
    )
    for match in sorted(matches, key=lambda m: (m.round, m.table.number)):
        for board in match.table.boards.order_by("number"):
            entry = services.submit_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=match.north_entrant,
                facts=board_facts(match, board.number),
                client_id=f"north-{match.pk}-{board.number}",
            )
            services.accept_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=match.east_entrant,
                submission_id=entry.pk,
                client_id=f"east-{match.pk}-{board.number}",
            )
    recompute(tournament.pk)
    return tournament.pk


@pytest.fixture(scope="module")
def played_events(django_db_blocker):
    from tests.conftest import rows_for_the_scope

    yield from rows_for_the_scope(
        django_db_blocker, lambda: {game: _played_event(game) for game in GAMES}
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_a_played_table_s_page_and_a_card_give_the_boards_in_french(db, played_events, game_id):
    tournament = Tournament.objects.get(pk=played_events[game_id])
    data = _data_of(tournament)
    reader = Client()
    pages = {
        "table": reader.get(reverse("scoring:table", args=[tournament.slug, 1])),
        "card": reader.get(reverse("scoring:team", args=[tournament.slug, 1])),
        "standings": reader.get(reverse("scoring:standings", args=[tournament.slug])),
    }
    for name, response in pages.items():
        assert response.status_code == 200 and response["Content-Language"] == "fr", name
        html = response.content.decode()
        assert not english_left(html, data), (game_id, name, english_left(html, data))
        pieces = [piece for piece in shown_text(html) if piece not in data]
        assert not [piece for piece in pieces if _english_words(piece) & SCORE_WORDS], name
    table = pages["table"].content.decode()
    # A game of individuals gives every board's words on the table page once its matches
    # are played, in French (the checks above found no English in them).
    words = re.findall(r'<ul class="board-words">(.*?)</ul>', table, re.S)
    if tournament.of_players:
        assert words and all("Tour" in block for block in words), game_id


def test_a_bye_s_and_a_forfeit_s_words_are_french(db, director_events):
    from scoring.selectors import bye_words
    from scoring.views.public import _forfeit_words

    for game_id in GAMES:
        tournament = Tournament.objects.get(pk=director_events[game_id][0])
        words = bye_words(tournament)
        assert words.startswith("bye: ")
        assert _in_french(words).startswith("exempt : "), game_id
        assert not _english_left(words)
    with translation.override("fr"):
        assert _forfeit_words(True, False) == "forfait −1000"
        assert _forfeit_words(False, True) == "0 (forfait des adversaires)"
        assert _forfeit_words(True, True) == "non jouée (les deux disqualifiés)"
    assert _forfeit_words(True, False) == "forfeit −1000"


def test_an_entry_s_disagreement_with_the_deal_is_french_for_the_director():
    game = get_game("pymtheg")
    dealt = {"declarer_score": 31, "made": True}
    entered = {"declarer_score": -62, "made": False}
    differences = game.score_differences(dealt, entered)
    assert differences == (
        "declarer_score: entered -62, from the deal 31; made: entered False, from the deal True"
    )
    assert _in_french(differences) == (
        "declarer_score : saisi -62, d’après la donne 31; made : saisi False, d’après la donne True"
    )


def test_an_entry_that_disagrees_with_the_deal_is_explained_to_the_director_in_french(db):
    from scoring.models import Submission
    from tests.scoring.test_twenty_web import (
        deal_of,
        first_match,
        ordered_auction,
        seated,
        told,
        twenty_event,
    )

    tournament = twenty_event(slug="twenty-fr-wrong")
    tournament.language = "fr"
    tournament.save()
    match = first_match(tournament)
    deal = deal_of(match, 1)
    right = {
        "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
        "points": 57,
        "tricks": 6,
        **told(deal, "PART"),
    }
    wrong = {
        **right,
        "partner": next(s for s in "NESW" if s not in (deal.eldest, right["partner"])),
    }
    services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=seated(match, "N"),
        facts=wrong,
        client_id="north-wrong-partner",
    )
    stored = Submission.objects.get(match=match).deal_disagreement
    assert stored.startswith("partner: ") and "disagrees with the deal" in stored
    director = Client()
    director.force_login(OrganiserFactory())
    page = director.get(reverse("scoring:director-board", args=[tournament.slug, match.pk, 1]))
    html = page.content.decode()
    holder = right["partner"]
    assert f"ne concorde pas avec la donne : {holder} tient la carte appelée" in html
    assert "disagrees with the deal" not in html


def test_a_record_error_keeps_its_english_and_its_words():
    from engine.core.errors import RecordError
    from engine.core.messages import words

    error = RecordError("deal", words("turns up %(dealt)s, but up is %(up)s", dealt="QH", up="7D"))
    assert str(error) == "deal: turns up QH, but up is 7D" == error.words
    assert _in_french(error.words) == "deal : la retourne de la donne est QH, mais la saisie dit 7D"
    plain = RecordError("tricks", "add up to 14, not 15")
    assert _in_french(plain.words) == "tricks : add up to 14, not 15"  # not the engine's words


@pytest.mark.parametrize("game_id", GAMES)
def test_the_overview_names_a_table_s_players_and_each_seat_s_result(db, played_events, game_id):
    from scoring.models import Result
    from tournaments.models import MatchSeat

    tournament = Tournament.objects.get(pk=played_events[game_id])
    director = Client()
    director.force_login(OrganiserFactory())
    html = director.get(reverse("scoring:director-fragment", args=[tournament.slug])).content
    rows = re.findall(r"<tr class=\"row-[^\"]*\">(.*?)</tr>", html.decode(), re.S)
    assert rows
    result = Result.objects.filter(match__table__tournament=tournament, current=True).first()
    assert result is not None
    if not tournament.of_players:
        assert "NS v EW" in html.decode() or "NS contre EO" in html.decode()
        return
    # A game of individuals: its players in seat order, never two sides.
    order = {seat: index for index, seat in enumerate("NESW")}
    players = sorted(
        MatchSeat.objects.filter(match=result.match).values_list("seat", "entrant__number"),
        key=lambda pair: order[pair[0]],
    )
    cells = [re.sub(r"<[^>]+>", "", row) for row in rows]
    wanted = ", ".join(str(number) for _seat, number in players)
    assert any(wanted in cell for cell in cells), (wanted, cells[:3])
    # The seats' letters as the French page writes them (West is O).
    seat_results = " · ".join(
        f"{'O' if seat == 'W' else seat} {result.seats[seat]}"
        for seat in "NESW"
        if seat in result.seats
    )
    assert any(seat_results in cell for cell in cells), (seat_results, cells[:3])
