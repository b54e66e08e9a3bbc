"""The web page's own words, sent to it from the catalogues (`page_js.<key>` entries of
p2p_dominoes/words/*.po) as one JSON document with both languages: static/strings.js fetches
`/words.json` once, before the page's other modules run, and static/words.js fills them.

Both languages go at once, so the page's language switch needs no second request. The words are
the same for everyone and hold nothing secret, so, like the page's scripts under /static, they
need no session cookie: the "open elsewhere" screen (a visitor without the cookie, 403) must be
able to say why it is shown. The Host check and the security headers (app.py's Guard) apply as
to every response. The page never evaluates catalogue text: a plural entry carries its forms,
and the language's rule that picks one is written in words.js (`plural_forms` is sent so a test
can hold that rule to the catalogue's header).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from p2p_dominoes.words import LANGUAGES, plural_forms, texts

PREFIX: Final = "page_js."
"""The keys of the page's own words in the catalogues."""


def page_words(lang: str) -> dict[str, object]:
    """What the page gets of `lang`: its lines and plural entries keyed without `PREFIX`."""
    lines, plurals = texts(lang, PREFIX)
    return {
        "lang": lang,
        "plural_forms": plural_forms(lang),
        "lines": lines,
        "plurals": {key: list(forms) for key, forms in plurals.items()},
    }


@cache
def page_words_json() -> bytes:
    """Every language's `page_words`, as the JSON the page reads (built once per process)."""
    document = {lang: page_words(lang) for lang in LANGUAGES}
    return json.dumps(document, ensure_ascii=False, sort_keys=True).encode("utf-8")


async def words_json(request: Request) -> Response:
    """GET /words.json: the page's words in every language."""
    return Response(page_words_json(), media_type="application/json")
