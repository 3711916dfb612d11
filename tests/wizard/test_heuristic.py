"""The Wizard heuristic: its decisions on explicit positions, and that it beats random players."""

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.heuristics.wizard import (
    HeuristicAgent,
    card_tricks,
    choose_bid,
    foresight_win_chance,
)
from deckzoo.agents.registry import make_agent
from deckzoo.envs.wizard.rules import WizardGame, decode_action

from .helpers import bid_all, card, cards, play, stacked

D, H, E, G = range(4)


def decide(state):
    return decode_action(HeuristicAgent(0).act(state.for_player(state.current_player)))


def test_registry_finds_it():
    assert isinstance(make_agent("heuristic", "wizard"), HeuristicAgent)


def test_choose_bid_avoids_the_forbidden_bid():
    assert choose_bid(1.2, 3, None) == 1
    assert choose_bid(1.2, 3, 1) == 2 or choose_bid(1.2, 3, 1) == 0
    assert choose_bid(1.4, 3, 1) == 2 and choose_bid(0.6, 3, 1) == 0
    assert choose_bid(0.2, 1, 0) == 1 and choose_bid(9.0, 4, None) == 4


def test_card_tricks_counts_wizards_sure_and_shares_the_rest_by_power():
    assert card_tricks(cards("W W N"), E, 4, 3) == 2.0  # two sure tricks; a Null adds nothing
    assert card_tricks(cards("W W W"), E, 4, 3) == 3.0
    assert 0.8 < card_tricks(cards("E13 E12"), E, 4, 2) < 2.0  # high trumps: a good share
    assert card_tricks(cards("D2 H3 N"), E, 4, 3) == 0.0  # low off-suit cards and a Null: nothing
    strong, weak = (
        card_tricks(cards("E13 E12 E11 G13"), E, 4, 4),
        card_tricks(cards("E2 G13 D9 H8"), E, 4, 4),
    )
    assert strong > weak
    assert card_tricks(cards("G13 D13"), E, 3, 2) > card_tricks(
        cards("G13 D13"), E, 6, 2
    )  # more rivals


def test_foresight_bid_is_exact_against_the_seen_cards():
    # Player 0 leads (dealer 2) and sees a Wizard behind it: only one of the 3 unseen Wizards
    # (out of 57 unseen cards) would win, being first.
    s = stacked(["E2", "G9", "W"], flipped="H3", dealer=2)
    assert abs(foresight_win_chance(s.view(0)) - 3 / 57) < 1e-9
    assert decide(s) == ("bid", 0)
    # Seeing two Nulls behind it, the leader wins with any card: even a Null (the first of all
    # Nulls).
    s = stacked(["E2", "N", "N"], flipped="H3", dealer=2)
    assert foresight_win_chance(s.view(0)) == 1.0
    assert decide(s) == ("bid", 1)
    # Player 1 plays second, after Elves 2, before a Null; trump Humans (Humans 3 flipped). Of the
    # 57 cards it cannot see, it wins with 4 Wizards, 12 Humans and Elves 3-13 (11): 27.
    s = stacked(["E2", "G5", "N"], flipped="H3", dealer=2)
    assert abs(foresight_win_chance(s.view(1)) - 27 / 57) < 1e-9


def test_trump_choice_is_the_strongest_suit():
    s = stacked(["E13 E12 D1", "G9 G2 H1", "H5 D3 D4"], flipped="W", dealer=0)
    assert decide(s) == ("trump", E)


def test_leads_a_wizard_when_it_needs_tricks_and_a_null_when_it_does_not():
    s = stacked(["W N E5", "G9 G2 H1", "H5 D3 D4"], flipped="D13", dealer=2)
    bid_all(s, [2, 0, 0])
    assert decide(s) == ("play", card("W"))
    s = stacked(["W N E5", "G9 G2 H1", "H5 D3 D4"], flipped="D13", dealer=2)
    bid_all(s, [0, 0, 0])
    assert decide(s) == ("play", card("N"))


def test_wins_cheaply_when_last_and_ducks_with_the_highest_loser():
    s = stacked(["E5 E7", "E9 E2", "E10 E13"], flipped="D13", dealer=0)
    bid_all(s, [0, 0, 1])  # player 1 leads; dealer 0 plays last
    play(s, "E9", "E13")
    assert decide(s) == ("play", card("E7"))  # want 0, cannot beat 13: shed the higher loser
    s = stacked(["E5 E12", "E9 E2", "E10 E13"], flipped="D13", dealer=0)
    bid_all(s, [2, 0, 1])
    play(s, "E9", "E10")
    assert decide(s) == ("play", card("E12"))  # wants tricks, plays last: the cheapest winner


def test_beats_random_players_clearly():
    game = WizardGame(num_players=4, num_rounds=6)
    wins = 0.0
    for g in range(24):
        seat = g % 4
        agents = [RandomAgent(100 + 4 * g + i) for i in range(4)]
        agents[seat] = HeuristicAgent(g)
        res = play_match(game, agents, [""] * 4, seed=7000 + g)
        wins += (seat in res.winners) / len(res.winners)
    assert wins / 24 > 0.6  # uniform share is 0.25
