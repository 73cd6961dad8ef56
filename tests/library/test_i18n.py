"""The page's six languages: complete catalogues, and the page speaking each one in Chromium.

The catalogues (web/src/i18n/<code>.js) are ES modules whose default export is a JSON object;
the static tests read them as JSON and compare their keys with the keys the sources use:
`t("key")`, `list("key")` and `fill(element, "key", ...)` calls in web/src/app/*.js and
`data-i18n="key"` / `data-i18n-*="key"` attributes in web/src/index.html. Errors that Python
reports are keyed "error.<code>" for every code in freecell.ERROR_CODES, in every language
English included: the library's own English (freecell._errors.MESSAGES) is the command line's
voice, en.js's the page's, for a player (README.md, Languages, says so).
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from freecell._errors import ERROR_CODES, MESSAGES
from helpers import (
    LANGUAGES,
    WEB,
    columns_of,
    js_object,
)

CATALOGUES = WEB / "i18n"
PLURAL_FORMS = {
    "en": {"one", "other"},
    "pt": {"one", "other"},
    "es": {"one", "other"},
    "it": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "zh-Hant": {"other"},
}

USE_IN_JS = re.compile(r"""\b(?:t|list|fill)\((?:\s*\w+,)?\s*"([a-z0-9.-]+)"\s*[,)]""")
USE_IN_HTML = re.compile(r"""\bdata-i18n(?:-[a-z-]+)?="([a-z0-9.-]+)\"""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(code: str) -> dict[str, Any]:
    """Read a language's catalogue: the JSON object after `export default`."""
    return js_object(CATALOGUES / f"{code}.js")


def used_keys() -> set[str]:
    """Every key the page's sources use."""
    keys: set[str] = set()
    for path in sorted((WEB / "app").rglob("*.js")):
        keys |= set(USE_IN_JS.findall(path.read_text(encoding="utf-8")))
    keys |= set(USE_IN_HTML.findall((WEB / "index.html").read_text(encoding="utf-8")))
    return keys


def texts(value: Any) -> list[str]:
    """Return the strings of a catalogue value: itself, its plural forms or its list items."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return [str(v) for v in value]


# --- the catalogues -----------------------------------------------------------------------------


class TestCatalogues:
    def test_every_used_key_is_in_english(self) -> None:
        """en.js holds the keys the sources use and one per Python error code, and no other."""
        english = set(catalogue("en"))
        used = used_keys() | {f"error.{code}" for code in ERROR_CODES}
        assert used - english == set(), "used but missing from en.js"
        assert english - used == set(), "in en.js but used nowhere"

    @pytest.mark.parametrize("code", LANGUAGES[1:])
    def test_same_keys_as_english(self, code: str) -> None:
        """Every other language has exactly English's keys."""
        keys = set(catalogue(code))
        wanted = set(catalogue("en"))
        assert wanted - keys == set(), f"missing from {code}.js"
        assert keys - wanted == set(), f"in {code}.js but unused"

    @pytest.mark.parametrize("code", LANGUAGES)
    def test_values_are_well_formed(self, code: str) -> None:
        """Texts are non-empty; plurals have the language's forms; placeholders match English."""
        english = catalogue("en")
        for key, value in catalogue(code).items():
            assert all(text.strip() for text in texts(value)), key
            if isinstance(value, dict):
                assert set(value) == PLURAL_FORMS[code], key
            if isinstance(value, list):
                assert len(value) == len(english[key]), key
            if key in english and not isinstance(value, list) and not key.startswith("error."):
                theirs = {p for text in texts(english[key]) for p in PLACEHOLDER.findall(text)}
                ours = {p for text in texts(value) for p in PLACEHOLDER.findall(text)}
                assert ours == theirs, key

    @pytest.mark.parametrize("code", LANGUAGES)
    def test_every_error_code_has_a_text_on_each_side(self, code: str) -> None:
        """Every error code has a text on each side, and every catalogue's error.* is a code.

        The command line's English is MESSAGES, the page's is each catalogue's: two voices, one
        set of codes (README.md, Languages).
        """
        assert set(MESSAGES) == set(ERROR_CODES)
        assert all(MESSAGES[error].strip() for error in ERROR_CODES)
        errors = {key.removeprefix("error.") for key in catalogue(code) if key.startswith("error.")}
        assert errors == set(ERROR_CODES)

    def test_error_placeholders_are_python_params(self) -> None:
        """Each error text's placeholders are among the params of its code's Python message."""
        for code in LANGUAGES:
            for key, value in catalogue(code).items():
                if key.startswith("error."):
                    english = MESSAGES[key.removeprefix("error.")]
                    params = {
                        re.split(r"[.\[]", name)[0]
                        for _, name, _, _ in string.Formatter().parse(english)
                        if name
                    }
                    found = {p for text in texts(value) for p in PLACEHOLDER.findall(text)}
                    assert found <= params, (code, key, found - params)

    def test_card_vocabulary(self) -> None:
        """Each language names the cards in its own words."""
        names = {code: catalogue(code) for code in LANGUAGES}
        assert names["pt"]["card.ranks"][10] == "Valete"
        assert names["it"]["card.ranks"][10] == "Fante"
        assert names["es"]["card.ranks"][10] == "Jota"
        assert names["ru"]["card.ranks"][0] == "туз"
        assert names["ru"]["card.suits"] == ["треф", "бубен", "червей", "пик"]
        assert names["zh-Hant"]["card.suits"] == ["梅花", "方塊", "紅心", "黑桃"]


# --- the page in each language ------------------------------------------------------------------


def test_deal_617_first_cascade_ends_in_the_jack_of_diamonds() -> None:
    """The card the page tests name: deal 617's first cascade ends in JD."""
    assert columns_of(617)[0][-1] == "JD"
