"""The word lists served: the shipped default and users' own ``*.txt`` lists."""

from __future__ import annotations

from fastapi import APIRouter

from .. import service
from ..deps import LexiconDep, SettingsDep, StoreDep
from ..schemas import CheckIn, CheckOut, ErrorOut, LexiconOut, LexiconsOut

router = APIRouter(prefix="/v1/lexicons", tags=["lexicons"])


@router.get("", response_model=LexiconsOut, summary="Lexicon names, word counts and provenance")
def list_lexicons(store: StoreDep, settings: SettingsDep) -> LexiconsOut:
    default = settings.default_lexicon
    return LexiconsOut(default=default, lexicons=[service.lexicon_info(store, n, default) for n in store.names()])


@router.get("/{name}", response_model=LexiconOut, summary="One lexicon", responses={404: {"model": ErrorOut}})
def get_lexicon(lex: LexiconDep, store: StoreDep, settings: SettingsDep) -> LexiconOut:
    return service.lexicon_info(store, lex.name, settings.default_lexicon)


@router.post(
    "/{name}/check",
    response_model=CheckOut,
    summary="Whether each word is in the lexicon",
    responses={404: {"model": ErrorOut}, 422: {"model": ErrorOut}},
)
def check_words(lex: LexiconDep, req: CheckIn) -> CheckOut:
    return service.check_words(lex, req.words)
