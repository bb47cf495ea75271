"""What the OpenAPI document says beyond the models: the error responses each operation
really sends, the manual's requests (docs/api.md) as examples, and a last pass that keeps the framework's
own validation-error shape (which the service never sends) out of the document."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from .openapi_games import split_by_game
from .responses import JSON
from .schemas import ErrorOut

ERROR_DOCS = {
    400: "Malformed JSON (`malformed_json`) or a bad Content-Length (`bad_request`)",
    404: "Unknown game (`unknown_game`) or lexicon (`unknown_lexicon`)",
    413: "Body larger than WORDSOLVER_MAX_BODY_BYTES (`body_too_large`)",
    415: "Body not sent as application/json (`unsupported_media_type`)",
    422: (
        "Invalid request (`invalid_request`), board (`invalid_board`), rack (`invalid_rack`), tile counts "
        "(`too_many_tiles`), play (`illegal_play`), filter (`invalid_filter`), CGP position (`invalid_cgp`), "
        "game record (`invalid_game_record`), the search ran past its time budget (`time_budget_exceeded`), "
        "or the named word list cannot be used (`lexicon_too_large`, `invalid_word_file`); `details` names "
        "the field, square, limit or line"
    ),
    503: (
        "The lexicon is still compiling or loading (`not_ready`), or this worker is already running its "
        "share of expensive searches (`busy`); retry after the Retry-After header's seconds"
    ),
}

BODY = (400, 413, 415, 422)  # what any endpoint with a JSON body can answer


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` entry documenting these error statuses with the one error envelope."""
    out: dict[int | str, dict[str, Any]] = {
        s: {"model": ErrorOut, "description": ERROR_DOCS[s]} for s in sorted(set(statuses))
    }
    if 503 in out:
        out[503]["headers"] = {"Retry-After": {"description": "Seconds to wait before asking again.",
                                               "schema": {"type": "integer"}}}
    return out


MIDGAME = [
    ".......K.......", ".......U.......", "....G.WE.......", "....A.AH.......",
    "....R.V........", "....D.e........", "....A.R........", "..PINDER.......",
    "....T.R........", "....S.ST.......", ".......E.......", ".......P.......",
    ".......E.......", ".......F.......", ".STOUTLY.......",
]
UPWORDS_BOARD = ["." * 10] * 4 + ["....CAT..."] + ["." * 10] * 5
UPWORDS_HEIGHTS = ["0" * 10] * 4 + ["0000121000"] + ["0" * 10] * 5


FLAT = ["crossplay", "scrabble", "wwf"]  # the 15x15 games with blanks


def examples(**named: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``openapi_examples`` for a request body: name -> {summary, value}; ``_games`` lists the games
    the request is for (default all; app.openapi_games puts it under those games' paths)."""
    out = {}
    for name, value in named.items():
        out[name] = {"summary": value.pop("_summary"), "value": value}
        if "_games" in value:
            out[name]["x-games"] = value.pop("_games")
    return out


MOVES_EXAMPLES = examples(
    seed={"_summary": "QUIXOTE on an empty board, two best plays", "rack": "QUIXOTE", "limit": 2},
    midgame={
        "_summary": "A mid-game board, counted and filtered",
        "board": MIDGAME, "rack": "AEINRS?", "limit": 3, "count": True,
        "filters": {"contains": "K", "no_blanks": True}, "_games": FLAT,
    },
    upwords={
        "_summary": "Upwords with stack heights (use with game upwords)", "_games": ["upwords"],
        "board": UPWORDS_BOARD, "heights": UPWORDS_HEIGHTS, "rack": "QUIZEAS", "limit": 1,
    },
    compact={"_summary": "A compact list without breakdowns", "rack": "QUIXOTE", "limit": 10, "breakdowns": False},
    equity={"_summary": "Ranked by equity (score + the value of the tiles kept), exchanges included",
            "rack": "AEQSTUU", "limit": 3, "rank_by": "equity", "exchanges": True, "breakdowns": False, "_games": FLAT},
)
SCORE_EXAMPLES = examples(
    ranked={"_summary": "Score and rank a play from a rack",
            "rack": "QUIXOTE", "move": {"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"}, "_games": FLAT},
    notation={"_summary": "The same play in notation; lists better plays", "rack": "QUIXOTE", "play": "8C QUIXOTE", "_games": FLAT},
    phony={"_summary": "A phony is scored and marked invalid",
           "move": {"row": 8, "col": 7, "direction": "across", "word": "QXZ"}, "_games": FLAT},
)
COMPARE_EXAMPLES = examples(
    seed={"_summary": "QUIXOTE under each flat game",
          "move": {"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"}},
    notation={"_summary": "The same play in notation", "play": "8F QUIXOTE"},
)
END_EXAMPLES = examples(scrabble={"_summary": "One player went out (use with game scrabble)", "racks": ["", "QZ", "AE?"],
                                   "_games": FLAT})
CHECK_EXAMPLES = examples(words={"_summary": "Three words", "words": ["quixote", "qi", "qxz"]})
VERIFY_EXAMPLES = examples(
    midgame={"_summary": "A real mid-game board: no findings", "board": MIDGAME, "_games": FLAT},
    stray={"_summary": "A stray tile and an unknown word", "_games": FLAT,
           "board": ["A" + "." * 14] + ["." * 15] * 6 + [".......QXZ....."] + ["." * 15] * 7},
)


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def _defaults_to_descriptions(doc: dict[str, Any]) -> None:
    """Request properties keep their default in words, not as a ``default`` keyword.

    openapi-typescript (7.x, default options) reads a property with a ``default`` as always
    present, so a generated client would have to send every optional field; in a request the
    default is what the server assumes when the field is left out, so it is stated in the
    description instead."""
    schemas = doc.get("components", {}).get("schemas", {})
    todo = set().union(*(_refs(op.get("requestBody", {})) for path in doc.get("paths", {}).values()
                         for op in path.values()))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo |= _refs(schemas[name])
        for prop in schemas[name].get("properties", {}).values():
            if "default" in prop:
                default = prop.pop("default")
                words = "Default: " + json.dumps(default) + "."
                prop["description"] = f"{prop.get('description', '').rstrip()} {words}".strip()


def _prune(doc: dict[str, Any]) -> None:
    """Drop the components no operation uses (the generic bodies the per-game ones replaced)."""
    schemas = doc.get("components", {}).get("schemas", {})
    used: set[str] = set()
    todo = _refs(doc.get("paths", {}))
    while todo:
        name = todo.pop()
        if name not in used and name in schemas:
            used.add(name)
            todo |= _refs(schemas[name])
    doc["components"]["schemas"] = {k: v for k, v in schemas.items() if k in used}


def install_openapi(app: FastAPI) -> None:
    """Generate the document once, without the framework's HTTPValidationError shape: every
    operation documents the service's own 422 (the error envelope) instead."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        doc = get_openapi(title=app.title, version=app.version, description=app.description,
                          routes=app.routes, tags=app.openapi_tags)
        for path in doc.get("paths", {}).values():
            for op in path.values():
                responses = op.get("responses", {})
                ref = str(responses.get("422", {}).get("content", {}).get("application/json", {}).get("schema", {}))
                if "HTTPValidationError" in ref:
                    del responses["422"]
        schemas = doc.get("components", {}).get("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            schemas.pop(name, None)
        split_by_game(doc)
        _prune(doc)
        _defaults_to_descriptions(doc)
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]
    # served by our JSON class (newline-terminated, like every other body) in place of the
    # framework's own route
    app.router.routes = [r for r in app.router.routes if getattr(r, "path", None) != app.openapi_url]
    if app.openapi_url:
        app.add_api_route(app.openapi_url, lambda: JSON(app.openapi()), include_in_schema=False)
