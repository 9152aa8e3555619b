"""Django's own web server (``make demo``'s ``runserver``, the tests' live server) made to
answer at once.

It writes an answer's headers and its body in separate sends; with Nagle's algorithm the body
then waits for the client's delayed acknowledgement of the headers, about 40 ms on Linux, on
every request a phone, a browser or a fuzzer makes. Production serves through gunicorn,
which does not wait.
"""

from django.core.servers.basehttp import WSGIRequestHandler


def answer_at_once() -> None:
    WSGIRequestHandler.disable_nagle_algorithm = True
