"""Request and response shapes of the API (they also make the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.visibility import entry_as_seen

ENTRY_HELP = (
    "What happened at the table, as the board record of the interchange formats without the "
    "fields the tournament sets (ruleset, options, opening, direction): auctions, trump, double, "
    "tricks, revoke, illegal_trump."
)


class StrictCharField(serializers.CharField):
    """A string in the body, as the schema says: a number or a boolean is refused, not turned
    into text (DRF's CharField would take ``0`` as ``"0"``)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("must be a string")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A whole number in the body, as the schema says: ``"10"``, ``10.0`` or ``true`` is
    refused, not converted."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("must be a whole number")
        return super().to_internal_value(data)


class EntryFactsField(serializers.JSONField):
    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("must be a JSON object (a board record)")
        return value


class SubmitSerializer(serializers.Serializer):
    client_id = StrictCharField(
        min_length=8, max_length=64, help_text="Made by the phone; a re-send reuses it."
    )
    record = EntryFactsField(help_text=ENTRY_HELP)


class ActionSerializer(serializers.Serializer):
    client_id = StrictCharField(min_length=8, max_length=64)


class RejectSerializer(ActionSerializer):
    reason = StrictCharField(max_length=1000)


class CallDirectorSerializer(ActionSerializer):
    reason = StrictCharField(max_length=1000, required=False, allow_blank=True)


class PreviewSerializer(serializers.Serializer):
    record = EntryFactsField(help_text=ENTRY_HELP)


class DirectorResultSerializer(ActionSerializer):
    record = EntryFactsField(help_text=ENTRY_HELP)
    reason = StrictCharField(max_length=1000, required=False, allow_blank=True)


class AdjustSerializer(serializers.Serializer):
    """Two table results (pairs) or ``seats``, one per seat (a game of individuals)."""

    ns = StrictIntegerField(min_value=-1_000_000, max_value=1_000_000, required=False)
    ew = StrictIntegerField(min_value=-1_000_000, max_value=1_000_000, required=False)
    seats = serializers.DictField(
        child=StrictIntegerField(min_value=-1_000_000, max_value=1_000_000), required=False
    )
    reason = StrictCharField(max_length=1000)


class EraseSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=1000)


class BoardScoreSerializer(serializers.Serializer):
    contract = serializers.CharField(allow_null=True)
    declarer = serializers.CharField(allow_null=True)
    playing = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    announced = serializers.CharField(allow_null=True)
    double = serializers.CharField()
    made = serializers.BooleanField(allow_null=True)
    liability = serializers.IntegerField()
    declarer_score = serializers.IntegerField(allow_null=True)
    ns = serializers.IntegerField(allow_null=True)
    ew = serializers.IntegerField(allow_null=True)
    passed_out = serializers.BooleanField()


# The three shapes below are written out by hand in ``to_representation``: they answer every
# scorer's write, and DRF's generic path copies all declared fields for each answer. The
# declared fields still make the schema, and a test holds both to the same output.
_WHEN = serializers.DateTimeField()


def _when(value) -> str | None:
    return None if value is None else _WHEN.to_representation(value)


class SubmissionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    board = serializers.IntegerField(source="board.number")
    source = serializers.CharField()
    created_at = serializers.DateTimeField()
    record = serializers.JSONField()
    score = BoardScoreSerializer()
    words = serializers.SerializerMethodField()

    def get_words(self, submission) -> str:
        return _game_of(submission.score).describe(submission.score)

    def to_representation(self, submission) -> dict:
        score = submission.score
        return {
            "id": submission.pk,
            "match": submission.match_id,
            "board": submission.board.number,
            "source": submission.source,
            "created_at": _when(submission.created_at),
            "record": entry_as_seen(submission.record),
            "score": _score_out(score),
            "words": self.get_words(submission),
        }


class SubmitAnswerSerializer(SubmissionSerializer):
    """The answer to North's entry: the entry as stored, and whether the board went to the
    director (an entry the deal on file contradicts; the answer never says how)."""

    director_called = serializers.BooleanField()

    def to_representation(self, submission) -> dict:
        return {
            **super().to_representation(submission),
            "director_called": bool(submission.deal_disagreement),
        }


def _game_of(score: dict):
    """The game that made a board score: the default game's scores name none, every other
    game's do."""
    from engine.games import DEFAULT_GAME, get_game

    return get_game(score.get("game", DEFAULT_GAME))


def _score_out(score: dict) -> dict:
    """The default game's board score in the fields of ``BoardScoreSerializer``; another
    game's score whole, as its engine gives it (GAMES.md: ``seats`` holds every seat's table
    result)."""
    if "game" in score:
        return score
    return {name: score[name] for name in BoardScoreSerializer._declared_fields}


class ResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    ns = serializers.IntegerField(source="north_result", allow_null=True)
    ew = serializers.IntegerField(source="east_result", allow_null=True)
    passed_out = serializers.BooleanField()
    seats = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()

    def to_representation(self, result) -> dict:
        return {
            "id": result.pk,
            "kind": result.kind,
            "ns": result.north_result,
            "ew": result.east_result,
            "passed_out": result.passed_out,
            "seats": result.seats,
            "reason": result.reason,
            "created_at": _when(result.created_at),
        }


class ReviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    submission = serializers.IntegerField(source="submission_id", allow_null=True)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()

    def to_representation(self, review) -> dict:
        return {
            "id": review.pk,
            "action": review.action,
            "submission": review.submission_id,
            "reason": review.reason,
            "created_at": _when(review.created_at),
        }


class LegalCallsSerializer(serializers.Serializer):
    seat = serializers.CharField(allow_null=True)
    calls = serializers.ListField(child=serializers.CharField())
    ended = serializers.BooleanField()
    passed_out = serializers.BooleanField()
