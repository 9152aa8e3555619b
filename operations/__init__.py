"""Operations on whole tournaments, above the apps that hold them: backup and restore,
simulated play, and the demo. Nothing in ``tournaments``, ``scoring`` or ``publishing``
imports this package (the import contracts in pyproject.toml hold it)."""
