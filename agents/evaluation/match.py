"""Playing one game between agents on the engine directly (no adapter overhead)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from deckzoo.envs.core.game import Game

from ..base import Agent


@dataclass
class MatchResult:
    seed: int
    seats: list[str]  # agent label per seat
    scores: list[float]
    winners: list[int]
    returns: list[float]
    steps: int
    # Per seat: decisions taken and seconds spent inside ``act`` (for search budgets).
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    max_think_seconds: list[float] = field(default_factory=list)  # the slowest single decision
    # CPU seconds of this process inside ``act`` (what a quiet machine's wall clock would show)
    think_cpu_seconds: list[float] = field(default_factory=list)
    max_think_cpu_seconds: list[float] = field(default_factory=list)
    # Cut off by the engine's own cap (e.g. Midgard's max_decisions) rather than finished.
    truncated: bool = False


def play_match(
    game: Game,
    agents: list[Agent],
    labels: list[str],
    seed: int,
    actions: list[int] | None = None,
    keyed_chance: bool = False,
) -> MatchResult:
    """One game; agent i sits in seat i. Agents only ever see ``state.for_player(seat)``.

    Every action taken is appended to ``actions`` if given (what a replay file keeps). A game
    longer than the game's declared ``max_game_length`` is an engine bug, so it raises.
    ``keyed_chance``: a duplicate board's game (``Game.new_state``).
    """
    state = game.new_state(seed, keyed_chance=keyed_chance)
    steps = 0
    n = game.num_players
    decisions, think, longest = [0] * n, [0.0] * n, [0.0] * n
    cpu, cpu_longest = [0.0] * n, [0.0] * n
    clock, cpu_clock = time.perf_counter, time.process_time
    while not state.is_terminal():
        p = state.current_player
        t0, c0 = clock(), cpu_clock()
        action = agents[p].act(state.for_player(p))
        dt, dc = clock() - t0, cpu_clock() - c0
        think[p] += dt
        longest[p] = max(longest[p], dt)
        cpu[p] += dc
        cpu_longest[p] = max(cpu_longest[p], dc)
        decisions[p] += 1
        state.apply(action)
        if actions is not None:
            actions.append(int(action))
        steps += 1
        if steps > game.max_game_length:
            raise RuntimeError(
                f"game with seed {seed} exceeded max_game_length {game.max_game_length}"
            )
    return MatchResult(
        seed=seed,
        seats=list(labels),
        scores=np.asarray(state.scores()).tolist(),
        winners=sorted(int(w) for w in state.winners()),
        returns=state.returns().tolist(),
        steps=steps,
        decisions=decisions,
        think_seconds=think,
        max_think_seconds=longest,
        think_cpu_seconds=cpu,
        max_think_cpu_seconds=cpu_longest,
        truncated=bool(getattr(state, "truncated", False)),
    )
