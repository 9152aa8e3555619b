"""Pages of the scorer's side, one module per audience:

- ``scorer``: the scorer pages (phone first, reached with a team's access code), driven by
  ``static/scoring/scorer.js``, which talks to the REST API (``/api/v1/``) with the team's code;
- ``director``: the director's dashboard and board pages (organisers only), Django forms posting
  to views that call ``scoring.services``;
- ``public``: the public standings, table and team pages, which only read stored standings and
  serve their fragments from the cache, keyed by the standings' and results' versions;
- ``entries``: what was entered, in words, for the scorer's check and the director.

The audiences never import each other (the import contracts in pyproject.toml).
"""
