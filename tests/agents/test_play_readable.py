"""``deckzoo play`` is readable: every game's player view names cards as its action list does,
``render()`` shows a spectator every hand while ``render(observer)`` shows one seat's view, suit
symbols can be typed as letters, and the screen is redrawn once per decision of the person."""

from __future__ import annotations

import re

import numpy as np
import pytest

from deckzoo.agents.tools.play import CLEAR, RULE, parse_choice, play_game, render_for
from deckzoo.envs.bignumber.rules import BigNumberGame

from .helpers import ENV_NAMES, make_game, positions

RAW_VECTOR = re.compile(r"\[\d+(, \d+){4,}\]")  # a count vector such as [1, 1, 0, 2, 1, 1, 0]


def _card_of(action_name: str) -> str | None:
    """The card named in a single-card play's action name (``play red 7`` -> ``red 7``)."""
    m = re.fullmatch(r"play (.+?)( \(\d+\))?", action_name)
    if m is None or m.group(1) == "well":
        return None
    card = m.group(1)
    if re.fullmatch(r"\dx\d", card):  # Go Big: "play 2x5" plays two 5s
        return card[-1]
    return (
        card
        if " " not in card or not re.search(r"\S+ \S+[\u2663\u2666\u2665\u2660]", card)
        else None
    )


@pytest.mark.parametrize("env", ENV_NAMES)
def test_player_view_names_the_cards_of_the_action_list(env):
    game = make_game(env)
    checked = 0
    for state in positions(game, seed=5, count=12):
        seat = state.current_player
        text = render_for(state, seat)
        assert text == state.render(seat) == state.render_view(seat)
        assert not RAW_VECTOR.search(text), text
        assert "(you)" in text or "your hand" in text
        own_line = next(
            ln for ln in text.splitlines() if "(you)" in ln or ln.startswith("your hand")
        )
        hand_text = text if "your hand" in text else own_line.rpartition("hand ")[2]
        for a in state.legal_actions():
            card = _card_of(state.action_name(int(a)))
            if card is not None:
                assert card in hand_text, (env, state.action_name(int(a)), text)
                checked += 1
    if env != "midgard_v1":  # Midgard's actions name decisions, not single cards
        assert checked > 0


@pytest.mark.parametrize("env", ENV_NAMES)
def test_render_is_a_spectator_view_and_render_observer_a_players(env):
    game = make_game(env)
    rng = np.random.default_rng(1)
    hidden_shown = 0
    for state in positions(game, seed=2, count=6):
        seat = state.current_player
        other = state.determinize(seat, rng)
        assert state.render(observer=seat) == other.render(observer=seat)  # the view only
        hidden_shown += state.render() != other.render()  # the spectator sees the hidden cards
    assert hidden_shown > 0


def test_suit_letters_stand_for_suit_symbols():
    state = BigNumberGame(3).new_state(3)
    legal = [int(a) for a in state.legal_actions()]
    names = {state.action_name(a): a for a in legal}
    target = next(
        n for n in names if re.fullmatch(r"play \S+ \(\d\)", n)
    )  # a single card, e.g. "play 7♥ (7)"
    card = target.split()[1]
    ascii_card = card[0] + {"\u2663": "c", "\u2666": "d", "\u2665": "h", "\u2660": "s"}[card[1]]
    for text in (f"play {ascii_card}", f"PLAY {ascii_card.upper()}", ascii_card, target):
        assert parse_choice(text, legal, state.action_name) == (names[target], ""), text


def test_the_screen_is_redrawn_once_per_decision():
    lines: list[str] = []

    def person(prompt):  # the first listed action
        block = "\n".join(lines).rsplit("your move", 1)[1]
        return re.search(r"^\s+(\d+): ", block, re.MULTILINE).group(1)

    record = play_game(
        "gobig",
        players=3,
        seed=7,
        opponents="random",
        input_fn=person,
        out=lambda s: lines.extend(str(s).split("\n")),
    )
    human = sum(1 for p in _players(record) if p == 0)
    text = "\n".join(lines)
    assert record["finished"]
    assert text.count(RULE) == human + 1  # one screen per decision, one at the end
    assert (
        text.count("Go Big - turn") == human + 1
    )  # the table is not reprinted after every opponent move
    assert "moves since your last decision:" in text and "player_1 (random): " in text
    lines.clear()
    play_game(
        "gobig",
        players=2,
        seed=7,
        opponents="random",
        input_fn=lambda p: "quit",
        out=lambda s: lines.extend(str(s).split("\n")),
        clear=True,
    )
    assert CLEAR in "\n".join(lines)


def _players(record):
    """The seat that made each move of a saved game."""
    from deckzoo.envs.gobig.rules import GoBigGame

    state = GoBigGame(**record["config"]).new_state(record["seed"])
    out = []
    for a in record["actions"]:
        out.append(state.current_player)
        state.apply(a)
    return out
