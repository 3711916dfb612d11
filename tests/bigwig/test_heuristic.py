"""The BigWig heuristic plays only legal moves and clearly beats random players."""

import numpy as np

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.match import play_match
from deckzoo.agents.registry import make_agent
from deckzoo.envs.bigwig.rules import BigWigGame


def test_heuristic_beats_random_players():
    game = BigWigGame(num_players=4)
    rng = np.random.default_rng(2026)
    wins = 0.0
    games = 40
    for g in range(games):
        seat = g % 4
        agents = [RandomAgent(int(rng.integers(2**31))) for _ in range(4)]
        agents[seat] = make_agent("heuristic", "bigwig", seed=int(rng.integers(2**31)))
        res = play_match(
            game, agents, ["random"] * 4, seed=int(rng.integers(2**63))
        )  # raises on an illegal move
        if seat in res.winners:
            wins += 1.0 / len(res.winners)
    assert wins / games > 0.45  # uniform share is 0.25; a few hundred games measure about 0.65


def test_heuristic_handles_every_player_count():
    for n in (2, 3, 6):
        game = BigWigGame(num_players=n)
        agents = [make_agent("heuristic", "bigwig", seed=s) for s in range(n)]
        res = play_match(game, agents, ["heuristic"] * n, seed=n)
        assert res.steps > 0
