"""Cards: parsing and writing, rank order and card points under every deck variant."""

from __future__ import annotations

import pytest

from scorekeeper.engine import (
    PRESETS,
    Card,
    CardError,
    Manilha,
    Rank,
    RuleSet,
    Suit,
    SuitLetterError,
    SuitLetters,
    card_points,
    deck,
    in_deck,
    rank_letter,
    rank_order,
    read_typed,
)

VARIANTS = {
    "portugal": RuleSet(),
    "acores": PRESETS["acores"],
    "queen_over_jack": RuleSet(queen_over_jack=True),
    "acores_queen_over_jack": RuleSet(manilha=Manilha.TEN, queen_over_jack=True),
}
"""Every distinct deck: the manilha and the queen/jack order are what change a deck."""


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
def test_every_card_round_trips_through_str_and_parse(rules: RuleSet) -> None:
    for card in deck(rules):
        text = str(card)
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(f"  {text} ") == card
        assert str(Card.parse(text)) == text


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
def test_each_deck_has_40_distinct_cards_and_120_points(rules: RuleSet) -> None:
    cards = deck(rules)
    assert len(cards) == 40
    assert len(set(cards)) == 40
    assert len({str(card) for card in cards}) == 40
    assert sum(card_points(card, rules) for card in cards) == 120
    for suit in Suit:
        of_suit = [card for card in cards if card.suit is suit]
        assert len(of_suit) == 10
        assert sum(card_points(card, rules) for card in of_suit) == 30
    assert all(in_deck(card, rules) for card in cards)


def test_decks_hold_the_seven_or_the_ten_never_both() -> None:
    portugal = {str(card) for card in deck(RuleSet())}
    acores = {str(card) for card in deck(PRESETS["acores"])}
    assert {"7H", "7S", "7C", "7D"} <= portugal
    assert not {"10H", "10S", "10C", "10D"} & portugal
    assert {"10H", "10S", "10C", "10D"} <= acores
    assert not {"7H", "7S", "7C", "7D"} & acores
    assert portugal - acores == {"7C", "7D", "7H", "7S"}
    assert acores - portugal == {"10C", "10D", "10H", "10S"}


def test_deck_lists_suit_by_suit_highest_first() -> None:
    assert [str(card) for card in deck(RuleSet())[:10]] == [
        "AC", "7C", "KC", "JC", "QC", "6C", "5C", "4C", "3C", "2C",
    ]  # fmt: skip


def test_t_parses_as_the_ten() -> None:
    card = Card.parse("TH")
    assert card == Card(Rank.TEN, Suit.HEARTS)
    assert str(card) == "10H"
    assert Card.parse("td") == Card.parse("10D")
    assert Card.parse("10h") == Card(Rank.TEN, Suit.HEARTS)


def test_parse_reads_rank_and_suit() -> None:
    assert Card.parse("AS") == Card(Rank.ACE, Suit.SPADES)
    assert Card.parse("7h") == Card(Rank.SEVEN, Suit.HEARTS)
    assert Card.parse("QD") == Card(Rank.QUEEN, Suit.DIAMONDS)
    assert Card.parse("2C") == Card(Rank.TWO, Suit.CLUBS)
    assert str(Card(Rank.JACK, Suit.CLUBS)) == "JC"


@pytest.mark.parametrize("text", ["1H", "XH", "", " ", "H", "7", "10", "AX", "77H", "AHS", "0H"])
def test_unreadable_cards_are_rejected_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value)
    assert caught.value.text == text


def test_parse_rejects_what_is_not_text() -> None:
    with pytest.raises(CardError, match="7"):
        Card.parse(7)


def test_suit_and_rank_parsers() -> None:
    assert Suit.parse("h") is Suit.HEARTS
    assert [str(suit) for suit in Suit] == ["C", "D", "H", "S"]
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("10") is Rank.TEN
    with pytest.raises(CardError, match="'X' is not a suit"):
        Suit.parse("X")
    with pytest.raises(CardError, match="'1' is not a rank"):
        Rank.parse("1")


def test_cards_outside_the_deck_parse_but_are_not_in_it() -> None:
    # 8s and 9s are read (the Azores turn one up for trump) but are in no 40-card deck.
    for text in ("8H", "9S"):
        assert not in_deck(Card.parse(text), RuleSet())
        assert not in_deck(Card.parse(text), RuleSet(manilha=Manilha.TEN))
    assert not in_deck(Card.parse("10H"), RuleSet())
    assert not in_deck(Card.parse("7H"), PRESETS["acores"])
    assert in_deck(Card.parse("10H"), PRESETS["acores"])
    assert card_points(Card.parse("7H"), PRESETS["acores"]) == 0


def test_rank_order_of_every_variant() -> None:
    def order(rules: RuleSet) -> list[str]:
        return [str(rank) for rank in rank_order(rules)]

    assert order(RuleSet()) == ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"]
    assert order(RuleSet(queen_over_jack=True)) == [
        "A",
        "7",
        "K",
        "Q",
        "J",
        "6",
        "5",
        "4",
        "3",
        "2",
    ]
    assert order(PRESETS["acores"]) == ["A", "10", "K", "J", "Q", "6", "5", "4", "3", "2"]
    assert order(RuleSet(manilha=Manilha.TEN, queen_over_jack=True)) == [
        "A", "10", "K", "Q", "J", "6", "5", "4", "3", "2",
    ]  # fmt: skip


def points(rules: RuleSet) -> dict[str, int]:
    return {str(rank): card_points(Card(rank, Suit.SPADES), rules) for rank in rank_order(rules)}


def test_card_points_default() -> None:
    assert points(RuleSet()) == {
        "A": 11, "7": 10, "K": 4, "J": 3, "Q": 2, "6": 0, "5": 0, "4": 0, "3": 0, "2": 0,
    }  # fmt: skip


def test_card_points_queen_over_jack() -> None:
    rules = RuleSet(queen_over_jack=True)
    assert points(rules) == {
        "A": 11, "7": 10, "K": 4, "Q": 3, "J": 2, "6": 0, "5": 0, "4": 0, "3": 0, "2": 0,
    }  # fmt: skip
    assert card_points(Card.parse("QH"), rules) == 3
    assert card_points(Card.parse("JH"), rules) == 2


def test_card_points_manilha_ten() -> None:
    rules = PRESETS["acores"]
    assert points(rules) == {
        "A": 11, "10": 10, "K": 4, "J": 3, "Q": 2, "6": 0, "5": 0, "4": 0, "3": 0, "2": 0,
    }  # fmt: skip
    assert card_points(Card.parse("10C"), rules) == 10
    assert card_points(Card.parse("TC"), rules) == 10


# Issue 25, item 8: the Portuguese rank letters, read by position --------------------------


@pytest.mark.parametrize(
    ("typed", "card"),
    [("RE", "KS"), ("vo", "JD"), ("DC", "QH"), ("dp", "QC"), ("KE", "KS"), ("QO", "QD")],
)
def test_portuguese_rank_letters_are_read_beside_the_english_ones(typed: str, card: str) -> None:
    assert str(read_typed(typed, SuitLetters.PORTUGUESE)) == card


def test_d_is_dama_first_and_an_english_suit_last_is_refused_in_portuguese() -> None:
    # Rank first, suit last: "DD" is the dama with the English letter for ouros, never guessed.
    with pytest.raises(SuitLetterError):
        read_typed("DD", SuitLetters.PORTUGUESE)
    assert rank_letter(Rank.QUEEN, SuitLetters.PORTUGUESE) == "D"
    assert rank_letter(Rank.QUEEN, SuitLetters.ENGLISH) == "Q"
    with pytest.raises(CardError):
        read_typed("RS", SuitLetters.ENGLISH)  # R is no rank in English
