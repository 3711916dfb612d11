"""Helpers for the viewer tests: recorded games, hands read from the engine, replays checked."""

from __future__ import annotations

from collections import Counter

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.registry import has_heuristic, make_agent
from deckzoo.agents.tools.replay import finish_record, replay_states

GAME_NAMES = list(E.registry.games())


def short_options(game_name: str) -> dict:
    return E.registry.short_options(game_name)


def recorded_game(
    game_name: str,
    seed: int = 5,
    players: int | None = None,
    spec: str | None = None,
    options: dict | None = None,
) -> dict:
    """A replay record of one game between ``spec`` agents (the game's heuristic if it has one,
    else random players; short options unless given)."""
    spec = spec or ("heuristic" if has_heuristic(game_name) else "random")
    game = E.game_class(game_name)(
        players, **(short_options(game_name) if options is None else options)
    )
    n = game.num_players
    seeds = [seed * 100 + p for p in range(n)]
    actions: list[int] = []
    play_match(
        game, [make_agent(spec, game.name, s) for s in seeds], [spec] * n, seed, actions=actions
    )
    record = {
        "game": game.name,
        "config": game.config(),
        "seed": seed,
        "seats": [spec] * n,
        "agent_seeds": seeds,
        "actions": actions,
    }
    state = game.new_state(seed)
    for a in actions:
        state.apply(a)
    return finish_record(record, state)


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies, read from the engine's own state (not a view) by
    the game's ``hand_names`` in its envs/<game>/testing.py."""
    return E.registry.testing_fact(state.game.name, "hand_names")(state, p)


def check_reproduces(record: dict) -> None:
    """The replay rebuilds the game: every action legal where it stands, each agent's move what
    that agent (rebuilt from its spec and seed, shown only its seat's view) chooses again, and
    the final scores and winners those recorded."""
    agents = {
        p: make_agent(spec, record["game"], record["agent_seeds"][p])
        for p, spec in enumerate(record["seats"])
        if spec != "human"
    }
    state = None
    for state, action in replay_states(record):
        if action is None:
            break
        p = state.current_player
        if p in agents:
            assert int(agents[p].act(state.for_player(p))) == action
    if record["finished"]:
        assert state.is_terminal()
        assert np.asarray(state.scores()).tolist() == record["scores"]
        assert sorted(int(w) for w in state.winners()) == record["winners"]
