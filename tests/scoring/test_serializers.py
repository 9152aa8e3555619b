"""The API's answers for entries, reviews and results are written out by hand for speed; they
must be exactly what the declared fields (which make the OpenAPI schema) give."""

import contextlib
import random

from rest_framework import serializers

from operations.simulation import north_facts
from scoring import services
from scoring.api.serializers import ResultSerializer, ReviewSerializer, SubmissionSerializer
from scoring.errors import ScoringError
from scoring.models import Result, Review, Submission
from tests.scoring.test_progress import random_action


def generic(serializer_class, instance):
    """What DRF's own path makes of the declared fields."""
    return serializers.Serializer.to_representation(serializer_class(), instance)


def test_hand_written_answers_match_the_declared_fields(cup, director):
    for seed in range(12):  # simulated deals: made, lost, Ry, passed out
        match = cup.match(1 + seed % 2, 1 + seed // 2 % 2)
        board = match.table.boards.get()
        services.director_enter_result(
            match_id=match.pk,
            board_number=1,
            user=director,
            facts=north_facts(match, board, f"shape-{seed}"),
            client_id=f"director-entry-{seed}",
        )
    passed = ["N:P", "E:P", "S:P", "W:P"]
    services.director_enter_result(
        match_id=cup.match(2, 2).pk,
        board_number=1,
        user=director,
        facts={"auctions": [passed, passed]},
        client_id="director-entry-passed",
    )
    rng = random.Random(5)
    for _ in range(30):
        with contextlib.suppress(ScoringError):
            random_action(rng, cup, director)
    checked = 0
    for serializer, rows in (
        (SubmissionSerializer, Submission.objects.select_related("board")),
        (ReviewSerializer, Review.objects.all()),
        (ResultSerializer, Result.objects.all()),
    ):
        for row in rows:
            assert serializer(row).data == generic(serializer, row), row
            checked += 1
    assert checked > 40
    assert any(s.score["contract"] is None for s in Submission.objects.all())
    assert Result.objects.filter(submission__isnull=True).exists()  # an adjusted result
