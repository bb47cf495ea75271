"""The word lists served: the shipped default and users' own ``*.txt`` lists."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from .. import service
from ..deps import LexiconDep, LexiconPath, SettingsDep, StoreDep
from ..openapi import BODY, CHECK_EXAMPLES, errors
from ..schemas import CheckIn, CheckOut, LexiconOut, LexiconsOut

router = APIRouter(prefix="/v1/lexicons", tags=["lexicons"])


@router.get("", response_model=LexiconsOut, summary="Lexicon names, word counts, provenance and status; never compiles",
            operation_id="listLexicons", response_model_exclude_unset=True)
def list_lexicons(store: StoreDep, settings: SettingsDep) -> LexiconsOut:
    default = settings.default_lexicon
    return LexiconsOut(default=default, lexicons=[service.lexicon_info(store, n, default) for n in store.names()])


@router.get("/{name}", response_model=LexiconOut, summary="One lexicon's word count and status; never compiles",
            operation_id="getLexicon", responses=errors(404, 422), response_model_exclude_unset=True)
def get_lexicon(name: LexiconPath, store: StoreDep, settings: SettingsDep) -> LexiconOut:
    return service.lexicon_info(store, name, settings.default_lexicon)


@router.post(
    "/{name}/check",
    response_model=CheckOut,
    summary="Whether each word is in the lexicon",
    operation_id="checkWords",
    responses=errors(*BODY, 404, 503),
)
def check_words(lex: LexiconDep, req: Annotated[CheckIn, Body(openapi_examples=CHECK_EXAMPLES)]) -> CheckOut:
    return service.check_words(lex, req.words)
