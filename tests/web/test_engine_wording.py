"""Every code the engine answers with has its words in every language the interface speaks.

The engine names why a hand scored what it did (``HandReason``), what is wrong with a record
(``ProblemCode``) and with card points (``PointsFault``); the wording module maps each member
to a sentence. A member without words would leave a page with the engine's English, or none.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import flask_babel
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper import engine
from scorekeeper.bidding import phrases as bidding_wording
from scorekeeper.engine import bidding as rules
from scorekeeper.engine import names as bidding_names
from scorekeeper.web import wording
from scorekeeper.web.i18n import LOCALES, html_lang

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
TEAMS = ("Nós", "Eles")
ENGINE_ENGLISH = "the engine's English sentence"


def code_enums() -> set[type[enum.StrEnum]]:
    """The engine's code enums: every ``StrEnum`` it exports."""
    return {
        value
        for value in vars(engine).values()
        if isinstance(value, type) and issubclass(value, enum.StrEnum)
    }


def test_the_wording_module_maps_every_member_of_every_code_enum() -> None:
    mappings: dict[type[enum.StrEnum], dict[Any, Any]] = {
        engine.HandReason: wording.HAND_REASONS,
        engine.ProblemCode: wording.RECORD_PROBLEMS,
        engine.PointsFault: wording.POINTS_FAULTS,
    }
    assert code_enums() == set(mappings), "a new code enum needs its words in wording.py"
    for codes, words in mappings.items():
        assert set(words) == set(codes), codes.__name__


def test_the_bidding_wording_maps_every_fault_of_the_bidding_engine() -> None:
    assert set(bidding_wording.FAULTS) == set(rules.BiddingFault)


def test_every_member_has_a_docstring() -> None:
    for codes in code_enums() | {rules.BiddingFault}:
        source = Path(engine.__file__).parent.glob("*.py")
        text = "\n".join(path.read_text() for path in source)
        for member in codes:
            declared = f'    {member.name} = "{member.value}"\n    """'
            assert declared in text, f"{codes.__name__}.{member.name} has no docstring"


# Real answers of the engine, one or more for each member ------------------------------


def results(rules: dict[str, Any], *hands: engine.Hand) -> list[engine.HandResult]:
    return list(engine.replay(engine.RuleSet.from_dict(rules), hands).hands)


def hand_results() -> list[engine.HandResult]:
    hand = engine.Hand
    return [
        *results({}, hand.played(75), hand.played(95), hand.played(120, all_tricks=True)),
        *results({}, hand.tie(), hand.tie(), hand.played(70)),
        *results({"tie": "double"}, hand.tie(), hand.played(95)),
        *results({"tie": "void"}, hand.tie()),
        *results({}, hand.revoke(0)),
        *results({"revoke": "offender_minus_two"}, hand.revoke(0), hand.played(70), hand.revoke(0)),
        *results({"revoke": "lose_rubber"}, hand.revoke(1)),
        *results({"melar": True}, hand.spoiled()),
        *results({"games_to_win": 2}, hand.played(70), hand.played(70)),
    ]


def points_errors() -> Iterator[engine.ImpossiblePointsError]:
    attempts: list[Callable[[], object]] = [
        lambda: engine.Hand.played("seventy"),  # type: ignore[arg-type]
        lambda: engine.Hand(engine.HandKind.PLAYED),
        lambda: engine.Hand.played(121),
        lambda: engine.Hand.played(1),
        lambda: engine.Hand.played(119),
        lambda: engine.Hand.played(70, 60),
        lambda: engine.Hand(engine.HandKind.PLAYED, (60, 60)),
        lambda: engine.Hand.played(100, 20, all_tricks=True),
    ]
    for attempt in attempts:
        with pytest.raises(engine.ImpossiblePointsError) as raised:
            attempt()
        yield raised.value


def bidding_errors() -> Iterator[rules.BiddingError]:
    """The bidding engine's real refusals, one or more for each fault."""
    played = rules.BidHand.played
    finished = rules.play_hand(rules.new_game(4, target=50), played(0, 61, made=True))
    attempts: list[Callable[[], object]] = [
        lambda: rules.new_game(7),
        lambda: bidding_names.check_names(["Ana", "Bruno", "ana", "Duarte"]),
        lambda: bidding_names.check_names(["Ana", "", " ", "Duarte"]),
        lambda: rules.new_game(4, target=10),
        lambda: rules.verify_hand(rules.new_game(4), played(4, 70, 1, made=True)),
        lambda: rules.verify_hand(rules.new_game(4), played(0, 70, 9, made=True)),
        lambda: rules.new_game(4, first_dealer=5),
        lambda: played(0, 60, 1, made=True),
        lambda: played(0, 70, 1, points="x"),  # type: ignore[arg-type]
        lambda: played(0, 70, 1, points=121),
        lambda: played(0, 70, 1, points=1),
        lambda: played(0, 70, 1, points=119),
        lambda: played(0, 70, 1),
        lambda: played(0, 70, 1, points=80, made=False),
        lambda: rules.BidHand(rules.HandKind.PASSED, bid=70),
        lambda: rules.verify_hand(finished, rules.BidHand.passed()),
    ]
    for attempt in attempts:
        with pytest.raises(rules.BiddingError) as raised:
            attempt()
        yield raised.value
    game = rules.new_game(4, target=2000)
    with pytest.raises(rules.TooManyHandsError) as too_many:
        for _ in range(rules.MAX_HANDS + 1):
            game = rules.play_hand(game, rules.BidHand.passed())
    yield too_many.value


def test_the_examples_cover_every_member() -> None:
    assert {error.fault for error in bidding_errors()} == set(rules.BiddingFault)
    assert {r for result in hand_results() for r in result.reasons} == set(engine.HandReason)
    assert {error.reason for error in points_errors()} == set(engine.PointsFault)


Saying = tuple[str, Callable[[], str]]


def sayings() -> list[Saying]:
    """Each member with a call of the wording module that says it."""
    said: list[Saying] = []
    for result in hand_results():
        for reason in result.reasons:
            said.append(
                (
                    f"HandReason.{reason.name} (hand {result.number})",
                    partial(wording.hand_reason, reason, result, TEAMS),
                )
            )
    for code in engine.ProblemCode:
        problem = engine.RecordProblem(code, 3, "AS", ENGINE_ENGLISH)
        said.append((f"ProblemCode.{code.name}", partial(wording.record_problem, problem)))
    for error in points_errors():
        said.append((f"PointsFault.{error.reason.name}", partial(wording.engine_error, error)))
    for fault in bidding_errors():
        said.append(
            (f"BiddingFault.{fault.fault.name}", partial(bidding_wording.engine_error, fault))
        )
    return said


def catalogue(locale: str) -> Catalog:
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=locale)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalog]:
    return {locale: catalogue(locale) for locale in LOCALES}


def translated(catalogue: Catalog, msgid: str) -> bool:
    message = catalogue.get(msgid)
    if message is None or message.fuzzy:
        return False
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(isinstance(s, str) and s.strip() for s in strings)


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_every_member_is_said_in_every_locale(
    app: Flask, monkeypatch: pytest.MonkeyPatch, catalogues: dict[str, Catalog], locale: str
) -> None:
    """Each member's words come from the catalogue (not the engine's English), translated."""
    used: list[str] = []

    def recording_gettext(msgid: str, **variables: Any) -> str:
        used.append(msgid)
        return str(flask_babel.gettext(msgid, **variables))

    def recording_ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
        used.append(singular)
        return str(flask_babel.ngettext(singular, plural, num, **variables))

    for module in (wording, bidding_wording):
        monkeypatch.setattr(module, "_", recording_gettext)
        monkeypatch.setattr(module, "ngettext", recording_ngettext)
    missing = []
    for name, say in sayings():
        used.clear()
        with app.test_request_context(headers={"Accept-Language": html_lang(locale)}):
            sentence = say()
        if not used or not sentence.strip() or "%(" in sentence or ENGINE_ENGLISH in sentence:
            missing.append(f"{name}: {sentence!r}")
        missing += [
            f"{name}: {msgid!r} untranslated"
            for msgid in used
            if not translated(catalogues[locale], msgid)
        ]
    assert not missing, "\n".join(missing)


def test_the_portuguese_words_are_not_the_english_ones(app: Flask) -> None:
    def said(locale: str) -> list[str]:
        with app.test_request_context(headers={"Accept-Language": html_lang(locale)}):
            return [say() for _name, say in sayings()]

    english, european, brazilian = said("en"), said("pt_PT"), said("pt_BR")
    same_everywhere = {"× 2 (60-60)"}  # the doubling, written the same in every language
    for words in (european, brazilian):
        alike = {en for en, pt in zip(english, words, strict=True) if en == pt}
        assert alike <= same_everywhere, alike
