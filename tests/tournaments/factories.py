"""factory_boy factories for the tournament models."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from engine.games import DEFAULT_GAME, GAME_IDS, get_game
from engine.games.pymtheg.cards import format_deal, seeded_deal
from tournaments.models import Board, Entrant, Match, Table, Tournament
from tournaments.permissions import organisers_group


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct-horse-battery")


class OrganiserFactory(UserFactory):
    username = factory.Sequence(lambda n: f"organiser{n}")

    @factory.post_generation
    def organiser(self, create: bool, extracted, **kwargs) -> None:
        if create:
            self.groups.add(organisers_group())


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament; the game's settings may be given by name (``ruleset="rules-1709"``)."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    slug = factory.Sequence(lambda n: f"cup-{n}")

    @classmethod
    def _adjust_kwargs(cls, **kwargs):
        game_id = kwargs.get("game", DEFAULT_GAME)
        names = get_game(game_id).default_settings if game_id in GAME_IDS else {}
        rules = dict(kwargs.pop("game_settings", {}))
        for name in names:
            if name in kwargs:
                rules[name] = kwargs.pop(name)
        return {**kwargs, "game_settings": rules}


class EntrantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entrant

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Team {n + 1}")
    player1 = "Ann"
    player2 = "Bo"


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Board

    table = factory.SubFactory(TableFactory)
    number = 1
    deal = factory.LazyAttribute(
        lambda board: format_deal(seeded_deal("tests", board.table.number))
    )


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = 1
    table = factory.SubFactory(TableFactory)
    north_entrant = factory.SubFactory(
        EntrantFactory, tournament=factory.SelfAttribute("..table.tournament")
    )
    east_entrant = factory.SubFactory(
        EntrantFactory, tournament=factory.SelfAttribute("..table.tournament")
    )
