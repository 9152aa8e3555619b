"""The analysis tests use the publishing suite's small cup and its ways of confirming results."""

from tests.publishing.conftest import (  # noqa: F401
    confirm,
    cup,
    export_root,
    organiser,
    organiser_client,
    play_all,
)
