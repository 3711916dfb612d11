"""The Big Number heuristic agent: legal in every mode, follows the rulebook's tips, beats
random."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.heuristics.bignumber import HeuristicAgent
from deckzoo.agents.registry import make_agent
from deckzoo.envs.bignumber.actions import PICK_BASE
from deckzoo.envs.bignumber.cards import parse_card
from deckzoo.envs.bignumber.rules import BigNumberGame

from .util import ANNA, game, play, position


def test_registry_finds_it():
    assert isinstance(make_agent("heuristic", "bignumber", seed=0), HeuristicAgent)


@pytest.mark.parametrize("two_decks", [False, True])
def test_goes_out_everything_at_once(two_decks):
    s = position(game(3, two_decks=two_decks), "9h 4h 2h", "Ac 3d 5s", "2s 3s", leader=ANNA)
    agent = HeuristicAgent(0)
    while s.current_player == ANNA and not s.is_terminal() and s.deal == 0:
        s.apply(agent.act(s.for_player(ANNA)))
    assert s.history == [[0, 3, 2]]


def test_picks_the_card_that_fits_the_hand():
    """ "Keep cards that go together": after beating 95 it takes the 5d to its three 5s (a hand of
    one rank goes out at the next lead), not the higher 9d."""
    s = position(game(2), "Ah 5h 5s 5c 4c 3c 2c", "9d 5d 8s", leader=ANNA)
    play(s, "Ah")
    play(s, "9d 5d")  # Ben: 95, takes the Ah
    play(s, "4c 3c 2c")  # Anna: 432, one card more
    assert HeuristicAgent(0).act(s.for_player(ANNA)) == PICK_BASE + parse_card("5d")


def test_beats_random_players():
    game4 = BigNumberGame(4, single_deal=True)
    rng = np.random.default_rng(0)
    wins = 0.0
    games = 40
    for g in range(games):
        hero = g % 4
        agents = [RandomAgent(int(rng.integers(2**31))) for _ in range(4)]
        agents[hero] = HeuristicAgent(g)
        res = play_match(game4, agents, ["x"] * 4, seed=int(rng.integers(2**63)))
        wins += (hero in res.winners) / len(res.winners)
    assert wins / games > 0.6  # uniform would be 0.25


@pytest.mark.parametrize("n,two_decks", [(2, False), (3, True), (6, True)])
def test_always_legal(n, two_decks):
    g = BigNumberGame(n, two_decks=two_decks, single_deal=True)
    agents = [HeuristicAgent(p) for p in range(n)]
    for seed in range(5):
        res = play_match(g, agents, ["h"] * n, seed=seed)  # apply() raises on an illegal action
        assert res.steps > 0
