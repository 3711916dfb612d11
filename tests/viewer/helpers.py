"""Helpers for the viewer tests: recorded games, hands read from the engine, replays checked."""

from __future__ import annotations

from collections import Counter

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.match import play_match
from deckzoo.agents.registry import make_agent
from deckzoo.agents.replay import finish_record, replay_states
from deckzoo.envs.bignumber.cards import card_name as bignumber_name
from deckzoo.envs.bigwig.cards import WELL
from deckzoo.envs.bigwig.cards import card_name as bigwig_name
from deckzoo.envs.midgard.cards import DATA as MIDGARD
from deckzoo.envs.wizard.cards import card_name as wizard_name

GAME_NAMES = list(E.registry.games())


def short_options(game_name: str) -> dict:
    return E.registry.short_options(game_name)


def recorded_game(
    game_name: str,
    seed: int = 5,
    players: int | None = None,
    spec: str = "heuristic",
    options: dict | None = None,
) -> dict:
    """A replay record of one game between ``spec`` agents (short options unless given)."""
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


def _names(counts, name_of) -> Counter:
    return Counter({name_of(k): int(c) for k, c in enumerate(np.asarray(counts).tolist()) if c})


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies, read from the engine's own state (not a view)."""
    game = state.game.name
    if game == "gobig":
        return _names(state.hands[p], lambda k: str(k + 1))
    if game == "bignumber":
        return _names(state.hands[p], bignumber_name)
    if game == "wizard":
        return _names(state.hands[p], wizard_name)
    if game == "bigwig":
        out = _names(state.hands[p], bigwig_name)
        if state.well[p]:
            out[bigwig_name(WELL)] += 1
        return out
    if game == "midgard":
        return _names(state.hands[p], lambda k: MIDGARD.kind_names[k])
    raise AssertionError(f"no hand reader for {game}")


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
