"""What each endpoint computes, free of HTTP: the routers and the CLI both call these."""

from __future__ import annotations

from engine import (
    GAMES,
    EngineError,
    Lexicon,
    LexiconStore,
    Move,
    MoveFilter,
    Position,
    Ruleset,
    breakdown,
    check_play,
    end_game,
    find_moves,
    get_ruleset,
    placements_from_word,
    position,
    rank_of,
    unseen_tiles,
)

from .errors import InvalidFilterError, error_body
from .schemas import (
    AdjustmentOut,
    BonusOut,
    CheckOut,
    CompareEntry,
    CompareIn,
    CompareOut,
    EndIn,
    EndOut,
    ErrorBody,
    GameOut,
    GameSummary,
    LexiconOut,
    MoveFilters,
    MovesIn,
    MovesOut,
    ScoreIn,
    ScoreOut,
    TileOut,
    UnseenIn,
    UnseenOut,
    WordCheck,
)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ----------------------------------------------------------------------------- games


def game_summary(rules: Ruleset) -> GameSummary:
    return GameSummary(
        name=rules.name, title=rules.title, size=rules.size, rack_size=rules.rack_size, stacking=rules.stacking
    )


def game_detail(rules: Ruleset) -> GameOut:
    n = rules.size
    kinds = ("DL", "TL", "DW", "TW")
    return GameOut(
        name=rules.name,
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
                f"filters.square {r},{c} is outside the {rules.size}x{rules.size} {rules.name} board",
                field="filters.square", row=r, col=c,
            )
        square = (r, c)
    return MoveFilter(
        min_length=filters.min_length,
        contains=filters.contains.upper(),
        square=square,
        no_blanks=filters.no_blanks,
    )


def leave(rack: str, move: Move) -> str:
    """The tiles left after the play, letters in order then blanks (independent of rack order)."""
    left = list(rack.upper())
    for t in move.tiles:
        left.remove("?" if t.blank else t.letter[0])  # "QU" (Upwords' Qu tile) is rack letter Q
    return "".join(sorted(left, key=lambda ch: (ch == "?", ch)))


def tiles_out(move: Move) -> list[TileOut]:
    return [TileOut(row=t.row, col=t.col, letter=t.letter if not t.blank else t.letter.lower(), blank=t.blank) for t in move.tiles]


def move_payload(pos: Position, move: Move, rack: str, premiums: bool) -> dict:
    """One play in the API's shape (MoveOut), as plain data: the moves answer is the hot path,
    so it is serialized straight to JSON rather than through pydantic models."""
    return {
        "row": move.row,
        "col": move.col,
        "direction": move.direction,
        "word": move.word,
        "notation": move.notation,
        "score": move.score,
        "tiles_used": move.tiles_used,
        "tiles": [
            {"row": t.row, "col": t.col, "letter": t.letter.lower() if t.blank else t.letter, "blank": t.blank}
            for t in move.tiles
        ],
        "leave": leave(rack, move),
        "breakdown": breakdown(pos, move, premiums).to_dict(stacking=pos.rules.stacking),
    }


def best_moves_payload(
    rules: Ruleset, lex: Lexicon, req: MovesIn, default_limit: int, deadline: float | None = None
) -> dict:
    """The ranked plays in the shape of MovesOut; ``deadline`` (``time.monotonic()``) bounds
    the search time."""
    pos = position(rules, req.board, req.rack, req.heights, plural_rule=req.plural_rule)
    flt = move_filter(rules, req.filters)
    limit = req.limit or default_limit
    result = find_moves(
        pos, lex, limit=limit, premiums=req.premiums, flt=flt, count=req.count, deadline=deadline
    )
    return {
        "game": rules.name,
        "lexicon": lex.name,
        "total_moves": result.total if req.count else None,
        "moves": [move_payload(pos, m, req.rack, req.premiums) for m in result.moves],
    }


def best_moves(
    rules: Ruleset, lex: Lexicon, req: MovesIn, default_limit: int, deadline: float | None = None
) -> MovesOut:
    """The ranked plays as a validated model (the CLI; tests check the two agree)."""
    return MovesOut.model_validate(best_moves_payload(rules, lex, req, default_limit, deadline))


# ----------------------------------------------------------------------------- one play


def score_play(rules: Ruleset, lex: Lexicon, req: ScoreIn, deadline: float | None = None) -> ScoreOut:
    pos = position(rules, req.board, req.rack or "", req.heights, plural_rule=req.plural_rule)
    m = req.move
    placements = placements_from_word(rules, pos.cells, m.row, m.col, m.direction, m.word)
    check = check_play(pos, lex, placements, req.premiums, use_rack=req.rack is not None)
    rank = best = total = None
    if req.rack is not None:
        rank, best, total = rank_of(pos, lex, check.move, req.premiums, deadline)
        if not check.valid:
            rank = None
    move = check.move
    return ScoreOut(
        game=rules.name,
        lexicon=lex.name,
        row=move.row,
        col=move.col,
        direction=move.direction,  # type: ignore[arg-type]
        word=move.word,
        notation=move.notation,
        score=check.breakdown.total,
        tiles_used=move.tiles_used,
        tiles=tiles_out(move),
        valid=check.valid,
        words=check.words,
        invalid_words=check.invalid_words,
        breakdown=check.breakdown.to_dict(stacking=rules.stacking),
        rank=rank,
        best_score=best,
        total_moves=total,
    )


def compare_games() -> list[Ruleset]:
    """The flat 15x15 games, whose letter values and bonuses differ on one board."""
    return [r for r in map(get_ruleset, GAMES) if not r.stacking and r.size == 15]


def compare(lex: Lexicon, req: CompareIn) -> CompareOut:
    """Score one play under every flat game. A board or play impossible in some games but not
    others (tile counts differ) reports the error per game; impossible in all is an error."""
    results: list[CompareEntry] = []
    errors: list[EngineError] = []
    notation = ""
    for rules in compare_games():
        m = req.move
        try:
            pos = position(rules, req.board, "")
            placements = placements_from_word(rules, pos.cells, m.row, m.col, m.direction, m.word)
            check = check_play(pos, lex, placements, req.premiums, use_rack=False)
        except EngineError as exc:
            errors.append(exc)
            results.append(CompareEntry(game=rules.name, title=rules.title, error=ErrorBody(**error_body(exc))))
            continue
        notation = check.move.notation
        results.append(
            CompareEntry(
                game=rules.name,
                title=rules.title,
                score=check.breakdown.total,
                valid=check.valid,
                invalid_words=check.invalid_words,
                breakdown=check.breakdown.to_dict(),
            )
        )
    if len(errors) == len(results):
        raise errors[0]
    return CompareOut(lexicon=lex.name, notation=notation, results=results)


def end_of_game(rules: Ruleset, req: EndIn) -> EndOut:
    return EndOut(
        game=rules.name,
        adjustments=[
            AdjustmentOut(rack=a.rack, rack_value=a.rack_value, adjustment=a.adjustment)
            for a in end_game(rules, req.racks)
        ],
    )


# ----------------------------------------------------------------------------- lexicons


def lexicon_info(store: LexiconStore, name: str, default: str) -> LexiconOut:
    try:
        count: int | None = store.get(name).word_count
    except (OSError, ValueError):
        count = None  # an unreadable user file; the other lexicons still list
    return LexiconOut(name=name, word_count=count, provenance=store.provenance(name), default=name == default)


def check_words(lex: Lexicon, words: list[str]) -> CheckOut:
    results = [WordCheck(word=w, valid=w in lex) for w in words]
    return CheckOut(lexicon=lex.name, all_valid=all(r.valid for r in results), results=results)


# ----------------------------------------------------------------------------- unseen tiles


def unseen(rules: Ruleset, req: UnseenIn) -> UnseenOut:
    u = unseen_tiles(position(rules, req.board, req.rack, req.heights))
    return UnseenOut(
        game=rules.name, unseen=u.counts, total=u.total, vowels=u.vowels, consonants=u.consonants,
        blanks=u.blanks, buried=u.buried,
    )
