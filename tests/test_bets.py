"""Bets as pay tables: the partition check, the catalog, the lookup, and a new bet with no engine change."""

from __future__ import annotations

from fractions import Fraction

import pytest
from profiles import is_slow
from published_data import read_rows

from exactodds import PUNTO_BANCO, Bet, CoupState, Event, ExactOddsError, Outcome, Shoe, analyze, bet_catalog, find_bet
from exactodds.puntobanco.coup import ALL_STATES
from exactodds.puntobanco.facts import ALL_MASK
from exactodds.puntobanco.rules import EZ

PLAYER_WINS = Event("Player wins", lambda s: s.player_total > s.banker_total)
BANKER_WINS = Event("Banker wins", lambda s: s.banker_total > s.player_total)
TIE = Event("tie", lambda s: s.player_total == s.banker_total)


def test_a_bet_must_settle_every_coup_exactly_once():
    with pytest.raises(ExactOddsError, match="bet 'broken' leaves it unsettled: coup .* matches no outcome"):
        Bet("broken", "no push", (Outcome("win", PLAYER_WINS, Fraction(1)), Outcome("lose", BANKER_WINS, Fraction(-1))))
    with pytest.raises(ExactOddsError, match=r"bet 'broken' settles it twice: coup .* matches \['win', 'any'\]"):
        Bet("broken", "overlap", (Outcome("win", PLAYER_WINS, Fraction(1)), Outcome("any", ~TIE, Fraction(-1)),
                                  Outcome("push", TIE, Fraction(0))))  # fmt: skip
    with pytest.raises(ExactOddsError, match="bet 'broken' has two outcomes with the same id"):
        Bet("broken", "ids", (Outcome("x", TIE, Fraction(8)), Outcome("x", ~TIE, Fraction(-1))))
    good = Bet("tie", "Tie", (Outcome("win", TIE, Fraction(8)), Outcome("lose", ~TIE, Fraction(-1))))
    assert good.settle(CoupState(5, 5, 3, 2, False, False)).id == "win"


def test_events_combine():
    state = CoupState(3, 7, 3, 3, True, False)
    assert BANKER_WINS(state) and not PLAYER_WINS(state)
    both = BANKER_WINS & Event("Player pair", lambda s: s.player_pair)
    assert both(state) and both.name == "Banker wins and Player pair"
    assert not (~BANKER_WINS)(state) and (~BANKER_WINS).name == "not Banker wins"


def test_outcome_kinds_and_pays():
    assert [(o.kind, o.pays) for o in find_bet("banker", PUNTO_BANCO).outcomes] == [
        ("win", "0.95 to 1"),
        ("push", "push"),
        ("lose", "lose"),
    ]
    assert Outcome("half", TIE, Fraction(-1, 2)).pays == "-1/2"
    assert Outcome("half", TIE, Fraction(-1, 2)).kind == "lose"


def test_the_catalog():
    catalog = bet_catalog(PUNTO_BANCO)
    assert list(catalog) == ["player", "banker", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"]
    pays = {bet_id: [(o.id, o.net) for o in bet.outcomes] for bet_id, bet in catalog.items()}
    assert pays == {
        "player": [("win", 1), ("push", 0), ("lose", -1)],
        "banker": [("win", Fraction(19, 20)), ("push", 0), ("lose", -1)],
        "tie": [("win", 8), ("lose", -1)],
        "player-pair": [("win", 11), ("lose", -1)],
        "banker-pair": [("win", 11), ("lose", -1)],
        "dragon-7": [("win", 40), ("lose", -1)],
        "panda-8": [("win", 25), ("lose", -1)],
    }
    ez_banker = bet_catalog(EZ)["banker"]
    assert [(o.id, o.net) for o in ez_banker.outcomes] == [
        ("win", 1),
        ("push-three-card-7", 0),
        ("push", 0),
        ("lose", -1),
    ]
    assert "no commission" in ez_banker.description and "three-card 7 win pushes" in ez_banker.description
    assert bet_catalog(PUNTO_BANCO.with_tie_pays(Fraction(9)))["tie"].outcomes[0].net == 9
    assert bet_catalog(PUNTO_BANCO.with_commission(Fraction(1, 25)))["banker"].outcomes[0].net == Fraction(24, 25)


def test_catalog_bets_settle_as_the_rules_say():
    catalog = bet_catalog(EZ)
    # Banker wins 7 to 5 with three cards: EZ pushes, Dragon 7 pays; Panda loses.
    seven = CoupState(5, 7, 3, 3, False, True)
    settled = {bet_id: bet.settle(seven).id for bet_id, bet in catalog.items()}
    assert settled == {
        "player": "lose",
        "banker": "push-three-card-7",
        "tie": "lose",
        "player-pair": "lose",
        "banker-pair": "win",
        "dragon-7": "win",
        "panda-8": "lose",
    }
    # A two-card Banker 7 is an ordinary win; a three-card 8 for the Player wins Panda 8.
    assert catalog["banker"].settle(CoupState(6, 7, 2, 2, False, False)).id == "win"
    assert catalog["dragon-7"].settle(CoupState(6, 7, 2, 2, False, False)).id == "lose"
    assert catalog["panda-8"].settle(CoupState(8, 2, 3, 3, False, False)).id == "win"
    assert catalog["panda-8"].settle(CoupState(8, 2, 2, 3, False, False)).id == "lose"
    assert catalog["panda-8"].settle(CoupState(8, 8, 3, 2, False, False)).id == "lose"  # a tie is no win


def test_every_catalog_bet_settles_every_state_once():
    for rules in (PUNTO_BANCO, EZ):
        for bet in bet_catalog(rules).values():
            for state in ALL_STATES:
                assert sum(o.event(state) for o in bet.outcomes) == 1, (bet.id, state)


def test_find_bet():
    assert find_bet("dragon-7", PUNTO_BANCO).id == "dragon-7"
    assert find_bet("panda-8", EZ).id == "panda-8"
    with pytest.raises(
        ExactOddsError,
        match="unknown bet 'huge': valid bets are player, banker, tie, player-pair, banker-pair, dragon-7, panda-8, "
        rf"either-pair, perfect-pair, .*… \(exactodds bets lists all {len(bet_catalog(PUNTO_BANCO, full=True))}\)$",
    ):
        find_bet("huge", PUNTO_BANCO)


@pytest.mark.parametrize(
    ("name", "closest"),
    [("Dragon_7", "dragon-7"), (" PANDA-8 ", "panda-8"), ("banker ", "banker"), ("ALL", "all")],
)
def test_a_bet_id_is_matched_exactly_and_a_near_miss_is_told_the_closest(name, closest):
    """Bet ids were once read stripped, with _ for - (dragon_7 was dragon-7): now exactly, but for case (``BANKER`` is
    banker: no two ids of the catalog differ by case only)."""
    assert find_bet("BANKER", PUNTO_BANCO).id == "banker"
    with pytest.raises(ExactOddsError) as caught:
        find_bet(name, PUNTO_BANCO)
    message = str(caught.value)
    assert message.startswith(f"unknown bet {name!r}: did you mean {closest}") and len(message) < 200
    assert "\n" not in message


def _published_natural_nine() -> int:
    for row in read_rows("published_coups.txt"):
        if row.fields[:3] == ("decks=8", "banker_natural=yes", "banker_total=9"):
            return int(row.fields[-1])
    raise LookupError("no Banker natural 9 row in published_coups.txt")


def test_a_new_bet_is_one_definition():
    """The 'Banker natural 9' side bet (9:1), defined here, priced by the unchanged engine."""
    natural_nine = Event("Banker natural 9", lambda s: s.banker_natural and s.banker_total == 9)
    bet = Bet("natural-9", "Banker natural 9 pays 9:1",
              (Outcome("win", natural_nine, Fraction(9)), Outcome("lose", ~natural_nine, Fraction(-1))))  # fmt: skip
    figures = analyze(Shoe.standard(8), bets=[bet, "tie"]).bet("natural-9")
    count = figures.outcomes[0].count
    assert count == _published_natural_nine()  # WoO: 474,361,430,409,216
    assert figures.ev == Fraction(10 * count, figures.orderings) - 1


def test_conditions_as_sets_of_states_agree_with_the_facts():
    """Every condition's bit set of states is exactly the states where it holds, fact by fact (seeded random)."""
    import random

    from exactodds.puntobanco.facts import FACTS, condition, holds, state_indices, states_where

    rng = random.Random(9)
    for _ in range(80 if is_slow() else 20):
        names = rng.sample(list(FACTS), rng.randint(1, 4))
        when = condition({n: rng.sample(list(FACTS[n].values), rng.randint(1, 2)) for n in names})
        held = [holds(when, s) for s in ALL_STATES]  # the definition, state by state
        assert state_indices(states_where(when)) == [i for i, h in enumerate(held) if h], when
        event = Event.where(when)
        assert [event(s) for s in ALL_STATES] == held
        assert [(~event)(s) for s in ALL_STATES] == [not h for h in held]
        assert (event & ~event).mask == 0 and (event | ~event).mask == ALL_MASK


def test_needs_suits_is_found_as_before():
    """A bet needs suits exactly when some suited state settles otherwise than its plain twin (state by state)."""

    twins = [(s, s._replace(player_pair_suited=False, banker_pair_suited=False)) for s in ALL_STATES]

    def brute(bet: Bet) -> bool:
        return any(bet.settle(s).id != bet.settle(plain).id for s, plain in twins)

    states = [bet for bet in bet_catalog(PUNTO_BANCO, full=True).values() if not bet.reads_cards]
    found = {bet.id: bet.needs_suits for bet in states}
    assert found == {bet.id: brute(bet) for bet in states}
    assert found["perfect-pair"] and not found["either-pair"]


def test_overlapping_banker_overrides_settle_by_first_match():
    """RuleSet says "first match wins": an override that overlaps the EZ push (or another) no longer breaks the bet."""
    from dataclasses import replace

    from exactodds.puntobanco.facts import condition
    from exactodds.puntobanco.rules import PayOverride

    seven = PayOverride("seven", "a total of 7", condition({"banker_total": 7}), Fraction(1, 2))
    low = PayOverride("low", "a total of 7 or less", condition({"banker_total": list(range(8))}), Fraction(3))
    rules = replace(EZ, banker_win_overrides=(seven, low))
    banker = bet_catalog(rules)["banker"]
    assert [o.id for o in banker.outcomes] == ["win", "push-three-card-7", "seven", "low", "push", "lose"]

    def by_hand(s: CoupState) -> str:
        if s.winner != "banker":
            return "push" if s.winner == "tie" else "lose"
        if (s.banker_cards, s.banker_total) == (3, 7):
            return "push-three-card-7"
        return "seven" if s.banker_total == 7 else "low" if s.banker_total <= 7 else "win"

    assert all(banker.settle(s).id == by_hand(s) for s in ALL_STATES)
    assert [sum(o.event(s) for o in banker.outcomes) for s in ALL_STATES] == [1] * len(ALL_STATES)


# ---------------------------------------------------------------------------------------------
# Events, outcomes and bets are data: hashable, equal by value, picklable


def _every_bet() -> list[Bet]:
    from exactodds.puntobanco.rules import RULE_SETS
    from exactodds.puntobanco.userdefs import parse_bets

    mine = parse_bets(
        '[bets.mine]\ndescription = "a suited pair on a tie"\n'
        '[[bets.mine.outcome]]\nid = "win"\nwhen = { winner = "tie", suited_pairs = [1, 2] }\npays = 100\n'
        '[[bets.mine.outcome]]\nid = "lose"\notherwise = true\npays = "lose"\n',
        "mine.toml",
    )
    return [bet for rules in RULE_SETS for bet in bet_catalog(rules, full=True).values()] + list(mine)


def test_bets_pickle_hash_and_compare_by_value():
    """Every catalog bet and a bets-file bet survive pickling equal (the lab ships them to worker processes)."""
    import pickle

    bets = _every_bet()
    for bet in bets:
        copy = pickle.loads(pickle.dumps(bet))
        assert copy == bet and hash(copy) == hash(bet) and copy.needs_suits == bet.needs_suits, bet.id
        if bet.reads_cards:  # settled by the dealt cards, not by a coup state
            assert copy.cards == bet.cards, bet.id
            continue
        assert [copy.settle(s).id for s in ALL_STATES[::37]] == [bet.settle(s).id for s in ALL_STATES[::37]]
    assert len(set(bets)) == len({(b.id, b.description) for b in bets})  # equal exactly when the same bet
    assert bets[-1].needs_suits and bets[-1].id == "mine"


def test_no_callable_is_stored_in_a_bet():
    """A bet is made of strings, ints, Fractions and tuples: nothing that is code (which would not pickle)."""
    import dataclasses

    def walk(value: object) -> None:
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif isinstance(value, tuple):
            for item in value:
                walk(item)
        else:
            assert type(value) in (str, int, bool, Fraction, type(None)), value

    for bet in _every_bet():
        walk(bet)


def test_an_event_from_a_test_is_its_set_of_states():
    """A test given to Event is asked once per coup state; the event is that set, equal to the same condition."""
    calls = 0

    def nine(s: CoupState) -> bool:
        nonlocal calls
        calls += 1
        return s.banker_natural and s.banker_total == 9

    event = Event("Banker natural 9", nine)
    assert calls == len(ALL_STATES)
    assert event == Event.where({"banker_natural": True, "banker_total": 9}, "Banker natural 9")
    assert event != Event.where({"banker_natural": True, "banker_total": 9})  # the name is part of the event
    assert [event(s) for s in ALL_STATES] and calls == len(ALL_STATES)  # settling asks the test no more
    assert repr(event) == "Event(name='Banker natural 9')"
    with pytest.raises(ValueError, match="not a coup state"):
        event(CoupState(10, 0, 2, 2, False, False))
    with pytest.raises(ExactOddsError, match="a set of coup states is an integer"):
        Event("too many", ALL_MASK + 1)


def test_reads_suits_is_known_from_the_states():
    """An event reads suits exactly when some suited state and its plain twin fall on different sides of it."""
    from exactodds.puntobanco.facts import FACTS

    plain = [s._replace(player_pair_suited=False, banker_pair_suited=False) for s in ALL_STATES]  # once for all

    def brute(event: Event) -> bool:
        return any(event(s) != event(p) for s, p in zip(ALL_STATES, plain))

    for name, fact in FACTS.items():
        for value in fact.values:
            event = Event.where({name: value})
            assert event.reads_suits == brute(event) == ("suited" in name), (name, value)
