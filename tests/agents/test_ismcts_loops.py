"""ISMCTS's loop guard: a seat that finds itself back in an information state it decided in bars
the move that closed the loop (agents/ismcts.py, "Loops"). Midgard lets a seat cancel a composite
choice, and a search that valued the cancel as highly as anything went round one loop of
new troop, place, place, cancel about a thousand times in one leaderboard game."""

import json

import numpy as np

from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.ismcts import ISMCTSAgent
from deckzoo.envs.gobig.rules import GoBigGame

OPEN, CANCEL, CONFIRM, RESIGN = range(4)


class _View:
    """A stand-in information state: what the guard reads (observation, legal moves, seat)."""

    def __init__(self, where: str):
        self.where, self.player = where, 0

    def observe(self):
        return np.array([1.0, 0.0] if self.where == "start" else [0.0, 1.0], dtype=np.float32)

    def legal_mask(self):
        mask = np.zeros(4, dtype=bool)
        mask[[OPEN, RESIGN] if self.where == "start" else [CANCEL, CONFIRM]] = True
        return mask

    def legal_actions(self):
        return np.flatnonzero(self.legal_mask())


def _looping_agent() -> ISMCTSAgent:
    """A search that always prefers to open the choice and then to cancel it."""
    agent = ISMCTSAgent(seed=0, iterations=1)
    preference = {"start": [OPEN, RESIGN], "opened": [CANCEL, CONFIRM]}

    def search(info_state, legal, barred):
        return next(a for a in preference[info_state.where] if a not in barred)

    agent._search = search
    return agent


def _play(agent, decisions: int) -> list[int]:
    where, moves = "start", []
    for _ in range(decisions):
        a = agent.act(_View(where))
        moves.append(a)
        if a in (CONFIRM, RESIGN):
            break
        where = "opened" if a == OPEN else "start"
    return moves


def test_the_move_that_closed_a_loop_is_barred_so_the_loop_runs_once_more_at_most():
    assert _play(_looping_agent(), 50) == [OPEN, CANCEL, OPEN, CONFIRM]


def test_a_new_game_forgets_the_loops_of_the_last():
    agent = _looping_agent()
    _play(agent, 50)
    agent.seed(1)
    assert _play(agent, 50) == [OPEN, CANCEL, OPEN, CONFIRM]


def test_the_barred_moves_survive_saving_and_restoring_the_agent():
    agent = _looping_agent()
    assert _play(agent, 3) == [OPEN, CANCEL, OPEN]  # the loop was seen: cancel is barred
    clone = _looping_agent()
    clone.set_state(json.loads(json.dumps(agent.get_state())))
    assert clone.act(_View("opened")) == CONFIRM


def test_the_search_skips_barred_moves_unless_every_legal_move_is_barred():
    game = GoBigGame(4)
    state = game.new_state(3)
    view = state.for_player(state.current_player)
    legal = [int(a) for a in view.legal_actions()]
    assert len(legal) > 2
    agent = ISMCTSAgent(seed=0, iterations=30)
    free = agent._search(view, view.legal_actions(), ())
    assert agent._search(view, view.legal_actions(), [free]) != free
    only = legal[-1]
    assert agent._search(view, view.legal_actions(), [a for a in legal if a != only]) == only
    assert agent._search(view, view.legal_actions(), legal) in legal


def test_real_games_that_never_repeat_a_state_bar_nothing():
    game = GoBigGame(4)
    agents = [ISMCTSAgent(seed=s, iterations=10) for s in range(4)]
    play_match(game, agents, ["a", "b", "c", "d"], seed=5)
    assert all(a._barred == {} and len(a._seen) == len(a._history) for a in agents)
