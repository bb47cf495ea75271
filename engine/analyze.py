"""Grade a whole game: every turn re-scored, checked against the lexicon and ranked among all
the plays the rack allowed.

For each turn that uses a player's turn (a play, a phony taken back, an exchange, a pass):
the rack (when the record shows it), the move, the score the record gave and the score the
engine gives, whether every word is in the lexicon, the move's rank among all legal plays,
the best plays, and the points left on the table (the best score minus the points the turn
actually kept: a phony taken back, an exchange and a pass keep 0). Per player: the recorded
and re-scored totals and the points left. The recorded cumulative scores are compared line
by line with re-scored ones and the first line that differs is named.

Endgames: a play or a pass made with the bag empty (two players, the rack known; the
opponent's rack is then the unseen tiles) is also graded by the endgame solver
(:mod:`engine.strategy.endgame`), by value rather than score: ``value_best`` (the best first
move, both sides then playing their best to the end, rack adjustments included),
``value_played`` (the same search with the turn's own play forced first), ``points_lost`` (the
difference) and ``blown`` (points lost). Each such turn has ``ENDGAME_SECONDS`` (half per
search), within the whole grade's deadline; a search cut short answers with the best found
and ``proved: False`` (when it found less than the play made, the play is the best found).
Crossplay's final round is always solved exactly (one ranked query per first play).

Re-scoring the lines that are not tile plays: a challenge bonus and a time penalty are taken
as recorded; an end-of-game line is checked against the tiles it names: ``RACK (RACK) -N``
must be the game's rack adjustment of that rack, and ``(RACK) +N`` the rack's value, or twice
it when the other player has no end line (NASPA tournaments and Macondo give the player going
out twice the opponent's rack; box rules subtract it from the opponent instead: the same
spread).

Cost: the searches share one deadline (``time.monotonic()``), and so does everything else: the
ranking stops early enough for the turns left to be re-scored and checked (not ranked, and
they say so: ``cut_short``) and the answer written within it. What a turn costs besides its
search is measured as the game is graded (the mean so far, five times over: the turn itself
and the answer, whose models cost about three turns' worth each), so a long record stops ranking earlier (issue 21: a maximal record ran 11.4-12.1 s
against a 10 s budget).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from . import search
from .board import BLANK, LETTER_MASK, format_board, tile_char
from .errors import EngineError, IllegalPlayError, TimeBudgetExceeded
from .game import END, PASS, PLAY, WITHDRAWN, Game, GameRules, Turn, placements, tile_counts
from .gcg import Entry, Imported, gcg_word, position_text
from .lexicon import Lexicon
from .plays import Position, top_moves
from .rules import LETTERS
from .solver import check_play, place_among
from .strategy import endgame as eg_solver
from .winreview import TurnFacts, WinGrade, table_for, win_grades

ENDGAME_SECONDS = 1.0  # each endgame turn's budget: half for the best play, half for the play made


@dataclass(frozen=True)
class BestPlay:
    play: str  # GCG notation: position and word
    score: int


@dataclass(frozen=True)
class PlacedTile:
    row: int  # 1-based
    col: int
    letter: str  # uppercase; lowercase for a blank
    blank: bool


@dataclass(frozen=True)
class EndgameGrade:
    """A turn played with the bag empty, graded by the endgame solver: values are final spread
    changes for the player to move (own points minus the opponent's, to the end of the game,
    rack adjustments included), both sides playing their best after the first move."""

    value_best: int  # the best first move's value (proved, or the best found)
    value_played: int  # the value with the turn's own move forced first
    points_lost: int  # value_best - value_played (never below 0)
    proved: bool  # both values searched to the end of the game
    best_play: str  # the solver's first move, in GCG notation as ``play`` ("8D WO.D", "pass")
    blown: bool  # the play lost points against the best
    other_rack: str  # the opponent's rack: the unseen tiles


@dataclass(frozen=True)
class TurnGrade:
    turn: int  # 1-based, counting turns only (not bonus or end lines)
    line: int  # the record's line (0 when not read from a record)
    player: int  # 0-based seat
    name: str
    kind: str  # play, withdrawn, exchange, pass
    rack: str | None  # None when unknown
    play: str  # "8D WORD", "exchange ABC", "exchange 3", "pass"
    recorded_score: int  # what the record gave this turn (a phony taken back: what it had scored)
    score: int | None  # re-scored by the engine (plays and phonies), else 0
    valid: bool | None  # every word in the lexicon (plays and phonies), else None
    invalid_words: tuple[str, ...] = ()
    rank: int | None = None  # among all legal plays, 1 = best; None when not a legal play or not searched
    total_plays: int | None = None
    best: tuple[BestPlay, ...] = ()
    points_left: int | None = None  # best score minus the points kept
    cut_short: bool = False  # the time budget ran out before this turn was searched
    board: tuple[str, ...] = ()  # the board before the turn, in the API's row convention
    heights: tuple[str, ...] | None = None  # stacking games: stack heights before the turn, one digit per square
    tiles: tuple[PlacedTile, ...] = ()  # a play or phony: the tiles it put down
    endgame: EndgameGrade | None = None  # a play or pass with the bag empty, graded by the endgame solver
    win: WinGrade | None = None  # the static win table's figures (engine.winreview); None without a table


@dataclass(frozen=True)
class PlayerTotal:
    name: str
    recorded: int  # the record's last cumulative score for the player
    rescored: int
    points_left: int


@dataclass(frozen=True)
class Difference:
    line: int
    turn: int  # 1-based turn number of the line (its own for bonus and end lines: the last turn)
    player: int
    recorded: int  # the cumulative score the record shows
    rescored: int


@dataclass(frozen=True)
class GameGrade:
    game: str
    lexicon: str
    turns: tuple[TurnGrade, ...]
    players: tuple[PlayerTotal, ...]
    scores_agree: bool
    first_difference: Difference | None
    cut_short: int  # turns not searched for lack of time
    notes: tuple[str, ...] = field(default=())


def _rack_value(rules: GameRules, tiles: str) -> int:
    return sum(rules.ruleset.values[0 if ch == "?" else ord(ch) - 64] for ch in tiles)


def _end_rescore(rules: GameRules, turn: Turn, others_have_lines: bool) -> int:
    if turn.rack:  # "RACK (RACK) -N": this player's own tiles
        if rules.rack_adjustment == "none":
            return 0
        if rules.rack_adjustment == "per_tile":
            return -rules.ruleset.end_penalty_per_tile * len(turn.tiles or turn.rack)
        return -_rack_value(rules, turn.tiles or turn.rack)
    if rules.rack_adjustment != "going_out":
        return turn.score  # "(RACK) +N" where the game gives nothing: a foreign convention, taken as recorded
    value = _rack_value(rules, turn.tiles)
    return value if others_have_lines else 2 * value


def _endgame_grade(rules: GameRules, lex: Lexicon, cells: list[int], heights: list[int] | None, turn: Turn,
                   scoreless: int, turns_left: int | None, deadline: float | None, plural_rule: bool
                   ) -> tuple[EndgameGrade | None, str]:
    """The endgame solver's grade of a play or pass made with the bag empty, and why not: "" when
    graded, "bag" when the bag is not empty (or buried tiles hide the opponent's rack), "time"
    when the budget left no time, "illegal" when the solver does not allow the play (a word
    outside the lexicon). The opponent's rack is the unseen tiles."""
    rs = rules.ruleset
    if rules.players != 2 or not turn.rack or turn.kind not in (PLAY, PASS):
        return None, "bag"
    board = format_board(rs, cells)
    hts = None if heights is None else ["".join(str(h) for h in heights[r * rs.size:(r + 1) * rs.size]) for r in range(rs.size)]
    try:
        eg, other = eg_solver.endgame_of(rules, board, turn.rack, None, hts, scoreless, turns_left, plural_rule)
    except EngineError:  # the bag is not empty (or buried tiles hide the opponent's rack)
        return None, "bag"
    played = "pass" if turn.kind == PASS else turn.move.notation  # type: ignore[union-attr]
    shown = "pass" if turn.kind == PASS else f"{position_text(turn.move)} {gcg_word(rs, cells, turn.move)}"  # type: ignore[arg-type]
    now = time.monotonic()
    half = ENDGAME_SECONDS / 2
    if deadline is not None and deadline - now < 0.05:
        return None, "time"
    first_end = now + half if deadline is None else min(now + half, deadline)
    try:
        best = eg_solver.solve(eg, lex, first_end)
        second_end = time.monotonic() + half if deadline is None else min(time.monotonic() + half, deadline)
        mine = eg_solver.solve(eg, lex, second_end, first=played)
    except IllegalPlayError:  # a play the solver does not allow (a word outside the lexicon)
        return None, "illegal"
    if best.depth == 0 or mine.depth == 0:  # no first move was valued in time: a bare score is no value
        return None, "time"
    first = best.pv[0].move if best.pv else None
    value_best, best_play = best.value, "pass" if first is None else f"{position_text(first)} {gcg_word(rs, cells, first)}"
    if mine.value > value_best:  # an unproved search found less than the play made: the play is the best found
        value_best, best_play = mine.value, shown
    lost = value_best - mine.value
    return EndgameGrade(value_best, mine.value, lost, best.proved and mine.proved, best_play, lost > 0, other), ""


def grade(
    imported: Imported,
    lex: Lexicon,
    best: int = 3,
    deadline: float | None = None,
    plural_rule: bool = True,
) -> GameGrade:
    """Grade every turn of an imported record (see the module docstring)."""
    game: Game = imported.game
    rules = game.rules
    rs = rules.ruleset
    n = rs.size
    cells = [0] * (n * n)
    heights: list[int] | None = [0] * (n * n) if rs.stacking else None
    grades: list[TurnGrade] = []
    rescored_turn: list[int] = []  # per game turn: the re-scored points of that record
    phony: dict[int, int] = {}  # game turn index of a phony taken back -> its re-scored points
    left_total = [0] * rules.players
    cut = 0
    notes: list[str] = []
    out_of_time = False
    end_players = {t.player for t in game.turns if t.kind == END and t.rack}
    turn_no = 0
    tail, tails = 0.0, 0.0  # what a turn took besides its search: the mean so far, and the sum (seconds)
    turns_left = sum(t.uses_turn for t in game.turns)
    scoreless = 0  # consecutive scoreless turns before this one
    facts: list[TurnFacts] = []  # per graded turn: what its win figures need
    empty_since: int | None = None  # the first turn seen with the bag empty (final-turn games count from it)
    for k, turn in enumerate(game.turns):
        entry: Entry | None = imported.entries[k] if k < len(imported.entries) else None
        began, searched = time.monotonic(), 0.0
        if not turn.uses_turn:
            if turn.kind == END:
                others = any(p in end_players for p in range(rules.players) if p != turn.player)
                if entry is not None:  # "(RACK) +N" names the other players' tiles, kept on the line
                    turn = replace(turn, tiles=entry.tiles)
                rescored_turn.append(_end_rescore(rules, turn, others) if (turn.rack or turn.tiles) else turn.score)
            else:
                rescored_turn.append(turn.score)
            continue
        turn_no += 1
        turns_left -= 1
        pos = Position(rs, list(cells), tile_counts(turn.rack), list(heights) if heights is not None else None, plural_rule)
        score: int | None = 0
        valid: bool | None = None
        invalid: tuple[str, ...] = ()
        recorded = turn.score
        kept = 0
        if turn.kind in (PLAY, WITHDRAWN):
            assert turn.move is not None
            placed = placements(rs, turn.move)
            try:
                check = check_play(pos, lex, placed, use_rack=False)
            except IllegalPlayError as exc:  # a rule the record's game did not apply (Upwords plurals)
                notes.append(f"turn {turn_no} (line {entry.line if entry else 0}): {exc.message}")
                check = check_play(replace(pos, plural_rule=False), lex, placed, use_rack=False)
                check = replace(check, invalid_words=[*check.invalid_words, turn.move.word])
            score, valid, invalid = check.breakdown.total, check.valid, tuple(check.invalid_words)
            play = f"{position_text(turn.move)} {gcg_word(rs, cells, turn.move)}"
            if turn.kind == PLAY:
                kept = score
                rescored_turn.append(score)
            else:
                recorded = entry.score if entry is not None else turn.move.score
                rescored_turn.append(0)
                phony[k] = score
        else:
            rescored_turn.append(0)
            play = "pass" if turn.kind == PASS else f"exchange {turn.tiles or turn.count}"
        rank = total = None
        tops: tuple[BestPlay, ...] = ()
        points_left: int | None = None
        short = False
        # what the turns after this one and the answer will take, at the pace seen so far
        reserve = 5 * tail * (turns_left + 1)
        if turn.rack and not out_of_time and deadline is not None and time.monotonic() + reserve > deadline:
            out_of_time = True
        if turn.rack and not out_of_time:
            start = time.monotonic()
            try:
                raws = search.every_play(pos, lex, True, None if deadline is None else deadline - reserve)
                total = len(raws)
                moves = top_moves(pos, raws, best)
                tops = tuple(BestPlay(f"{position_text(m)} {gcg_word(rs, cells, m)}", m.score) for m in moves)
                best_score = moves[0].score if moves else 0
                points_left = max(best_score - kept, 0)
                left_total[turn.player] += points_left
                if turn.kind == PLAY and valid:
                    target = sorted((i, LETTERS[(c & LETTER_MASK) - 1], bool(c & BLANK)) for i, c in placements(rs, turn.move))  # type: ignore[arg-type]
                    rank = place_among(pos, raws, target, kept)
            except TimeBudgetExceeded:
                out_of_time = True
            searched = time.monotonic() - start
        if turn.rack and out_of_time:
            short = True
            cut += 1
        endgame: EndgameGrade | None = None
        if turn.rack and turn.kind in (PLAY, PASS):
            final_left = None
            if rules.final_turns_after_bag_empty:
                final_left = rules.players * rules.final_turns_after_bag_empty - (0 if empty_since is None else turn_no - empty_since)
            if final_left is None or final_left >= 1:
                eg_start = time.monotonic()
                endgame, why = _endgame_grade(rules, lex, cells, heights, turn, scoreless, final_left,
                                                  None if deadline is None else deadline - reserve, plural_rule)
                searched += time.monotonic() - eg_start
                if why != "bag":
                    empty_since = turn_no if empty_since is None else empty_since
                if why == "time":
                    notes.append(f"turn {turn_no}: played with the bag empty; not graded by the endgame solver (time budget)")
        placed_tiles: tuple[PlacedTile, ...] = ()
        if turn.kind in (PLAY, WITHDRAWN):
            assert turn.move is not None
            placed_tiles = tuple(PlacedTile(i // n + 1, i % n + 1, tile_char(c), bool(c & BLANK)) for i, c in placements(rs, turn.move))
        grades.append(TurnGrade(
            turn=turn_no, line=entry.line if entry is not None else 0, player=turn.player,
            name=game.names[turn.player], kind=turn.kind, rack=turn.rack or None, play=play,
            recorded_score=recorded, score=score, valid=valid, invalid_words=invalid, rank=rank,
            total_plays=total, best=tops, points_left=points_left, cut_short=short,
            board=tuple(format_board(rs, cells)),
            heights=None if heights is None else tuple("".join(str(h) for h in heights[r * n:(r + 1) * n]) for r in range(n)),
            tiles=placed_tiles, endgame=endgame,
        ))
        if turn.kind != WITHDRAWN or rules.withdrawn_loses_turn:
            scoreless = scoreless + 1 if turn.kind in rules.scoreless_kinds else 0
        if turn.kind == PLAY:
            assert turn.move is not None
            for i, code in placements(rs, turn.move):
                cells[i] = code
                if heights is not None:
                    heights[i] += 1
        totals = [sum(v for j, v in enumerate(rescored_turn) if game.turns[j].player == p) for p in range(rules.players)]
        facts.append(TurnFacts(
            player=turn.player, spread_after=totals[turn.player] - sum(v for p, v in enumerate(totals) if p != turn.player),
            off_board=sum(rs.counts) - sum(1 for c in cells if c), rack=turn.rack or None, points_left=points_left))
        tails += time.monotonic() - began - searched
        tail = tails / turn_no
    wins = win_grades(rules.name, rules.players, rs.rack_size, facts)
    grades = [replace(g, win=w) for g, w in zip(grades, wins, strict=True)]
    if grades and table_for(rules.name) is None:
        notes.append(f"no win figures: no win-probability table ships for {rules.name}")
    elif grades and rules.players != 2:
        notes.append("no win figures: the win-probability tables are for two players")
    return _totals(imported, lex, grades, rescored_turn, phony, left_total, cut, notes)


def _totals(imported: Imported, lex: Lexicon, grades: list[TurnGrade], rescored_turn: list[int],
            phony: dict[int, int], left_total: list[int], cut: int, notes: list[str]) -> GameGrade:
    game = imported.game
    rules = game.rules
    recorded = [0] * rules.players
    rescored = [0] * rules.players
    first: Difference | None = None
    claimed: dict[int, int] = {}  # the last cumulative score the record shows per player
    turn_no = 0
    withdraw = imported.withdraw_lines
    for k, turn in enumerate(game.turns):
        turn_no += turn.uses_turn
        recorded[turn.player] += turn.score
        rescored[turn.player] += rescored_turn[k]
        entry = imported.entries[k] if k < len(imported.entries) else None
        if entry is None:
            continue
        checks = [(entry.line, entry.cumulative, rescored[turn.player])]
        if turn.kind == WITHDRAWN:  # the phony's line (with its points), then the '--' line
            checks[0] = (entry.line, entry.cumulative, rescored[turn.player] + phony.get(k, 0))
            if k in withdraw:
                checks.append((withdraw[k].line, withdraw[k].cumulative, rescored[turn.player]))
        claimed[turn.player] = checks[-1][1]
        for line, want, got in checks:
            if want != got and first is None:
                first = Difference(line, max(turn_no, 1), turn.player, want, got)
    if not any(t.kind == END for t in game.turns):
        notes.append("the record has no end-of-game lines: the game is unfinished or ended on time")
    players = tuple(
        PlayerTotal(game.names[p], claimed.get(p, recorded[p]), rescored[p], left_total[p]) for p in range(rules.players)
    )
    return GameGrade(
        game=rules.name, lexicon=lex.name, turns=tuple(grades), players=players,
        scores_agree=first is None, first_difference=first, cut_short=cut, notes=tuple(notes),
    )


def _endgame_mark(e: EndgameGrade | None) -> str:
    """The table's endgame column: "-" when not an endgame turn, "best" (with a "?" when not
    proved), or "BLOWN -N (PLAY VALUE)": the points lost and the solver's best first move."""
    if e is None:
        return "-"
    sure = "" if e.proved else "?"
    return f"best{sure}" if not e.blown else f"BLOWN -{e.points_lost}{sure} ({e.best_play} {e.value_best:+d})"


def _win_mark(w: WinGrade | None) -> str:
    """The table's win column: the mover's win % after the turn, the win % lost (when searched)
    (when 0.05 points or more) and the mistake size: "62% -3.1 small"."""
    if w is None:
        return "-"
    shown = f"{100 * (w.lost or 0):.1f}"
    lost = "" if shown == "0.0" else f" -{shown}"  # nothing lost, or less than 0.05 points
    return f"{100 * w.after:.0f}%{lost}" + (f" {w.mistake}" if w.mistake else "")


def table(result: GameGrade) -> str:
    """The grade as a text table (the CLI's ``analyze`` output)."""
    head = ("turn", "player", "rack", "play", "score", "engine", "valid", "rank", "best", "left", "endgame", "win")
    rows = [head]
    for t in result.turns:
        best = f"{t.best[0].play} {t.best[0].score}" if t.best else ("(time)" if t.cut_short else "-")
        rows.append((
            str(t.turn), t.name, t.rack or "?", t.play + (" (withdrawn)" if t.kind == WITHDRAWN else ""),
            str(t.recorded_score), "-" if t.score is None or t.kind not in (PLAY, WITHDRAWN) else str(t.score),
            "-" if t.valid is None else ("yes" if t.valid else "NO " + ",".join(t.invalid_words)),
            "-" if t.rank is None else f"{t.rank}/{t.total_plays}", best,
            "-" if t.points_left is None else str(t.points_left), _endgame_mark(t.endgame), _win_mark(t.win),
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(len(head))).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    for p in result.players:
        lines.append(f"{p.name}: recorded {p.recorded}, re-scored {p.rescored}, points left on the table {p.points_left}")
    if result.scores_agree:
        lines.append("recorded cumulative scores agree with the re-scored ones")
    else:
        d = result.first_difference
        assert d is not None
        lines.append(f"first difference: line {d.line} (turn {d.turn}): recorded {d.recorded}, re-scored {d.rescored}")
    if result.cut_short:
        lines.append(f"{result.cut_short} turns were not searched: the time budget ran out")
    endgames = [t for t in result.turns if t.endgame is not None]
    if endgames:
        lines.append("endgame: turns played with the bag empty, graded by the endgame solver "
                     "(best: the best play; BLOWN -N: points lost against the best; ?: not proved in the time given)")
    if any(t.win is not None for t in result.turns):
        lines.append("win: the mover's win % after the turn (the static win table by spread and tiles unseen, not a simulation), "
                     "the win % lost against the best play, and the mistake size (small >= 2, medium >= 5, large >= 12 points)")
    lines += list(result.notes)
    lines.append(f"{result.game}, lexicon {result.lexicon}")
    return "\n".join(lines)

