"""One OpenAPI operation per game where the request body depends on the game.

A request's board size, its letters, whether blanks and stack heights exist, a rack's length,
the squares a play may start on: all depend on the game in the path, and JSON Schema cannot tie
a body to a path parameter. So each ``POST /v1/games/{game}/...`` whose body the rules narrow
is published as one concrete path per game (``/v1/games/scrabble/moves``, operation
``findMovesScrabble``), each with that game's body schema, derived here from the ruleset (sizes,
letters and tile counts are the rules data's, not literals). Operations whose body does not
depend on the game keep the ``{game}`` path. The server's routes are unchanged: this only
describes them more precisely.

Each narrowed field says exactly what the engine checks (engine/board.py: parse_board,
parse_rack, parse_heights; engine/solver.py: placements_from_word), no more and no less, so a
request the schema accepts passes those checks and one it refuses fails them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine import GAMES, Ruleset, get_ruleset
from engine.strategy import leaves

from .service import compare_games

Schema = dict[str, Any]
NULL: Schema = {"type": "null"}
REF = "#/components/schemas/"


def _rows(n: int, chars: str) -> Schema:
    return {"type": "array", "minItems": n, "maxItems": n, "items": {"type": "string", "pattern": f"^[{chars}]{{{n}}}$"}}


def board(r: Ruleset) -> Schema | None:
    """parse_board: ``size`` rows of ``size`` squares; lowercase (a blank) only in flat games."""
    return _rows(r.size, ".A-Z" if r.stacking else ".A-Za-z")


def heights(r: Ruleset) -> Schema | None:
    """parse_heights: stacking games only (else null), digits 0..max_height."""
    return _rows(r.size, f"0-{r.max_height}") if r.stacking else None


def rack(r: Ruleset) -> Schema | None:
    """parse_rack: letters (either case), '?' only where the game has blanks, at most ``blanks``
    of them, at most ``rack_size`` tiles."""
    if not r.blanks:
        return {"type": "string", "pattern": f"^[A-Za-z]{{0,{r.rack_size}}}$"}
    cap = f"(?!(?:[^?]*\\?){{{r.blanks + 1}}})"
    return {"type": "string", "pattern": f"^{cap}[A-Za-z?]{{0,{r.rack_size}}}$"}


def racks(r: Ruleset) -> Schema | None:
    return {"type": "array", "items": rack(r)}  # the number of racks as the model says


def coordinate(r: Ruleset) -> Schema | None:
    return {"type": "integer", "minimum": 1, "maximum": r.size}


def square(r: Ruleset) -> Schema | None:
    return {"type": "array", "items": coordinate(r), "minItems": 2, "maxItems": 2}


def word(r: Ruleset) -> Schema | None:
    """placements_from_word: letters or '.', one square each (Upwords' Qu tile is written QU)."""
    return {"type": "string", "minLength": 1, "maxLength": r.size * (2 if r.qu_tile else 1), "pattern": "^[A-Za-z.]+$"}


def rank_by(r: Ruleset) -> Schema | None:
    return {"type": "string", "enum": ["score", "equity"] if leaves.available(r.name) else ["score"]}


# request property -> its schema in one game (None: only null); keyed by component and property
# where a name means different things in different requests
FIELDS: dict[str, Callable[[Ruleset], Schema | None]] = {
    "board": board, "heights": heights, "rack": rack, "other_rack": rack, "opponent_rack": rack,
    "racks": racks, "square": square, "row": coordinate, "col": coordinate, "word": word, "rank_by": rank_by,
}
ONLY_IN = {"square": "MoveFilters", "row": "PlayIn", "col": "PlayIn", "word": "PlayIn", "racks": "EndIn"}


def _narrowed(prop: Schema, new: Schema | None) -> Schema:
    """``new`` in place of the non-null part of ``prop``, keeping its description, null, and the
    item counts ``new`` leaves open."""
    keep = {k: v for k, v in prop.items() if k in ("title", "description", "examples", "default", "minItems", "maxItems")}
    nullable = any(s == NULL for s in prop.get("anyOf", []))
    if new is None:
        return keep | NULL
    return keep | ({"anyOf": [new, NULL]} if nullable else new)


def _component(name: str, rules: Ruleset, schemas: dict[str, Schema], suffix: str) -> str:
    """The name of ``name``'s component narrowed to ``rules`` (``name`` itself when nothing changes)."""
    narrowed = _narrow(schemas[name], rules, schemas, suffix, name)
    if narrowed == schemas[name]:
        return name
    schemas[name + suffix] = narrowed
    return name + suffix


def _narrow(node: Any, rules: Ruleset, schemas: dict[str, Schema], suffix: str, component: str = "") -> Any:
    """``node`` (a request body's schema) with the fields in FIELDS narrowed to ``rules``; the
    components it uses narrowed as new components named with ``suffix``."""
    if isinstance(node, list):
        return [_narrow(v, rules, schemas, suffix, component) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF):
        return node | {"$ref": REF + _component(ref.removeprefix(REF), rules, schemas, suffix)}
    # the cross-field rules (allOf: app.schemas.exactly_one_each) hold in every game as written
    out = {k: v if k == "allOf" else _narrow(v, rules, schemas, suffix, component)
           for k, v in node.items() if k != "properties"}
    if "properties" in node:
        out["properties"] = {
            p: _narrowed(s, FIELDS[p](rules)) if p in FIELDS and ONLY_IN.get(p, component) == component
            else _narrow(s, rules, schemas, suffix, component)
            for p, s in node["properties"].items()
        }
    return out


# operations some games do not offer (the server refuses them for those games whatever the body)
OFFERED: dict[str, Callable[[str], bool]] = {"/simulate": leaves.available}
# operations without a game in the path whose body every one of several games judges: they share
# one narrowed schema (checked equal), named with the suffix
SHARED: dict[str, tuple[str, Callable[[], list[Ruleset]]]] = {"/v1/compare": ("Compared", compare_games)}


def split_by_game(doc: dict[str, Any]) -> None:
    """Replace each templated POST operation whose body some game narrows by one path per game
    that offers it. A request example goes to the games its ``x-games`` names (default: all)."""
    schemas = doc["components"]["schemas"]
    paths: dict[str, Any] = {}
    for path, item in doc["paths"].items():
        op = item.get("post")
        body = op and op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        offered = next((f for suffix, f in OFFERED.items() if path.endswith(suffix)), lambda g: True)
        if path in SHARED and body:
            suffix, games = SHARED[path]
            shared = [_narrow(body, r, schemas, suffix) for r in games()]
            assert all(s == shared[0] for s in shared), f"{path}: its games' schemas differ"
            op["requestBody"]["content"]["application/json"]["schema"] = shared[0]
        per_game = {g: _narrow(body, get_ruleset(g), schemas, g.capitalize()) for g in GAMES if offered(g)} if body else {}
        if "{game}" not in path or all(s == body for s in per_game.values()):
            paths[path] = item
            continue
        for game, schema in per_game.items():
            one = copy.deepcopy(op)
            one["operationId"] = op["operationId"] + game.capitalize()
            one["parameters"] = [p for p in one.get("parameters", []) if p["name"] != "game"]
            content = one["requestBody"]["content"]["application/json"]
            content["schema"] = schema
            if "examples" in content:
                content["examples"] = {k: ex for k, ex in content["examples"].items() if game in ex.get("x-games", GAMES)}
            paths[path.replace("{game}", game)] = {"post": one}
    for item in paths.values():
        for op in item.values():
            for ex in op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("examples", {}).values():
                ex.pop("x-games", None)
    doc["paths"] = paths
