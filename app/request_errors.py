"""The service's own request errors and the error envelope's body, without the web framework
(the command line and the service layer use them; app.errors maps them to HTTP answers)."""

from __future__ import annotations

from typing import Any

from engine import EngineError


class InvalidFilterError(EngineError):
    """A move filter that cannot apply to the game (e.g. a square off the board)."""

    code = "invalid_filter"


class RequestError(EngineError):
    """A request that is well-formed JSON of the right types but asks for something
    contradictory (e.g. a play given both as fields and as notation)."""

    code = "invalid_request"


def error_body(exc: EngineError) -> dict[str, Any]:
    return {"code": exc.code, "message": exc.message, "details": exc.details}
