"""Leave values as data: what the tiles kept after a turn are worth, per game.

A leave (the tiles left on the rack after a play or an exchange) is valued by a compact
model plus a table of frequent exact leaves, both learned by our own self-play
(``engine.strategy.train_leaves``, ``wordsolver train-leaves``):

- the **model** is a sum of weights, one per feature the leave has: each tile held at least
  once, twice, three times (so duplicates carry their own penalty), the vowel/consonant
  balance (one weight per pair ``vowels, consonants``; blanks count as neither), and Q with U;
- the **table** holds the leaves seen often in training, each valued from its own results and
  shrunk toward the model (``n / (n + k)``), so a leave seen rarely is the model's value.

Every value is an integer in thousandths of a point, so sums and comparisons are exact. The
value of the empty leave is 0; a leave's value is relative to keeping nothing.

Each game's values ship as ``engine/strategy/leavedata/{game}.json`` (provenance in the README
beside them). A file is validated when loaded: its format, game, size, the sha256 of its
content, and that every tile of the game has its single-tile leave in the table; a file that
fails raises :class:`~engine.errors.RulesetError`. Values belong to the lexicon they were
learned with; with any other lexicon (a user's own list) the shipped values are used as they
are, which is a fair approximation for an English word list of similar size, or the user
trains their own with ``wordsolver train-leaves --lexicon NAME`` and puts the file in the
folder named by ``WORDSOLVER_LEAVE_DIR`` (read once per process).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import EngineError, RulesetError
from ..rules import LETTERS, get_ruleset

LEAVE_DIR = Path(__file__).with_name("leavedata")
FORMAT = 1
MAX_FILE_BYTES = 4_000_000
MAX_TABLE = 200_000
MAX_ABS_MILLI = 1_000_000  # no leave is worth 1000 points
VOWELS = frozenset((1, 5, 9, 15, 21))  # A E I O U
DUP_LEVELS = 3  # features for holding a tile once, twice, three times


class NoLeaveValuesError(EngineError):
    """Equity asked for a game without leave values (Upwords)."""

    code = "no_leave_values"


def tile_char(i: int) -> str:
    return "?" if i == 0 else LETTERS[i - 1]


def leave_key(counts: Sequence[int]) -> str:
    """Canonical text of a leave: letters in order, blanks last (as engine.game.tiles_text)."""
    return "".join(LETTERS[i - 1] * counts[i] for i in range(1, 27)) + "?" * counts[0]


def key_counts(key: str) -> list[int]:
    counts = [0] * 27
    for ch in key:
        counts[0 if ch == "?" else ord(ch) - 64] += 1
    return counts


def features(counts: Sequence[int]) -> list[str]:
    """The model's features a leave has (see the module docstring)."""
    out = []
    vowels = consonants = 0
    for i, n in enumerate(counts):
        if not n:
            continue
        ch = tile_char(i)
        for level in range(1, min(n, DUP_LEVELS) + 1):
            out.append(f"{ch}{level}")
        if i in VOWELS:
            vowels += n
        elif i:
            consonants += n
    if vowels + consonants:
        out.append(f"vc{vowels},{consonants}")
    if counts[17] and counts[21]:
        out.append("QU")
    return out


@dataclass(frozen=True)
class LeaveValues:
    """One game's leave values (thousandths of a point)."""

    game: str
    lexicon: str
    weights: dict[str, int]
    table: dict[str, int]
    provenance: dict = field(default_factory=dict, compare=False)

    def model_milli(self, counts: Sequence[int]) -> int:
        w = self.weights
        return sum(w.get(f, 0) for f in features(counts))

    def milli(self, counts: Sequence[int]) -> int:
        """The value of the leave ``counts`` (27 tile counts, index 0 = blanks), in thousandths;
        the same for any order of the tiles, since the key is canonical."""
        if not any(counts):
            return 0
        got = self.table.get(leave_key(counts))
        return got if got is not None else self.model_milli(counts)

    def value(self, tiles: str) -> float:
        """The value of a leave written as text (``"ERS?"``, any order), in points."""
        return self.milli(key_counts(tiles.upper())) / 1000

    def to_dict(self) -> dict:
        body = {
            "format": FORMAT, "game": self.game, "lexicon": self.lexicon, "provenance": self.provenance,
            "weights": dict(sorted(self.weights.items())), "table": dict(sorted(self.table.items())),
        }
        return {**body, "sha256": checksum(body)}


def checksum(body: dict) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def dumps(values: LeaveValues) -> str:
    """The shipped file's text: one JSON object, compact, keys sorted, with its checksum."""
    return json.dumps(values.to_dict(), sort_keys=True, separators=(",", ":")) + "\n"


def read_checked(text: str | bytes, game: str, source: str, kind: str, max_bytes: int) -> dict[str, Any]:
    """The envelope every strategy data file shares (leaves, win tables): size, JSON, format 1,
    the checksum of the rest, and the game it is for. RulesetError names ``source`` and why."""
    def bad(why: str) -> RulesetError:
        return RulesetError(f"{source}: {why}", game=game)

    if len(text) > max_bytes:
        raise bad(f"{len(text)} bytes, more than {max_bytes}")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise bad(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a format-{FORMAT} {kind}")
    body = {k: v for k, v in data.items() if k != "sha256"}
    if data.get("sha256") != checksum(body):
        raise bad("checksum mismatch (the file was changed or cut short)")
    if data.get("game") != game:
        raise bad(f"holds the {kind}'s values for {data.get('game')!r}, not {game!r}")
    return data


def parse(text: str | bytes, game: str, source: str = "leave file") -> LeaveValues:
    """Read and validate one leave file (see the module docstring); RulesetError says why not."""

    def bad(why: str) -> RulesetError:
        return RulesetError(f"{source}: {why}", game=game)

    data = read_checked(text, game, source, "leave file", MAX_FILE_BYTES)
    weights, table = data.get("weights"), data.get("table")
    if not isinstance(weights, dict) or not isinstance(table, dict) or len(table) > MAX_TABLE:
        raise bad(f"weights and table must be objects (table at most {MAX_TABLE} leaves)")
    for name, v in [*weights.items(), *table.items()]:
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > MAX_ABS_MILLI:
            raise bad(f"value of {name!r} is not an integer of thousandths within ±{MAX_ABS_MILLI}")
    rs = get_ruleset(game)
    tiles = frozenset(LETTERS + "?")
    have = {tile_char(i): n for i, n in enumerate(rs.counts)}
    for key in table:  # checked by string operations: a table may hold 200,000 keys
        letters = key.rstrip("?")
        canonical = tiles.issuperset(key) and "?" not in letters and list(letters) == sorted(letters)
        if not canonical or not 1 <= len(key) < rs.rack_size:
            raise bad(f"table key {key!r} is not a canonical leave of 1 to {rs.rack_size - 1} tiles")
        if any(key.count(ch) > have[ch] for ch in set(key)):
            raise bad(f"table key {key!r} holds more tiles than {game} has")
    missing = [tile_char(i) for i, n in enumerate(rs.counts) if n and tile_char(i) not in table]
    if missing:
        raise bad(f"single-tile leaves missing from the table: {''.join(missing)}")
    return LeaveValues(game, str(data.get("lexicon", "")), dict(weights), dict(table), dict(data.get("provenance") or {}))


def from_csv(text: str, game: str, source: str = "leave table") -> LeaveValues:
    """Leave values from a CSV table ``leave,value`` (a header line, then one leave a line,
    letters in order and blanks last, values in points), such as another engine's table used
    as an opponent in an A/B run. Every leave is a table entry; there is no model, so a leave
    the table lacks is worth 0. Leaves the game cannot hold (more tiles of a letter than it
    has, or a full rack) are skipped. RulesetError names the first malformed line."""
    rs = get_ruleset(game)
    table: dict[str, int] = {}
    lines = text.splitlines()
    if not lines or lines[0].strip().lower() != "leave,value":
        raise RulesetError(f"{source}: the first line must be the header 'leave,value'", game=game)
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        key, _, value = line.strip().partition(",")
        try:
            milli = round(float(value) * 1000)
        except ValueError:
            raise RulesetError(f"{source}, line {n}: value {value!r} is not a number", game=game) from None
        counts = key_counts(key) if key and set(key) <= set(LETTERS + "?") else None
        if counts is None or leave_key(counts) != key or abs(milli) > MAX_ABS_MILLI:
            raise RulesetError(f"{source}, line {n}: {line.strip()!r} is not a canonical leave with a value", game=game)
        if len(key) < rs.rack_size and all(c <= have for c, have in zip(counts, rs.counts, strict=True)):
            table[key] = milli
    return LeaveValues(game, "", {}, table, {"source": source, "format": "csv leave,value"})


def read_file(path: str | Path, game: str) -> LeaveValues:
    """A leave file: this project's JSON (:func:`parse`) or a CSV table (:func:`from_csv`,
    ``.csv`` or ``.csv.gz``)."""
    p = Path(path)
    data = p.read_bytes()
    if p.name.endswith(".gz"):
        data = gzip.decompress(data)
    if p.name.endswith((".csv", ".csv.gz")):
        return from_csv(data.decode("utf-8"), game, str(p))
    return parse(data, game, str(p))


def path_for(game: str) -> Path:
    """``engine/strategy/leavedata/{game}.json``, or the same name in ``$WORDSOLVER_LEAVE_DIR`` when
    that folder holds one (values a user trained, e.g. for their own lexicon)."""
    own = os.environ.get("WORDSOLVER_LEAVE_DIR")
    if own and (Path(own) / f"{game}.json").is_file():
        return Path(own) / f"{game}.json"
    return LEAVE_DIR / f"{game}.json"


def available(game: str) -> bool:
    return path_for(game).is_file()


_SHIPPED: dict[str, LeaveValues] = {}


def shipped(game: str) -> LeaveValues:
    """The shipped leave values of ``game`` (loaded and validated once per process: most of a
    second for a table of 130,000 leaves)."""
    values = _SHIPPED.get(game)
    if values is None:
        path = path_for(game)
        if not path.is_file():
            raise RulesetError(f"no leave values ship for {game}", game=game)
        values = _SHIPPED[game] = parse(path.read_bytes(), game, str(path))
    return values


def shipped_loaded(game: str) -> bool:
    """Whether :func:`shipped` answers ``game`` at once (its values are loaded in this process)."""
    return game in _SHIPPED


def unload() -> None:
    """Forget the values :func:`shipped` loaded (after ``$WORDSOLVER_LEAVE_DIR`` changed)."""
    _SHIPPED.clear()


def zero(game: str, lexicon: str = "") -> LeaveValues:
    """Values that rate every leave 0 (equity = score): the starting point of training."""
    rs = get_ruleset(game)
    return LeaveValues(game, lexicon, {}, {tile_char(i): 0 for i, n in enumerate(rs.counts) if n})
