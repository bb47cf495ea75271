"""How likely a leave is to become a bingo: the lexicon's own measure of a leave's synergy.

For a leave ``L`` of ``k`` tiles (1 to 6), :func:`bingo_chances` gives the probability that
``L`` plus ``7 - k`` tiles drawn at random from the game's full set of tiles less ``L`` are
the letters of a seven-letter word of the lexicon (an anagram: the rack's letters, in any
order). It is exact, by enumeration: for every seven-letter word's multiset of letters ``K``
and every part ``L`` of it, the draw must be exactly ``K - L``, whose probability is the
multivariate hypergeometric ``prod C(pool_i, d_i) / C(N, 7 - k)``; the chances of the
different ``K`` add up (different words' multisets are different draws). Draws holding a
blank are not counted (a blank makes most racks a bingo; its own value carries that), and
neither is an eight-letter word through a tile on the board, so the figure is a lower bound
and a feature, not a forecast: the leave model (``engine.strategy.leaves``) learns from
self-play how many points it is worth.

AEINST, for example, becomes a word with about one draw in three of any seventh letter; II
or UUV almost never. The figure depends only on the lexicon and the game's tiles, so it is
computed once (about 3.5 million terms for a 270,000-word list: seconds) and used in
training; the shipped leave file keeps its results as table entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from ..lexicon import Lexicon
from ..rules import get_ruleset
from .leaves import key_counts, leave_key

RACK = 7


def word_keys(lex: Lexicon, length: int = RACK) -> set[str]:
    """The multisets of letters (as canonical keys) of the lexicon's words of ``length``."""
    return {"".join(sorted(w)) for w in lex.words() if len(w) == length}


def bingo_chances(keys: set[str], counts: Sequence[int], min_chance: float = 0.0) -> dict[str, float]:
    """Leave key -> chance of a bingo on the next draw (see the module docstring), for every
    leave of 1 to 6 letters (no blanks) that is part of some word in ``keys``, given the
    game's tile ``counts`` (27, index 0 = blanks); leaves under ``min_chance`` are left out."""
    total = sum(counts)
    out: dict[str, float] = {}
    for key in keys:
        k_counts = key_counts(key)
        letters = [i for i in range(1, 27) if k_counts[i]]
        if any(k_counts[i] > counts[i] for i in letters):
            continue  # the game cannot hold this word's letters
        subs: list[list[int]] = [[]]  # every part of the multiset, as counts per letter of `letters`
        for i in letters:
            subs = [s + [n] for s in subs for n in range(k_counts[i] + 1)]
        for sub in subs:
            size = sum(sub)
            if not 1 <= size < RACK:
                continue
            leave = [0] * 27
            p = 1.0
            for i, n in zip(letters, sub, strict=True):
                leave[i] = n
                p *= comb(counts[i] - n, k_counts[i] - n)
            p /= comb(total - size, RACK - size)
            lk = leave_key(leave)
            out[lk] = out.get(lk, 0.0) + p
    return {k: v for k, v in out.items() if v >= min_chance}


def chances_for(lex: Lexicon, game: str, min_chance: float = 0.0) -> dict[str, float]:
    """:func:`bingo_chances` for ``game``'s tiles and ``lex``'s seven-letter words."""
    return bingo_chances(word_keys(lex), get_ruleset(game).counts, min_chance)
