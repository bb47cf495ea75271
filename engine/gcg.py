"""GCG game records in and out (the format Quackle, Macondo and Woogles write).

Reading (:func:`parse_gcg`, then :func:`to_game`) accepts every line type those programs write:

- pragmas: ``#player1 nick Full Name`` / ``#player2``, ``#lexicon``, ``#title``,
  ``#description``, ``#id``, ``#character-encoding``, ``#rack1`` / ``#rack2`` (a player's rack
  when the record stops), ``#note`` (attached to the turn before it; lines that follow a note
  without ``#`` or ``>`` continue it) and any other ``#`` pragma (kept, not interpreted);
- ``>nick: RACK 8D WORD +32 32``: a play, across when the row comes first (``8D``), down when
  the column does (``D8``); ``.`` is a tile already on the board, a lowercase letter a blank;
  some files spell the played-through letters instead of ``.``, which is accepted;
- ``>nick: RACK -EIO +0 96`` (exchange), ``-3 +0`` (exchange of 3 unknown tiles), ``- +0`` (pass);
- ``>nick: RACK -- -24 55``: the play before it was a phony, challenged off;
- ``>nick: RACK (challenge) +5 172``: a challenge bonus (a play challenged and found good);
- ``>nick: RACK (time) -10 422``: a time penalty;
- ``>nick: (OPEG) +14 345``: end of game, the points for the tiles the other players kept;
- ``>nick: RACK (RACK) -6 371``: end of game, the tiles this player kept.

The rack may be left out of any move line. Errors (:class:`~engine.errors.GameRecordError`)
name the line number and quote the line.

Writing (:func:`write_gcg`) produces the same notation, one line per turn record, with the
racks, so a game written and read back is the same game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .board import BLANK, LETTER_MASK
from .errors import EngineError, GameRecordError
from .game import (
    BONUS,
    END,
    EXCHANGE,
    PASS,
    PENALTY,
    PLAY,
    WITHDRAWN,
    Game,
    GameRules,
    Turn,
    canonical,
    subtract,
    tile_counts,
    tiles_of_move,
    tiles_text,
)
from .lexicon import Lexicon, from_words
from .notation import parse_square, square_name, square_text
from .plays import Move, Position
from .rules import Ruleset
from .solver import check_play

_EMPTY_LEXICON: Lexicon | None = None
RACK = re.compile(r"^[A-Za-z?]*$")
SCORE = re.compile(r"^[+-]\d+$")


@dataclass(frozen=True)
class Entry:
    """One move line of a record, as written."""

    line: int
    player: int
    kind: str  # PLAY, EXCHANGE, PASS, WITHDRAWN, BONUS, PENALTY, END
    rack: str | None  # None when the line shows no rack
    score: int
    cumulative: int
    position: str = ""  # PLAY: "8D" or "D8"
    word: str = ""  # PLAY: the word as written
    tiles: str = ""  # EXCHANGE: tiles thrown; END: the rack counted
    count: int = 0  # EXCHANGE: number of tiles thrown
    text: str = ""  # the line itself


@dataclass
class Record:
    nicks: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    pragmas: dict[str, str] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)  # entry index -> note
    final_racks: dict[int, str] = field(default_factory=dict)  # seat -> #rackN

    @property
    def lexicon(self) -> str:
        return self.pragmas.get("lexicon", "")


def decode(data: bytes) -> str:
    """A record's bytes as text: UTF-8 (BOM allowed), else ISO-8859-1 as older files use."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    return text.lstrip("\ufeff")


def _error(lineno: int, line: str, message: str) -> GameRecordError:
    return GameRecordError(f"line {lineno}: {message}: {line.strip()[:120]!r}", line=lineno, text=line.strip()[:200])


MAX_POINTS = 1_000_000  # a score or cumulative score beyond this is refused (no game comes near it)


def _number(tok: str, lineno: int, line: str, what: str) -> int:
    if not SCORE.match(tok) and not re.match(r"^\d+$", tok):
        raise _error(lineno, line, f"{what} {tok!r} is not a number")
    return _points(tok, lineno, line, what)


def _points(tok: str, lineno: int, line: str, what: str) -> int:
    """A score within +-MAX_POINTS (checked on the digits first: a 5,000-digit number is not
    even converted)."""
    digits = tok.lstrip("+-")
    if len(digits) > 7 or abs(int(tok)) > MAX_POINTS:
        raise _error(lineno, line, f"{what} {tok[:20]!r}{'...' if len(tok) > 20 else ''} is out of range "
                                   f"(at most {MAX_POINTS:,} points either way)")
    return int(tok)


def parse_gcg(text: str, players: int = 2) -> Record:
    """Read a GCG record into its lines (no board yet: see :func:`to_game`)."""
    rec = Record()
    in_note = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped:
            in_note = False
            continue
        if stripped.startswith("#"):
            key, _, value = stripped[1:].partition(" ")
            value = value.strip()
            in_note = key == "note"
            m = re.fullmatch(r"player(\d{1,3})", key)
            r = re.fullmatch(r"rack(\d{1,3})", key)
            for found in (m, r):
                if found and not 1 <= int(found.group(1)) <= players:
                    raise _error(lineno, line, f"#{key}: players are numbered 1 to {players}")
            if m:
                seat = int(m.group(1)) - 1
                nick, _, name = value.partition(" ")
                if not nick:
                    raise _error(lineno, line, "a player line needs a nickname")
                while len(rec.nicks) <= seat:
                    rec.nicks.append("")
                    rec.names.append("")
                rec.nicks[seat], rec.names[seat] = nick, name.strip() or nick
            elif r:
                if not RACK.match(value):
                    raise _error(lineno, line, f"rack {value!r} has a character that is not a tile")
                rec.final_racks[int(r.group(1)) - 1] = canonical(value)
            elif key == "note":
                at = len(rec.entries) - 1
                rec.notes[at] = (rec.notes.get(at, "") + "\n" + value).strip()
            else:
                rec.pragmas[key] = value
            continue
        if not stripped.startswith(">"):
            if in_note:
                at = len(rec.entries) - 1
                rec.notes[at] = rec.notes.get(at, "") + "\n" + stripped
                continue
            raise _error(lineno, line, "a line must start with '#' (a pragma) or '>' (a move)")
        in_note = False
        rec.entries.append(_move_line(rec, lineno, line, players))
    return rec


def _seat(rec: Record, nick: str, lineno: int, line: str, players: int) -> int:
    if nick in rec.nicks:
        return rec.nicks.index(nick)
    if len([n for n in rec.nicks if n]) >= players:
        raise _error(lineno, line, f"player {nick!r} is not one of {', '.join(rec.nicks)}")
    if "" in rec.nicks:
        seat = rec.nicks.index("")
        rec.nicks[seat] = rec.names[seat] = nick
        return seat
    rec.nicks.append(nick)
    rec.names.append(nick)
    return len(rec.nicks) - 1


def _move_line(rec: Record, lineno: int, line: str, players: int) -> Entry:
    head, colon, rest = line.strip()[1:].partition(":")
    if not colon or not head.strip():
        raise _error(lineno, line, "a move line is '>nick: ...'")
    seat = _seat(rec, head.strip(), lineno, line, players)
    toks = rest.split()
    if len(toks) < 2:
        raise _error(lineno, line, "a move line ends with the turn's score and the cumulative score")
    cum = _number(toks[-1], lineno, line, "cumulative score")
    score_tok = toks[-2]
    if not SCORE.match(score_tok):
        raise _error(lineno, line, f"the turn's score {score_tok!r} must be signed (+32, -10)")
    score = _points(score_tok, lineno, line, "the turn's score")
    body = toks[:-2]

    def entry(kind: str, rack: str | None, tiles: str = "", count: int = 0, position: str = "", word: str = "") -> Entry:
        return Entry(line=lineno, player=seat, kind=kind, rack=rack, score=score, cumulative=cum, position=position,
                     word=word, tiles=tiles, count=count, text=line.strip())

    def rack_of(tok: str) -> str:
        if not RACK.match(tok):
            raise _error(lineno, line, f"rack {tok!r} has a character that is not a tile")
        return canonical(tok)

    if len(body) == 1 and body[0].startswith("(") and body[0].endswith(")"):
        inner = body[0][1:-1]
        if inner in ("challenge", "time"):
            return entry(BONUS if inner == "challenge" else PENALTY, None)
        return entry(END, "", tiles=rack_of(inner))  # went out: the others' tiles
    if len(body) == 2 and body[1].startswith("(") and body[1].endswith(")"):
        inner = body[1][1:-1]
        shown = rack_of(body[0])
        if inner == "challenge":
            return entry(BONUS, shown)
        if inner == "time":
            return entry(PENALTY, shown)
        return entry(END, shown, tiles=rack_of(inner))
    rack: str | None = None
    if body and (len(body) == 3 or (len(body) == 2 and body[1].startswith("-")) or (len(body) == 2 and body[1] == "--")):
        rack = rack_of(body[0])
        body = body[1:]
    if len(body) == 1 and body[0].startswith("-"):
        arg = body[0][1:]
        if arg == "-":
            return entry(WITHDRAWN, rack)
        if arg == "":
            return entry(PASS, rack)
        if arg.isascii() and arg.isdigit():
            if len(arg) > 3:
                raise _error(lineno, line, f"an exchange of {arg[:20]!r} tiles is out of range")
            return entry(EXCHANGE, rack, count=int(arg))
        return entry(EXCHANGE, rack, tiles=rack_of(arg), count=len(arg))
    if len(body) == 2:
        pos, word = body
        if parse_square(pos) is None:
            raise _error(lineno, line, f"{pos!r} is not a position (8D across, D8 down)")
        if not re.fullmatch(r"[A-Za-z.]+", word):
            raise _error(lineno, line, f"word {word!r} may hold only letters and '.'")
        return entry(PLAY, rack, position=pos.upper(), word=word)
    raise _error(lineno, line, "not a play, exchange, pass, challenge, time penalty or end-of-game line")


# ---------------------------------------------------------------- records to games


def square_of(rules: Ruleset, position: str) -> tuple[int, int, str]:
    """GCG position to 1-indexed (row, col, direction): ``8D`` across, ``D8`` down."""
    parsed = parse_square(position)
    if parsed is None:
        raise GameRecordError(f"{position!r} is not a position")
    row, col, direction = parsed
    if not (1 <= row <= rules.size and 1 <= col <= rules.size):
        raise GameRecordError(f"{position!r} is not a square of the {rules.size}x{rules.size} board")
    return row, col, direction


def position_text(move: Move) -> str:
    return square_text(move.row, move.col, move.direction)


def word_placements(
    rules: Ruleset, cells: list[int], row: int, col: int, direction: str, word: str
) -> list[tuple[int, int]]:
    """A GCG word, one character per square, to new-tile placements: ``.`` and a letter equal
    to the tile there keep the square; in a stacking game another letter goes on top."""
    n = rules.size
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    out = []
    for k, ch in enumerate(word):
        r, c = row - 1 + dr * k, col - 1 + dc * k
        if not (0 <= r < n and 0 <= c < n):
            raise GameRecordError(f"{word!r} runs off the {n}x{n} board", row=r + 1, col=c + 1)
        i = r * n + c
        if ch == ".":
            if not cells[i]:
                raise GameRecordError(f"'.' at {square_name(r + 1, c + 1)} but the square is empty", row=r + 1, col=c + 1)
            continue
        code = ord(ch.upper()) - 64
        if cells[i] and cells[i] & LETTER_MASK == code:
            continue
        if cells[i] and not rules.stacking:
            raise GameRecordError(f"square {square_name(r + 1, c + 1)} holds another tile", row=r + 1, col=c + 1)
        if ch.islower() and not rules.stacking:
            code |= BLANK
        out.append((i, code))
    if not out:
        raise GameRecordError("the play places no new tile")
    return out


def move_of(rules: Ruleset, cells: list[int], heights: list[int] | None, placed: list[tuple[int, int]]) -> Move:
    """The engine's Move for placements (geometry checked, score from the scorer)."""
    global _EMPTY_LEXICON
    if _EMPTY_LEXICON is None:
        _EMPTY_LEXICON = from_words([], "none")
    pos = Position(rules, list(cells), [0] * 27, list(heights) if heights is not None else None, False)
    return check_play(pos, _EMPTY_LEXICON, placed, use_rack=False).move


def gcg_word(rules: Ruleset, cells_before: list[int], move: Move) -> str:
    """The GCG spelling of a play: new tiles as letters (blanks lowercase), kept squares ``.``."""
    n = rules.size
    new = {(t.row - 1) * n + t.col - 1: (t.letter[0].lower() if t.blank else t.letter[0]) for t in move.tiles}
    dr, dc = (0, 1) if move.direction == "across" else (1, 0)
    out = []
    r, c = move.row - 1, move.col - 1
    while 0 <= r < n and 0 <= c < n:
        i = r * n + c
        if i in new:
            out.append(new[i])
        elif cells_before[i]:
            out.append(".")
        else:
            break
        r, c = r + dr, c + dc
    return "".join(out)


@dataclass(frozen=True)
class Imported:
    """A record read into a game, with what the record itself said about each turn."""

    game: Game
    record: Record
    entries: tuple[Entry | None, ...]  # the line of game.turns[i] (a phony's play line); None: none
    withdraw_lines: dict[int, Entry]  # turn index of a withdrawn phony -> its '--' line


def to_game(rec: Record, rules: GameRules, lexicon: str = "") -> Imported:
    """Place every play of a record on the board (loosely: racks as recorded) and return the
    game. Errors name the line."""
    rs = rules.ruleset
    n2 = rs.size * rs.size
    cells = [0] * n2
    heights: list[int] | None = [0] * n2 if rs.stacking else None
    turns: list[Turn] = []
    entries: list[Entry | None] = []
    history: list[tuple[int, list[tuple[int, int, int]]]] = []  # turn index, (square, old code, old height)
    withdraw_lines: dict[int, Entry] = {}
    for e in rec.entries:
        if e.player >= rules.players:
            raise _error(e.line, e.text, f"{rs.name} has {rules.players} players")
        rack = e.rack or ""
        try:
            _check_rack(rs, e.rack)
            _check_rack(rs, e.tiles)
            if e.kind == PLAY:
                row, col, direction = square_of(rs, e.position)
                placed = word_placements(rs, cells, row, col, direction, e.word)
                move = move_of(rs, cells, heights, placed)
                if e.rack and subtract(tile_counts(e.rack), tile_counts(tiles_of_move(move))) is None:
                    raise GameRecordError(f"the rack {e.rack} does not hold the tiles played ({tiles_of_move(move)})")
                undo = [(i, cells[i], heights[i] if heights is not None else 0) for i, _ in placed]
                for i, code in placed:
                    cells[i] = code
                    if heights is not None:
                        heights[i] += 1
                history.append((len(turns), undo))
                turns.append(Turn(e.player, PLAY, rack=rack, move=move, score=e.score))
            elif e.kind == WITHDRAWN:
                if not history or turns[history[-1][0]].player != e.player or history[-1][0] != _last_turn(turns):
                    raise GameRecordError("'--' takes back a play, but the player's last turn was not a play")
                k, undo = history.pop()
                for i, code, h in undo:
                    cells[i] = code
                    if heights is not None:
                        heights[i] = h
                turns[k] = replace(turns[k], kind=WITHDRAWN, score=0)
                withdraw_lines[k] = e
                continue
            elif e.kind == EXCHANGE:
                turns.append(Turn(e.player, EXCHANGE, rack=rack, tiles=e.tiles, count=e.count, score=e.score))
            elif e.kind == END:
                turns.append(Turn(e.player, END, rack=rack, tiles=e.tiles if e.rack else "", score=e.score))
            else:
                turns.append(Turn(e.player, e.kind, rack=rack, score=e.score))
        except EngineError as exc:
            raise _error(e.line, e.text, exc.message) from exc
        entries.append(e)
    turns, entries = _normalise_end(rules, turns, entries)
    game = Game(
        rules=rules,
        turns=tuple(turns),
        names=tuple(rec.nicks[:rules.players]) + tuple(f"player{k + 1}" for k in range(len(rec.nicks), rules.players)),
        first=next((t.player for t in turns if t.uses_turn), 0),
        lexicon=lexicon or rec.lexicon,
    )
    return Imported(fill_draws(game), rec, tuple(entries), withdraw_lines)


def _check_rack(rules: Ruleset, rack: str | None) -> None:
    """A rack on a record line holds at most a rack's worth of the game's tiles (this also
    bounds what a search on it may cost)."""
    if not rack:
        return
    if len(rack) > rules.rack_size:
        raise GameRecordError(f"the rack {rack} holds {len(rack)} tiles; {rules.name} racks hold {rules.rack_size}")
    if rack.count("?") > rules.blanks:
        raise GameRecordError(f"the rack {rack} holds {rack.count('?')} blanks; {rules.name} has {rules.blanks}")


def _last_turn(turns: list[Turn]) -> int:
    for k in range(len(turns) - 1, -1, -1):
        if turns[k].uses_turn:
            return k
    return -1


def _normalise_end(
    rules: GameRules, turns: list[Turn], entries: list[Entry | None]
) -> tuple[list[Turn], list[Entry | None]]:
    """End-of-game lines as one END record per player, in seat order (a player without a line
    kept no tiles and gets 0), so a written and re-read game compares equal."""
    k = len(turns)
    while k and turns[k - 1].kind == END:
        k -= 1
    if k == len(turns):
        return turns, entries
    ends = {t.player: (t, e) for t, e in zip(turns[k:], entries[k:], strict=True)}
    if len(ends) != len(turns) - k:
        return turns, entries  # a player with two end lines: keep the record as written
    tail_t = [ends[p][0] if p in ends else Turn(p, END) for p in range(rules.players)]
    tail_e = [ends[p][1] if p in ends else None for p in range(rules.players)]
    return turns[:k] + tail_t, entries[:k] + tail_e


def fill_draws(game: Game) -> Game:
    """Fill in the initial racks and the tiles each turn drew, where the record's racks tell
    them (the next rack of the same player minus what the turn left)."""
    players = game.rules.players
    turns = list(game.turns)
    firsts: dict[int, str] = {}
    last: dict[int, tuple[int, list[int]]] = {}  # player -> (turn index, tiles left)
    for k, t in enumerate(turns):
        if t.kind not in (PLAY, EXCHANGE, PASS, WITHDRAWN, END) or (t.kind == END and not t.rack and t.score):
            continue
        if t.kind == END and not t.rack and not t.tiles:
            rack_now: str | None = ""
        else:
            rack_now = t.rack if t.rack or t.kind == END else None
        if rack_now is None:
            last.pop(t.player, None)
            continue
        firsts.setdefault(t.player, rack_now)
        if t.player in last:
            j, kept = last.pop(t.player)
            drawn = subtract(tile_counts(rack_now), kept)
            if drawn is not None and turns[j].kind != WITHDRAWN:
                turns[j] = replace(turns[j], drawn=tiles_text(drawn))
        if t.kind == END:
            continue
        have = tile_counts(rack_now)
        left: list[int] | None
        if t.kind == PLAY and t.move is not None:
            left = subtract(have, tile_counts(tiles_of_move(t.move)))
        elif t.kind == EXCHANGE and t.tiles:
            left = subtract(have, tile_counts(t.tiles))
        elif t.kind in (PASS, WITHDRAWN):
            left = have
        else:
            left = None
        if left is not None:
            last[t.player] = (k, left)
    racks = tuple(firsts.get(p, "") for p in range(players))
    return replace(game, turns=tuple(turns), initial_racks=racks)


def read_gcg(text: str, rules: GameRules, lexicon: str = "") -> Imported:
    return to_game(parse_gcg(text, rules.players), rules, lexicon)


# ---------------------------------------------------------------- games to records


def write_gcg(game: Game, description: str = "") -> str:
    """The game as a GCG record (racks on every line, end-of-game lines as Macondo writes)."""
    rs = game.rules.ruleset
    nicks = [re.sub(r"\s+", "_", n) or f"player{k + 1}" for k, n in enumerate(game.names)]
    lines = ["#character-encoding UTF-8"]
    for k, nick in enumerate(nicks):
        lines.append(f"#player{k + 1} {nick} {game.names[k]}")
    if game.lexicon:
        lines.append(f"#lexicon {game.lexicon}")
    lines.append(f"#description {description or f'wordsolver {rs.name} game'}")
    cells = [0] * (rs.size * rs.size)
    totals = [0] * game.rules.players
    racks_left = {t.player: t.rack for t in game.turns if t.kind == END}
    for t in game.turns:
        who = f">{nicks[t.player]}:"
        totals[t.player] += t.score
        cum = totals[t.player]
        if t.kind in (PLAY, WITHDRAWN):
            assert t.move is not None
            word = gcg_word(rs, cells, t.move)
            score = t.score if t.kind == PLAY else t.move.score
            lines.append(f"{who} {t.rack} {position_text(t.move)} {word} +{score} {cum if t.kind == PLAY else cum + score}")
            if t.kind == WITHDRAWN:
                lines.append(f"{who} {t.rack} -- -{score} {cum}")
            else:
                for tile in t.move.tiles:
                    cells[(tile.row - 1) * rs.size + tile.col - 1] = 1
        elif t.kind == EXCHANGE:
            lines.append(f"{who} {t.rack} -{t.tiles or t.count} +0 {cum}")
        elif t.kind == PASS:
            lines.append(f"{who} {t.rack} - +0 {cum}")
        elif t.kind in (BONUS, PENALTY):
            lines.append(f"{who} {t.rack} ({'challenge' if t.kind == BONUS else 'time'}) {t.score:+d} {cum}")
        elif t.kind == END:
            if t.rack:
                lines.append(f"{who} {t.rack} ({t.tiles or t.rack}) {t.score:+d} {cum}")
            else:  # went out: the others' tiles, "()" when every player went out (Crossplay's final turns)
                others = "".join(r for p, r in racks_left.items() if p != t.player)
                lines.append(f"{who} ({others}) {t.score:+d} {cum}")
    return "\n".join(lines) + "\n"
