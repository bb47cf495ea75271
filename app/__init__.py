"""The HTTP service: a thin FastAPI layer over ``engine`` (parse, call the engine, serialize).

``app.main:app`` is the ASGI app; ``app.cli:main`` is the ``wordsolver`` command.
"""

VERSION = "0.1.0"  # pyproject.toml's (tests/test_cli.py holds them equal)
