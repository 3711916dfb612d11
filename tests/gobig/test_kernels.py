"""Go Big's array kernels (envs/gobig/kernels.py) against the scalar rules, on many positions: the
states of random games (2-6 players, both end rules, a variant) and random displays."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs.gobig import kernels as K
from deckzoo.envs.gobig.rules import (
    NUM_PLAYS,
    PHASE_PLAY,
    VALUES,
    GoBigGame,
    GoBigState,
    beaten_seats,
    decode_play,
    winners_of,
)

CONFIGS = [
    (2, {}),
    (3, {"end_rule": "literal"}),
    (4, {}),
    (5, {"end_rule": "literal"}),
    (6, {}),
    (3, {"values": 4, "copies": 5, "hand_size": 3}),
]


def random_states(game: GoBigGame, games: int, seed: int) -> list[GoBigState]:
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        s = game.new_state(seed * 1000 + g)
        while not s.is_terminal():
            out.append(s.clone())
            s.apply(int(rng.choice(s.legal_actions())))
        out.append(s)
    return out


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: f"{c[0]}p{c[1] or ''}")
def played(request):
    n, options = request.param
    game = GoBigGame(num_players=n, **options)
    return game, random_states(game, 12, n)


def test_play_mask_is_the_scalar_masks_play_block(played):
    _, states = played
    states = [s for s in states if s.phase == PHASE_PLAY]
    hands = np.array([s.hands[s.current_player] for s in states], dtype=np.int8)
    got = K.play_mask(hands).reshape(len(states), NUM_PLAYS)
    assert (got == np.array([s.legal_mask()[:NUM_PLAYS] for s in states])).all()


def test_a_play_ends_the_game_as_the_scalar_rules_say(played):
    game, states = played
    literal = game.options["end_rule"] == "literal"
    checked = ended = 0
    for s in states:
        if s.phase != PHASE_PLAY:
            continue
        for a in s.legal_actions():
            after = s.clone()
            after.apply(a)
            left = s.hands[s.current_player].sum() - decode_play(a)[1]
            market = s.market[0] if s.market else 0
            assert K.play_ends(left, len(s.deck), market, literal) == after.is_terminal()
            checked, ended = checked + 1, ended + after.is_terminal()
    assert ended and checked > 10 * ended


def test_scores_and_winners_are_the_scalar_ones(played):
    _, states = played
    banks = np.array([s.banks for s in states], dtype=np.int8)
    assert (K.scores(banks) == np.array([s.scores() for s in states])).all()
    win = K.winners(banks)
    for s, row in zip(states, win):
        assert np.flatnonzero(row).tolist() == winners_of(s.scores().tolist(), s.banks.sum(1))


@pytest.mark.parametrize("n", range(2, 7))
def test_beaten_is_beaten_seats_on_random_displays(n):
    rng = np.random.default_rng(n)
    k = 4000
    dsize = rng.integers(0, 4, (k, n))
    dval = np.where(dsize > 0, rng.integers(1, VALUES + 1, (k, n)), 0)
    player = rng.integers(n, size=k)
    value, size = rng.integers(1, VALUES + 1, k), rng.integers(1, 4, k)
    for dtype in (np.int64, np.int8):  # the engine's dtype and the twin's
        got, nearest = K.beaten(dval.astype(dtype), dsize.astype(dtype), player, value, size)
        for i in range(k):
            displays = [(int(v), int(z)) if v else None for v, z in zip(dval[i], dsize[i])]
            want = beaten_seats(displays, int(player[i]), int(value[i]), int(size[i]))
            assert np.flatnonzero(got[i]).tolist() == want
            if want:
                assert nearest[i] == dval[i, want[0]]
    # broadcast over candidate plays, as the twin calls it: (k, 3, 7, n)
    plays = K.beaten(
        dval[:, None, None],
        dsize[:, None, None],
        player[:, None, None],
        K.PLAYS_VALUE,
        K.PLAYS_SIZE,
    )[0]
    i, a = 7, 12
    v, z = decode_play(a)
    displays = [(int(x), int(y)) if x else None for x, y in zip(dval[i], dsize[i])]
    want = beaten_seats(displays, int(player[i]), v, z)
    assert np.flatnonzero(plays[i].reshape(NUM_PLAYS, n)[a]).tolist() == want


@pytest.mark.parametrize("n, options", CONFIGS)
def test_deal_is_the_scalar_deal(n, options):
    game = GoBigGame(num_players=n, **options)
    decks, states = [], []
    for seed in range(40):
        deck = np.repeat(np.arange(1, game.values + 1), game.copies)
        np.random.default_rng(seed).shuffle(deck)  # the scalar deal's first draw
        decks.append(deck)
        states.append(GoBigState.new(game, np.random.default_rng(seed)))
    hands, market, top = K.deal(np.array(decks, dtype=np.int8), n, game.hand_size)
    for s, d, h, m, t in zip(states, decks, hands, market, top):
        assert (h == s.hands).all() and m.tolist() == s.market and d[:t].tolist() == s.deck


def test_value_cells_address_lane_seat_cells():
    rng = np.random.default_rng(0)
    arr = rng.integers(0, 9, (50, 4, VALUES))
    lanes, seats, values = (
        rng.integers(50, size=30),
        rng.integers(4, size=30),
        rng.integers(1, 8, 30),
    )
    rows = lanes * 4 + seats
    assert (arr.reshape(-1)[K.value_cells(rows, values)] == arr[lanes, seats, values - 1]).all()
