"""The HTTP service: a thin FastAPI layer over ``engine`` (parse, call the engine, serialize).

``app.main:app`` is the ASGI app; ``app.cli:main`` is the ``wordsolver`` command.
"""
