"""Gunicorn settings for production: ``gunicorn -c deploy/gunicorn.conf.py config.wsgi``.

Every value can be changed from the environment:

- ``PORT`` (default 8000) or ``GUNICORN_BIND`` (e.g. ``127.0.0.1:8000``, ``unix:/run/x.sock``);
- ``WEB_CONCURRENCY``: worker processes (default CPUs + 1, at most 9);
- ``GUNICORN_THREADS``: threads per worker (default 1: sync workers). nginx reads each
  request whole and takes each answer at once, so a slow phone never holds a process, and on
  two cores 3 sync workers answer more scorers, faster, than 5 processes of 4 threads (see
  ``bench/api.py`` in the README). Above 1, gunicorn runs threaded workers: for a deployment
  with no buffering proxy in front. Each process or thread may hold a database connection:
  processes × threads per web machine must fit PostgreSQL's ``max_connections`` with the
  workers' share;
- ``GUNICORN_TIMEOUT`` (default 30 seconds);
- ``GUNICORN_MAX_REQUESTS``: requests a worker answers before it is replaced (default 50,000,
  0 for never);
- ``TRUSTED_PROXIES``: addresses (or networks, or ``*``) of the reverse proxy in front. A
  request from one of them is taken to come from the address in its ``X-Real-IP`` header,
  so the per-address limits of the scorer pages (wrong access codes, write throttle) count
  each phone, not the proxy. Unset: the peer address is used as it is (no proxy).
"""

from __future__ import annotations

import contextlib
import ipaddress
import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


bind = os.environ.get("GUNICORN_BIND") or f"0.0.0.0:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", min(multiprocessing.cpu_count() + 1, 9))
threads = _int("GUNICORN_THREADS", 1)
worker_class = "gthread" if threads > 1 else "sync"
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = 30
keepalive = 5
# Restart a worker now and then so a slow leak never grows large, but rarely: a restart costs
# a second of CPU (the worker loads the application again) and stalls its requests, and at
# the end of a round every table reports at once (restarting every 2,000 requests, the scorer
# bench fell from 160 results a second to 147). Jitter spreads the restarts; 0: never.
max_requests = _int("GUNICORN_MAX_REQUESTS", 50_000)
max_requests_jitter = max_requests // 10
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# The scheme (https) comes from the proxy's X-Forwarded-Proto; Django trusts it only with
# DJANGO_BEHIND_PROXY=true.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
control_socket_disable = True  # nothing here uses gunicornc; no socket to secure


def trusted_networks(text: str | None) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The proxies' networks from ``TRUSTED_PROXIES`` ("*" trusts every peer)."""
    if not text or not text.strip():
        return []
    if text.strip() == "*":
        return [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
    return [
        ipaddress.ip_network(item.strip(), strict=False) for item in text.split(",") if item.strip()
    ]


def _is_trusted(address: str, networks) -> bool:
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(peer.version == net.version and peer in net for net in networks)


class RealClientAddress:
    """WSGI wrapper: behind a trusted proxy, REMOTE_ADDR becomes the client's address from
    ``X-Real-IP`` (which the proxy sets; a client's own header is overwritten by it)."""

    def __init__(self, app, networks):
        self.app = app
        self.networks = networks

    def __call__(self, environ, start_response):
        real = environ.get("HTTP_X_REAL_IP", "").strip()
        if real and _is_trusted(environ.get("REMOTE_ADDR", ""), self.networks):
            # A malformed header keeps the proxy's address.
            with contextlib.suppress(ValueError):
                environ["REMOTE_ADDR"] = str(ipaddress.ip_address(real))
        return self.app(environ, start_response)


def post_worker_init(worker) -> None:
    networks = trusted_networks(os.environ.get("TRUSTED_PROXIES"))
    if networks:
        worker.wsgi = RealClientAddress(worker.wsgi, networks)
