"""What each endpoint computes, free of HTTP: the routers and the CLI both call these."""

from __future__ import annotations

from typing import cast

from engine import (
    GAMES,
    Breakdowns,
    EngineError,
    Lexicon,
    LexiconStore,
    Move,
    MoveFilter,
    Notation,
    Position,
    Ruleset,
    board_findings,
    check_play,
    end_game,
    find_moves,
    get_ruleset,
    parse_notation,
    placements_from_word,
    position,
    rank_play,
    search,
    unseen_tiles,
)
from engine.game import game_rules
from engine.notation import square_name, square_text
from engine.plays import check_deadline
from engine.strategy import equity, leaves

from .cgp_fields import cgp_after
from .request_errors import InvalidFilterError, RequestError, error_body
from .schemas import (
    AdjustmentOut,
    BonusOut,
    CheckOut,
    CompareIn,
    EndIn,
    EndOut,
    ErrorBody,
    GameName,
    GameOut,
    GameSummary,
    LexiconOut,
    MoveFilters,
    MovesIn,
    MovesOut,
    PlayIn,
    ScoreIn,
    UnseenIn,
    UnseenOut,
    VerifyIn,
    WordCheck,
)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def game_name(rules: Ruleset) -> GameName:
    return cast(GameName, rules.name)


# ----------------------------------------------------------------------------- games


def game_summary(rules: Ruleset) -> GameSummary:
    return GameSummary(
        name=game_name(rules), title=rules.title, size=rules.size, rack_size=rules.rack_size, stacking=rules.stacking
    )


def game_detail(rules: Ruleset) -> GameOut:
    n = rules.size
    kinds = ("DL", "TL", "DW", "TW")
    return GameOut(
        name=game_name(rules),
        title=rules.title,
        size=n,
        rack_size=rules.rack_size,
        start=[(i // n + 1, i % n + 1) for i in rules.start],
        start_is_bonus=rules.start_is_bonus,
        premiums={k: rules.squares(k) for k in kinds if k in rules.premium},
        letter_values={"?": rules.values[0], **{ch: rules.values[i] for i, ch in enumerate(LETTERS, 1)}},
        tile_counts={"?": rules.counts[0], **{ch: rules.counts[i] for i, ch in enumerate(LETTERS, 1)}},
        total_tiles=sum(rules.counts),
        blanks=rules.counts[0],
        all_tiles_bonus=BonusOut(name=rules.bonus_name, points=rules.bonus_points),
        stacking=rules.stacking,
        max_height=rules.max_height,
        qu_tile=rules.qu_tile,
        qu_bonus=rules.qu_bonus,
        end_penalty_per_tile=rules.end_penalty_per_tile,
    )


# ----------------------------------------------------------------------------- moves


def move_filter(rules: Ruleset, filters: MoveFilters | None) -> MoveFilter | None:
    if filters is None:
        return None
    square = None
    if filters.square is not None:
        r, c = filters.square
        if not (1 <= r <= rules.size and 1 <= c <= rules.size):
            raise InvalidFilterError(
                f"filters.square [{r}, {c}] (square {square_name(r, c)}) is outside the {rules.size}x{rules.size} {rules.name} board",
                field="filters.square", row=r, col=c,
            )
        square = (r, c)
    return MoveFilter(
        min_length=filters.min_length,
        contains=filters.contains.upper(),
        square=square,
        no_blanks=filters.no_blanks,
    )


def sorted_rack(rack: str) -> list[str]:
    """The rack's tiles in leave order: letters in order, then blanks."""
    return sorted(rack.upper(), key=lambda ch: (ch == "?", ch))


def leave(rack: str | list[str], move: Move) -> str:
    """The tiles left after the play, letters in order then blanks (independent of rack order);
    ``rack`` may be given already sorted (``sorted_rack``), as answers with many plays do."""
    left = sorted_rack(rack) if isinstance(rack, str) else list(rack)
    for t in move.tiles:
        left.remove("?" if t.blank else t.letter[0])  # "QU" (Upwords' Qu tile) is rack letter Q
    return "".join(left)


def tiles_payload(move: Move) -> list[dict]:
    return [
        {"row": t.row, "col": t.col, "letter": t.letter.lower() if t.blank else t.letter, "blank": t.blank}
        for t in move.tiles
    ]


def move_payload(move: Move, rack: str | list[str], breakdowns: Breakdowns | None) -> dict:
    """One play in the API's shape (MoveOut), as plain data: answers are serialized straight
    to JSON rather than through pydantic models (tests check them against the models).
    ``breakdowns`` writes the breakdown (one writer for all the plays of an answer), if asked."""
    out = {
        "row": move.row,
        "col": move.col,
        "direction": move.direction,
        "word": move.word,
        "notation": move.notation,
        "score": move.score,
        "tiles_used": move.tiles_used,
        "tiles": tiles_payload(move),
        "leave": leave(rack, move),
    }
    if breakdowns is not None:
        out["breakdown"] = breakdowns(move)
    return out


_SQUARES: dict[int, tuple[list[str], list[str]]] = {}  # by board size: each square's text, across and down
_TILE_DICTS: dict[tuple[int, bool], dict[int, tuple]] = {}  # by board size and Qu rule: each Tile's dict, by its id


SHORT_ANSWER = 100
"""Plays an answer may hold and still be given once its search finished in time: written in C,
they take under 0.3 ms with breakdowns, and a search answered on the event loop within its
budget (app.deps.solve) is not done again in a lane for them."""


def move_payloads(pos: Position, moves: list[Move], rack: str, write: Breakdowns | None,
                  deadline: float | None = None) -> list[dict]:
    """``move_payload`` of each move, in order. With the compiled core the loop is C's
    (engine._fastgen.payloads: 2-3 us a play in Python, as much as a 20-play search with no
    blank); its tiles' dicts are shared between answers (read-only, as the breakdowns' letters)."""
    fast = search.payload_writer()
    if fast is None:
        held, out = sorted_rack(rack), []
        for k, m in enumerate(moves):
            if k % 50 == 49:
                check_deadline(deadline)  # the budget covers building the answer too
            out.append(move_payload(m, held, write))
        return out
    n = pos.rules.size
    squares = _SQUARES.get(n)
    if squares is None:
        across, down = ([square_text(i // n + 1, i % n + 1, d) for i in range(n * n)] for d in ("across", "down"))
        squares = _SQUARES[n] = (across, down)
    tiles = _TILE_DICTS.setdefault((n, pos.rules.qu_tile), {})
    if len(tiles) > 50_000:  # the search's Tiles are shared (15 x 15: at most 11,700); others are not
        tiles.clear()
    compiled = write is not None and write.compiled
    payloads: list[dict] = fast(moves if type(moves) is list else list(moves), rack, n, *squares, tiles, write,
                                write.args if compiled else None)  # type: ignore[union-attr]
    if len(payloads) > SHORT_ANSWER:  # 1,000 plays take 1-3 ms with breakdowns: checked once
        check_deadline(deadline)
    return payloads


def warnings_payload(rules: Ruleset, cells: list[int], lex: Lexicon) -> list[dict]:
    """The board's findings (engine.verify) in the API's shape (WarningOut)."""
    out = []
    for f in board_findings(rules, cells, lex):
        w: dict = {"code": f.code, "message": f.message, "squares": [list(sq) for sq in f.squares]}
        if f.word is not None:
            w["word"] = f.word
        out.append(w)
    return out


def equity_payload(
    rules: Ruleset, lex: Lexicon, req: MovesIn, pos: Position, flt: MoveFilter | None, limit: int,
    deadline: float | None,
) -> dict:
    """MovesOut ranked by equity (engine.strategy.equity): plays with equity, leave value and rank, and
    with ``exchanges`` the exchanges and the pass among the best candidates."""
    if not leaves.available(rules.name):
        raise leaves.NoLeaveValuesError(
            f"{rules.name} has no leave values; rank_by equity is offered for "
            f"{', '.join(g for g in GAMES if leaves.available(g))}",
            field="rank_by",
        )
    grules = game_rules(rules)
    seen = unseen_tiles(pos)
    unseen = [seen.counts["?"]] + [seen.counts[ch] for ch in LETTERS]
    bag = equity.default_bag_size(grules, seen.total) if req.bag_size is None else req.bag_size
    if bag > seen.total:
        raise RequestError(f"bag_size {bag} is more than the {seen.total} tiles unseen in this position", field="bag_size")
    values = leaves.shipped(rules.name)
    found, total = equity.rank_by_equity(
        pos, lex, values, grules, bag, unseen, limit, req.exchanges, None, req.premiums, flt, req.count, deadline
    )
    write = Breakdowns(pos, req.premiums) if req.breakdowns else None
    plays = iter(move_payloads(pos, [c.move for c in found if c.move is not None], req.rack, write, deadline))
    moves, others = [], []
    for k, c in enumerate(found, start=1):
        extra = {"equity": c.equity_milli / 1000, "leave_value": c.leave_milli / 1000, "rank": k}
        if c.move is not None:
            play = next(plays)
            play.update(extra)
            moves.append(play)
        else:
            others.append({"kind": c.kind, "thrown": c.thrown, "kept": c.kept} | extra)
    games = values.provenance.get("games", "?")
    return {
        "game": rules.name,
        "lexicon": lex.name,
        "total_moves": total if req.count else None,
        "moves": moves,
        "warnings": warnings_payload(rules, pos.cells, lex),
        "equity": {
            "bag_size": bag,
            "leaves": f"{rules.name} leave values learned with the {values.lexicon} lexicon ({games} self-play games)",
            "end_rule": equity.end_rule(grules, bag),
        },
    } | ({"exchanges": others} if req.exchanges else {})


def best_moves_payload(
    rules: Ruleset, lex: Lexicon, req: MovesIn, default_limit: int, deadline: float | None = None
) -> dict:
    """The ranked plays in the shape of MovesOut; ``deadline`` (``time.monotonic()``) bounds
    the search time."""
    pos = position(rules, req.board, req.rack, req.heights, plural_rule=req.plural_rule)
    flt = move_filter(rules, req.filters)
    limit = req.limit or default_limit
    if req.rank_by == "equity":
        return equity_payload(rules, lex, req, pos, flt, limit, deadline)
    for name in ("exchanges", "bag_size"):
        if getattr(req, name) not in (None, False):
            raise RequestError(f"{name} applies to rank_by equity only", field=name)
    result = find_moves(
        pos, lex, limit=limit, premiums=req.premiums, flt=flt, count=req.count, deadline=deadline
    )
    moves = move_payloads(pos, result.moves, req.rack, Breakdowns(pos, req.premiums) if req.breakdowns else None,
                          deadline)
    return {
        "game": rules.name,
        "lexicon": lex.name,
        "total_moves": result.total if req.count else None,
        "moves": moves,
        "warnings": warnings_payload(rules, pos.cells, lex),
    }


def best_moves(
    rules: Ruleset, lex: Lexicon, req: MovesIn, default_limit: int, deadline: float | None = None
) -> MovesOut:
    """The ranked plays as a validated model (tests check the two agree)."""
    return MovesOut.model_validate(best_moves_payload(rules, lex, req, default_limit, deadline))


# ----------------------------------------------------------------------------- one play


def described_play(rules: Ruleset, move: PlayIn | None, play: str | None) -> Notation:
    """The play a request describes, as ``move`` (fields) or ``play`` (notation): exactly one."""
    if (move is None) == (play is None):
        which = "both" if move is not None else "neither"
        raise RequestError(
            f"give the play either as 'move' (row, col, direction, word) or as 'play' ('8F QUIXOTE'); got {which}",
            field="move",
        )
    if play is not None:
        return parse_notation(play, rules.size)
    assert move is not None
    return Notation(move.row, move.col, move.direction, move.word)


def summary_payload(move: Move, rack: str) -> dict:
    return {
        "notation": move.notation, "row": move.row, "col": move.col, "direction": move.direction,
        "word": move.word, "score": move.score, "tiles_used": move.tiles_used, "leave": leave(rack, move),
    }


def score_play(rules: Ruleset, lex: Lexicon, req: ScoreIn, deadline: float | None = None) -> dict:
    """One described play scored and checked (ScoreOut's shape); with a rack, ranked too."""
    pos = position(rules, req.board, req.rack or "", req.heights, plural_rule=req.plural_rule)
    m = described_play(rules, req.move, req.play)
    placements = placements_from_word(rules, pos.cells, m.row, m.col, m.direction, m.word)
    check = check_play(pos, lex, placements, req.premiums, use_rack=req.rack is not None)
    rank = best = total = missed = None
    better: list[dict] = []
    if req.rack is not None:
        ranking = rank_play(pos, lex, check.move, req.premiums, deadline, req.better)
        rank = ranking.rank if check.valid else None
        best, total = ranking.best, ranking.total
        missed = max(0, best - check.breakdown.total) if best is not None else None
        better = [summary_payload(b, req.rack) for b in ranking.better]
    move = check.move
    return {
        "game": rules.name,
        "lexicon": lex.name,
        "row": move.row,
        "col": move.col,
        "direction": move.direction,
        "word": move.word,
        "notation": move.notation,
        "score": check.breakdown.total,
        "tiles_used": move.tiles_used,
        "tiles": tiles_payload(move),
        "valid": check.valid,
        "words": check.words,
        "invalid_words": check.invalid_words,
        "breakdown": check.breakdown.to_dict(stacking=rules.stacking),
        "rank": rank,
        "best_score": best,
        "points_missed": missed,
        "total_moves": total,
        "better_plays": better,
        "warnings": warnings_payload(rules, pos.cells, lex),
    } | ({"cgp": cgp_after(rules, req.cgp, pos, check)} if req.cgp else {})


def compare_games() -> list[Ruleset]:
    """The flat 15x15 games, whose letter values and bonuses differ on one board."""
    return [r for r in map(get_ruleset, GAMES) if not r.stacking and r.size == 15]


def compare(lex: Lexicon, req: CompareIn) -> dict:
    """Score one play under every flat game (CompareOut's shape). A board or play impossible
    in some games but not others (tile counts differ) reports the error per game; impossible
    in all is an error."""
    results: list[dict] = []
    errors: list[EngineError] = []
    notation = ""
    for rules in compare_games():
        entry: dict = {"game": rules.name, "title": rules.title, "score": None, "valid": None,
                       "invalid_words": None, "breakdown": None, "error": None}
        try:
            m = described_play(rules, req.move, req.play)
            pos = position(rules, req.board, "")
            placements = placements_from_word(rules, pos.cells, m.row, m.col, m.direction, m.word)
            check = check_play(pos, lex, placements, req.premiums, use_rack=False)
        except RequestError:
            raise
        except EngineError as exc:
            errors.append(exc)
            entry["error"] = error_body(exc)
            results.append(entry)
            continue
        notation = check.move.notation
        entry.update(score=check.breakdown.total, valid=check.valid, invalid_words=check.invalid_words,
                     breakdown=check.breakdown.to_dict())
        results.append(entry)
    if len(errors) == len(results):
        raise errors[0]
    return {"lexicon": lex.name, "notation": notation, "results": results}


def verify(rules: Ruleset, lex: Lexicon, req: VerifyIn) -> dict:
    """Board findings without solving (VerifyOut's shape)."""
    pos = position(rules, req.board, "", req.heights)
    warnings = warnings_payload(rules, pos.cells, lex)
    return {"game": rules.name, "lexicon": lex.name, "ok": not warnings, "warnings": warnings}


def end_of_game(rules: Ruleset, req: EndIn) -> EndOut:
    return EndOut(
        game=game_name(rules),
        adjustments=[
            AdjustmentOut(rack=a.rack, rack_value=a.rack_value, adjustment=a.adjustment)
            for a in end_game(rules, req.racks)
        ],
    )


# ----------------------------------------------------------------------------- lexicons


def lexicon_info(store: LexiconStore, name: str, default: str) -> LexiconOut:
    """What is known of a lexicon without loading or compiling it (listing stays cheap). Every
    field is set, so the routers' ``exclude_unset`` drops only the error details that do not apply."""
    status, count = store.describe(name)
    failure = store.error(name) if status == "failed" else None
    return LexiconOut(
        name=name, word_count=count, provenance=store.provenance(name), default=name == default,
        status=status,  # type: ignore[arg-type]
        error=ErrorBody(**error_body(failure)) if failure is not None else None,
    )


def check_words(lex: Lexicon, words: list[str]) -> CheckOut:
    results = [WordCheck(word=w, valid=w in lex) for w in words]
    return CheckOut(lexicon=lex.name, all_valid=all(r.valid for r in results), results=results)


# ----------------------------------------------------------------------------- unseen tiles


def unseen(rules: Ruleset, req: UnseenIn) -> UnseenOut:
    u = unseen_tiles(position(rules, req.board, req.rack, req.heights))
    return UnseenOut(
        game=game_name(rules), unseen=u.counts, total=u.total, vowels=u.vowels, consonants=u.consonants,
        blanks=u.blanks, buried=u.buried,
    )
