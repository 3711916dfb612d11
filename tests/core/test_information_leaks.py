"""One leak test for every registered env: in random positions of every phase of every game (bonus
rounds and reaction windows included), redealing what a seat cannot see (``determinize``) changes
neither that seat's ``view`` nor its ``observe``. A view that showed a hidden card would change.

The positions come from seeded random games at every supported player count; the test asserts that
they reached every decision phase of the game, so a rare phase is never silently left unchecked.
(A public field computed from hidden cards that ``determinize`` itself keeps slips past this test;
each game's two-worlds tests cover those fields.)
"""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.envs.core.conformance import check_determinize_keeps_view

MIN_GAMES_PER_COUNT = 2  # seeded random games at each supported player count, at least...
MAX_GAMES_PER_COUNT = 30  # ...and more until every phase was reached, up to this many
CHECKS_PER_PHASE = 12  # positions checked in each phase of each game (all seats each time)


def phase_of(view: dict) -> str:
    if "phase" in view:
        return view["phase"]
    return view["stack"][-1]["mode"] if view["stack"] else "over"


def phases(name: str) -> set[str]:
    """Every decision phase the game declares (Midgard: the decision modes, which include the
    bonus rounds and the reaction windows)."""
    return set(E.ENVS[name].Game.decision_phases)


@pytest.mark.parametrize("name", list(E.ENVS))
def test_every_game_declares_its_decision_phases(name):
    assert phases(name), f"{name}: Game.decision_phases is empty"


@pytest.mark.parametrize("name", list(E.ENVS))
def test_determinize_keeps_every_view_in_every_phase(name):
    mod = E.ENVS[name]
    options = dict(getattr(mod, "SHORT_OPTIONS", {}))
    games = [mod.Game(num_players=n, **options) for n in mod.Game.supported_players()]
    rng = np.random.default_rng(2024)
    checked: dict[str, int] = {}
    for round_ in range(MAX_GAMES_PER_COUNT):
        if round_ >= MIN_GAMES_PER_COUNT and phases(name) <= set(checked):
            break
        for game in games:
            state = game.new_state(int(rng.integers(2**63)))
            while not state.is_terminal():
                phase = phase_of(state.view(state.current_player))
                # every position of a phase not checked enough yet, then one in ten
                if checked.get(phase, 0) < CHECKS_PER_PHASE or rng.random() < 0.1:
                    checked[phase] = checked.get(phase, 0) + 1
                    for p in range(game.num_players):
                        check_determinize_keeps_view(state, p, rng)
                state.apply(int(rng.choice(state.legal_actions())))
            for p in range(game.num_players):
                check_determinize_keeps_view(state, p, rng)
    missing = phases(name) - set(checked)
    assert not missing, f"{name}: random play never reached {sorted(missing)}"
