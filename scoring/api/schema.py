"""The OpenAPI schema says what the API really answers: every operation's errors, as problem
details (``application/problem+json``), added by a drf-spectacular postprocessing hook."""

from __future__ import annotations

from typing import Any

from scoring.api.problems import CONTENT_TYPE

PROBLEM = {
    "type": "object",
    "description": "Problem details (RFC 9457): what went wrong, and the field when one is.",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "field": {"type": "string", "nullable": True},
        "errors": {},
        "retry_after": {"type": "integer"},
    },
    "required": ["title", "status", "detail"],
}
# What any operation may answer besides its success: bad input, no or a wrong code or token,
# not allowed, no such thing, not now (a board's state, a final tournament), too large, too
# often.
ERRORS = {
    "400": "The request is not valid: the detail and field say why.",
    "401": "No access code or token, or a wrong one.",
    "403": "Not allowed to do this.",
    "404": "No such tournament, match, board or entry.",
    "409": "Not in this state: the board or the tournament has moved on.",
    "413": "The request body is too large.",
    "429": "Too many requests or wrong codes: wait retry_after seconds.",
}


def add_problem_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """Every operation documents the errors it may give, each a ``Problem``."""
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM
    reference = {"$ref": "#/components/schemas/Problem"}
    for path in result.get("paths", {}).values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERRORS.items():
                responses.setdefault(
                    status,
                    {"description": description, "content": {CONTENT_TYPE: {"schema": reference}}},
                )
    return result
