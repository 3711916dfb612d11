"""Shared helpers for the agent tests: envs, positions from random play, agents by spec, and
driving the ``deckzoo`` command in-process."""

from __future__ import annotations

import io

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.registry import has_heuristic

ENV_NAMES = E.registry.env_names()


def short_options(env_name: str) -> dict:
    return E.registry.short_options(env_name)


def make_game(env_name: str, num_players: int | None = None):
    return E.game_class(env_name)(num_players, **short_options(env_name))


def agent_specs(game_name: str, iterations: int = 8) -> list[str]:
    """Every kind of agent worth checking in ``game_name``: cheap settings for tests."""
    specs = ["random"]
    if has_heuristic(game_name):
        specs.append("heuristic")
    specs.append(f"ismcts:{iterations}:max_rollout_steps=40")
    specs.append(
        f"ismcts:{iterations}:horizon=1:max_rollout_steps=40"
    )  # round-end values (games with rounds)
    return specs


def positions(game, seed: int, count: int, skip: int = 3) -> list:
    """``count`` non-terminal states from seeded random play, every ``skip``-th decision (those
    with a choice); a game too short to have them fails, naming it, rather than loop forever."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(100 * count):
        state = game.new_state(int(rng.integers(2**63)))
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step % skip == skip - 1 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        if len(found) == count:
            return found
    raise AssertionError(
        f"{game!r}: {len(found)} of {count} positions with a choice at every "
        f"{skip}-th decision in {100 * count} random games"
    )


def run_cli(argv, capsys, stdin=None, monkeypatch=None):
    """``deckzoo ARGV`` in-process (``main(argv)``): ``(exit status, stdout, stderr)``."""
    from deckzoo.agents.cli import main

    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def one_line(rc, err, *needles):
    """A user error: exit status 2 and one line on stderr, holding every one of ``needles``."""
    assert rc == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]
