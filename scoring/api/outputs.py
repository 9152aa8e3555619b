"""The shapes of the API's answers, for its OpenAPI schema: what each read endpoint returns,
field by field, so a client can be generated from the schema and the fuzz test checks every
answer against it. Entrants (teams or players) are always named by number and name."""

from __future__ import annotations

from rest_framework import serializers as f

from scoring.api import serializers as s


class EntrantSerializer(f.Serializer):
    number = f.IntegerField(allow_null=True)
    name = f.CharField(allow_null=True)


class IndexSerializer(f.Serializer):
    name = f.CharField()
    version = f.CharField()
    schema = f.URLField(help_text="The OpenAPI schema")
    docs = f.URLField(help_text="The interactive documentation")
    tournaments = f.URLField(help_text="The published tournaments")


class TournamentSummarySerializer(f.Serializer):
    slug = f.CharField()
    name = f.CharField()
    status = f.CharField()
    game = f.CharField()
    entrants = f.CharField(help_text="pairs or players")
    table_size = f.IntegerField()
    settings = f.DictField(help_text="The game's own settings")
    ruleset = f.CharField(
        allow_null=True, help_text="The game's ruleset; null for a game without one"
    )
    ranking = f.CharField()
    ties = f.CharField()
    boards_per_table = f.IntegerField()
    direction = f.CharField()
    side_mode = f.CharField()


class TournamentDetailSerializer(TournamentSummarySerializer):
    tables = f.IntegerField()
    teams = f.IntegerField()


class SubstituteSerializer(f.Serializer):
    player = f.CharField(help_text="The entrant's player replaced")
    name = f.CharField(help_text="The substitute")
    from_round = f.IntegerField()
    to_round = f.IntegerField(allow_null=True, help_text="Null: to the end")


class EntrantRowSerializer(f.Serializer):
    number = f.IntegerField()
    name = f.CharField()
    players = f.ListField(child=f.CharField())
    disqualified = f.BooleanField()
    withdrawn_after = f.IntegerField(
        allow_null=True, help_text="The last round played by an entrant that withdrew; else null"
    )
    substitutes = SubstituteSerializer(many=True)


class MatchSubstituteSerializer(f.Serializer):
    entrant = f.IntegerField(help_text="The entrant's number")
    player = f.CharField(help_text="The entrant's player replaced")
    name = f.CharField(help_text="The substitute who plays in this match")


class ScheduledMatchSerializer(f.Serializer):
    round = f.IntegerField()
    table = f.IntegerField()
    ns = f.IntegerField(help_text="The team (or North's player) by number")
    ew = f.IntegerField(help_text="The team (or East's player) by number")


class ByeSerializer(f.Serializer):
    round = f.IntegerField()
    team = f.IntegerField()


class ScheduleSerializer(f.Serializer):
    teams = f.IntegerField()
    tables = f.IntegerField()
    rounds = f.IntegerField()
    sides = f.CharField()
    matches = ScheduledMatchSerializer(many=True)
    byes = ByeSerializer(many=True)
    max_meetings = f.IntegerField()


class SeatResultsSerializer(f.Serializer):
    """Each seat's table result (games of individuals; only the seats the table has, null
    for a passed-out board)."""

    N = f.IntegerField(allow_null=True, required=False)
    E = f.IntegerField(allow_null=True, required=False)
    S = f.IntegerField(allow_null=True, required=False)
    W = f.IntegerField(allow_null=True, required=False)


class BoardResultSerializer(f.Serializer):
    ns = f.IntegerField(allow_null=True, required=False, help_text="North–South's (pairs)")
    ew = f.IntegerField(allow_null=True, required=False, help_text="East–West's (pairs)")
    seats = SeatResultsSerializer(required=False, help_text="Each seat's (individuals)")
    kind = f.CharField()


class MatchBoardSerializer(f.Serializer):
    board = f.IntegerField()
    state = f.CharField()
    label = f.CharField()
    result = BoardResultSerializer(
        allow_null=True, help_text="Null until the table is complete (every match played)"
    )


class SeatedPlayersSerializer(f.Serializer):
    N = EntrantSerializer(required=False)
    E = EntrantSerializer(required=False)
    S = EntrantSerializer(required=False)
    W = EntrantSerializer(required=False)


class MatchSerializer(f.Serializer):
    id = f.IntegerField()
    round = f.IntegerField()
    table = f.IntegerField()
    ns = EntrantSerializer(required=False, help_text="The North–South pair (pairs)")
    ew = EntrantSerializer(required=False, help_text="The East–West pair (pairs)")
    seats = SeatedPlayersSerializer(
        required=False, help_text="The player in each seat (individuals; only seats that exist)"
    )
    substitutes = MatchSubstituteSerializer(many=True, help_text="Who plays for whom here")
    boards = MatchBoardSerializer(many=True)


class RankedResultSerializer(f.Serializer):
    team = EntrantSerializer(required=False)
    player = EntrantSerializer(required=False)
    round = f.IntegerField()
    score = f.FloatField(allow_null=True)
    rank = f.FloatField(allow_null=True)
    percentage = f.FloatField(allow_null=True, required=False)


class GroupSerializer(f.Serializer):
    table = f.IntegerField()
    board = f.IntegerField()
    side = f.CharField(required=False, help_text="NS or EW (pairs)")
    seat = f.CharField(required=False, help_text="N, E, S or W (players)")
    results = RankedResultSerializer(many=True)


class TableLineSerializer(f.Serializer):
    table = f.IntegerField()
    board = f.IntegerField()
    side = f.CharField(required=False)
    round = f.IntegerField(allow_null=True, help_text="Null for a bye or a forfeit")
    rank = f.FloatField(allow_null=True)
    score = f.FloatField(allow_null=True)
    bye = f.BooleanField(required=False)


class StandingsRowSerializer(f.Serializer):
    place = f.IntegerField(allow_null=True)
    team = EntrantSerializer(required=False)
    player = EntrantSerializer(required=False)
    points = f.FloatField(required=False, allow_null=True)
    total = f.FloatField(required=False, help_text="Ranked by totals")
    tiebreak = f.FloatField(required=False)
    percentage = f.FloatField(required=False, allow_null=True)
    matches = f.IntegerField()
    status = f.CharField(help_text="ok, withdrawn or disqualified")
    withdrew_after = f.IntegerField(required=False, help_text="A withdrawn entrant's last round")
    tables = TableLineSerializer(many=True, required=False)


class StandingsSerializer(f.Serializer):
    tournament = f.CharField()
    status = f.CharField(help_text="stale, provisional, complete or final")
    stale = f.BooleanField()
    computed_at = f.DateTimeField(allow_null=True)
    provisional = f.BooleanField()
    groups = GroupSerializer(many=True, help_text="Ranked results of complete tables")
    standings = StandingsRowSerializer(many=True)


class EntrantBoardSerializer(f.Serializer):
    board = f.IntegerField()
    state = f.CharField()
    label = f.CharField()
    pending = s.SubmissionSerializer(allow_null=True)
    last_reason = f.CharField(allow_blank=True)
    hands = f.ListField(
        child=f.ListField(child=f.CharField(), min_length=2, max_length=2),
        allow_null=True,
        help_text="The board's deal as [whose, cards] pairs, once its result here stands; "
        "null before",
    )


class EntrantMatchSerializer(f.Serializer):
    id = f.IntegerField()
    round = f.IntegerField()
    table = f.IntegerField()
    side = f.CharField()
    seat = f.CharField()
    role = f.CharField(help_text="north enters, east checks, seated watches")
    opponent = EntrantSerializer(allow_null=True)
    players = f.DictField(child=EntrantSerializer(), help_text="Players by seat (individuals)")
    opening = f.CharField(allow_null=True)
    needs_action = f.BooleanField()
    boards = EntrantBoardSerializer(many=True)


class MeSerializer(f.Serializer):
    team = EntrantSerializer()
    tournament = TournamentSummarySerializer()
    current_match = f.IntegerField(allow_null=True)
    matches = EntrantMatchSerializer(many=True)


class DirectorEntrySerializer(s.SubmissionSerializer):
    deal_disagreement = f.CharField(
        allow_blank=True, help_text="Why the entry disagrees with the deal on file; empty if not"
    )


class DirectorBoardSerializer(f.Serializer):
    state = f.CharField()
    label = f.CharField()
    submissions = DirectorEntrySerializer(many=True)
    reviews = s.ReviewSerializer(many=True)
    results = s.ResultSerializer(many=True)
