"""The REST API, ``/api/v1/``, one module per audience: ``public`` (reads anyone may make of
a published tournament), ``scorer`` (the scorers' writes, with the team's access code in the
``X-Team-Code`` header) and ``director`` (the director's actions, organiser token or session);
``common`` holds what they share. The audiences never import each other (the import contracts
in pyproject.toml).

Views stay thin: they read the request, call a service or selector, and shape the answer.
"""
