"""Errors of the API as problem details (RFC 9457): JSON with a status, a title, a detail and,
where one field is at fault, its name. Never a stack trace."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scoring.errors import ScoringError

log = logging.getLogger(__name__)
API_PREFIX = "/api/"
CONTENT_TYPE = "application/problem+json"


def problem(status: int, title: str, detail: str, field: str | None = None, **extra: Any):
    body = {"type": "about:blank", "status": status, "title": title, "detail": detail}
    if field:
        body["field"] = field
    body.update(extra)
    return body


def _first_field_error(detail: Any, prefix: str = "") -> tuple[str | None, str]:
    """The first field and message of a DRF validation error (nested dicts and lists)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if key != "non_field_errors" else ""
            field, message = _first_field_error(value, f"{prefix}.{name}" if prefix else name)
            return field, message
    if isinstance(detail, list) and detail:
        return _first_field_error(detail[0], prefix)
    return (prefix or None), str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ScoringError):
        body = problem(exc.status, exc.kind.replace("_", " "), exc.message, exc.field)
        return Response(body, status=exc.status, content_type=CONTENT_TYPE)
    if isinstance(exc, RequestDataTooBig):
        body = problem(413, "too large", "the request body is too large")
        return Response(body, status=413, content_type=CONTENT_TYPE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        log.exception("unexpected error in the API", exc_info=exc)
        body = problem(500, "server error", "something went wrong on the server; it is logged")
        return Response(body, status=500, content_type=CONTENT_TYPE)
    response.data = _framework_problem(exc, response.status_code)
    response.content_type = CONTENT_TYPE
    return response


def _framework_problem(exc: Exception, status: int) -> dict[str, Any]:
    """The problem body of an error REST framework answered: a refused field with every
    field's errors, or the error's own words (and when to retry, for a throttled request)."""
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_field_error(exc.detail)
        return problem(status, "invalid", message, field, errors=exc.detail)
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    title = getattr(exc, "default_code", "error").replace("_", " ")
    body = problem(status, title, str(detail))
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        body["retry_after"] = int(exc.wait)
    return body


def not_found(request, exception=None) -> HttpResponse:
    """``handler404``: problem details for an API address that matches nothing (a board that is
    not a number, say), the site's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        body = problem(404, "not found", "no such address in the API")
        return JsonResponse(body, status=404, content_type=CONTENT_TYPE)
    return defaults.page_not_found(request, exception)


def server_error(request) -> HttpResponse:
    """``handler500``: problem details instead of an HTML page for API addresses."""
    if request.path.startswith(API_PREFIX):
        body = problem(500, "server error", "something went wrong on the server; it is logged")
        return JsonResponse(body, status=500, content_type=CONTENT_TYPE)
    return defaults.server_error(request)
