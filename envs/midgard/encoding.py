"""Midgard observation: one ``Layout`` of named pieces, filled from what a seat may know.

Every entry is in [0, 1]. Seats are relative to the observer (row 0 = the observer, then
clockwise). Counts are divided by the largest count possible (card kinds by 8, a hand by 30 and
clipped). The table is printed in docs/rules/midgard.md from ``make_layout(n).table()``.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from .cardplay import BY_TRIGGER, CARDS
from .cards import DATA, NUM_CLASSES, THOR, TYR
from .modes import CHALLENGE, CLAIM, DEFEND, DISCARD_REQ, KEEP, NUM_MODES, REACT, RELOCATE, TRAVEL
from .troops import EMPTY, THOR_TAIL

K = DATA.num_kinds
NCH = len(DATA.challenges)
NW = len(DATA.worlds)
NR = len(DATA.rewards)
TRIGGERS = tuple(BY_TRIGGER)
MAX_TROOPS = 5
MAX_TROOP_CARDS = 17.0  # a series: 8 naturals + 6 Tyr + 3 Thor


def make_layout(n: int) -> Layout:
    return Layout([
        ("hand", K),  # own hand: copies of each card kind / 8
        ("hand_sizes", n),  # cards in hand per seat / 30 (clipped)
        ("known_in_hand", (n, K)),  # cards every seat saw join each hand and not seen leave it (X7) / 8
        ("coins", n),  # coins per seat / 50
        ("skat", 1),  # coins in the Skat / 50
        ("worlds", (n, NW)),  # one-hot world of each seat
        ("troops", (n, MAX_TROOPS, 12, 3)),  # slot x (natural, Tyr, Thor); a series: counts at its class slot
        ("troop_flags", (n, MAX_TROOPS, 5)),  # exists, series, engaged, cards / 17, might / 40 (clipped)
        ("pending", (12, 3)),  # the troop being laid down (public), as "troops"
        ("pending_flags", 4),  # exists, series, cards / 17, might / 40 (clipped)
        ("open", NCH),  # open (unreserved) challenges
        ("reserved", (n, NCH)),  # reservation of each seat
        ("won", (n, NCH)),  # challenges won by each seat
        ("challenges_out", NCH),  # reservations discarded out of the game
        ("difficulty", NCH),  # current difficulty / 30 of every active challenge (season, lasting effects)
        ("challenge_deck", 1),  # challenges left in the deck / 40
        ("valhalla", K),  # Valhalla copies of each kind / 8
        ("krog", K),  # Krog copies of each kind / 8
        ("krog_top", K),  # one-hot top of the Krog
        ("thing_size", 1),  # cards in the Thing / 122
        ("calendar", 8),  # one-hot calendar position (0 = the sword)
        ("season", 2),  # summer, winter
        ("own_rewards", NR),  # own unrevealed rewards of each kind / 6
        ("revealed", (n, NR)),  # revealed coin rewards per seat / 6
        ("reward_counts", n),  # unrevealed rewards held per seat / 30
        ("reward_deck", 1),  # rewards left / 30
        ("reward_top", NR),  # the reward on top of the pile, if the observer put it back
        ("current_player", n),  # one-hot seat to decide now
        ("active", n),  # one-hot seat whose turn it is
        ("mode", NUM_MODES),  # one-hot decision mode (rules.MODE_NAMES)
        ("ctx_challenge", NCH),  # challenge being faced
        ("ctx_chosen", MAX_TROOPS),  # own troops chosen so far (travel / challenge)
        ("ctx_world", NW),  # travel destination being chosen
        ("ctx_target", (n, MAX_TROOPS)),  # claim target troop, or the attacker and its troop when defending
        ("ctx_relocate", 10),  # troop 0-5, wildcard (Tyr, Thor), options (low, high) of a relocation
        ("ctx_keep", NR),  # the rewards drawn to choose from (the chooser only)
        ("ctx_discard_left", 1),  # discards still due for a challenge / 3
        ("flags", 3),  # made a trip, won a challenge, had troops at the start of the turn
        ("turn", 1),  # turn / max_turns
        ("events_left", 1),  # events the active seat may still play this Preparation / 2 (clipped)
        ("played", K),  # events/reactions played and waiting for their reaction window (LIFO)
        ("played_cancelled", 1),  # the latest of them was cancelled
        ("loki_pool", K),  # cards discarded face up to Loki's Trick / 8
        ("window", len(TRIGGERS)),  # triggers the seat asked in the open reaction window may answer
        ("contest", 4),  # challenge attempt, battle, requirements ignored / 2, difficulty change (+4) / 8
        ("contest_seats", (2, n)),  # side 0 (the facing seat / the attacker), side 1 (defender)
        ("bonus_placed", 2),  # a face-down bonus on side 0 (challenge / attacker) and side 1, as seen
        ("own_bonus", K),  # the observer's own face-down bonus card
    ])


def _troop_into(slots: np.ndarray, flags: np.ndarray, t, flag_offset: int) -> None:
    """Fill a (12, 3) slot view and the flags of one troop; flags: exists, series, [engaged], size, might."""
    if t.series:
        s = t.cls + 1
        slots[s, 0] = t.nat / 8.0
        slots[s, 1] = t.tyr / 6.0
        slots[s, 2] = t.thor / 3.0
    else:
        line = t.line
        for i in range(12):
            k = line[i]
            if k == EMPTY:
                continue
            if k == TYR:
                slots[i, 1] = 1.0
            elif k == THOR or k == THOR_TAIL:
                slots[i, 2] = 1.0
            elif k <= NUM_CLASSES:
                slots[i, 0] = 1.0
    flags[0] = 1.0
    flags[1] = float(t.series)
    if flag_offset:
        flags[2] = float(t.engaged)
    flags[2 + flag_offset] = t.ncards() / MAX_TROOP_CARDS
    flags[3 + flag_offset] = min(t.might(DATA.might) / 40.0, 1.0)


def encode_observation(s, player: int) -> np.ndarray:
    game = s.game
    n = game.num_players
    buf, v = game.layout.new()
    order = [(player + i) % n for i in range(n)]
    rel = {q: i for i, q in enumerate(order)}
    v["hand"][:] = s.hands[player] / 8.0
    v["hand_sizes"][:] = np.minimum(s.hands[order].sum(axis=1) / 30.0, 1.0)
    v["known_in_hand"][:] = s.known[order] / 8.0
    v["coins"][:] = s.coins[order] / 50.0
    v["skat"][0] = s.skat / 50.0
    v["worlds"][np.arange(n), s.world[order]] = 1.0
    troops, flags = v["troops"], v["troop_flags"]
    for r, q in enumerate(order):
        for ti, t in enumerate(s.troops[q]):
            _troop_into(troops[r, ti], flags[r, ti], t, 1)
    if s.pending is not None:
        _troop_into(v["pending"], v["pending_flags"], s.pending, 0)
    v["open"][s.open] = 1.0
    reserved, won = v["reserved"], v["won"]
    for q in range(n):
        if s.reserved[q] >= 0:
            reserved[rel[q], s.reserved[q]] = 1.0
        won[rel[q], s.won[q]] = 1.0
    v["challenges_out"][s.ch_out] = 1.0
    active = s.open + [c for c in s.reserved if c >= 0]
    if active:
        diff = v["difficulty"]
        for cid, d in zip(active, s.difficulties(active)):
            diff[cid] = min(d / 30.0, 1.0)
    v["challenge_deck"][0] = len(s.ch_deck) / NCH
    v["valhalla"][:] = s.valhalla / 8.0
    if s.krog:
        v["krog"][:] = np.bincount(np.asarray(s.krog), minlength=K) / 8.0
        v["krog_top"][s.krog[-1]] = 1.0
    v["thing_size"][0] = len(s.thing) / DATA.deck_size
    v["calendar"][s.calendar] = 1.0
    v["season"][s.season()] = 1.0
    v["own_rewards"][:] = s.rewards[player] / 6.0
    v["revealed"][:] = s.revealed[order] / 6.0
    v["reward_counts"][:] = np.minimum(s.rewards[order].sum(axis=1) / 30.0, 1.0)
    v["reward_deck"][0] = len(s.reward_deck) / 30.0
    if s.reward_top_known == player and s.reward_deck:
        v["reward_top"][s.reward_deck[-1]] = 1.0
    v["active"][rel[s.active]] = 1.0
    v["flags"][:] = (s.made_trip, s.won_challenge, s.had_troops)
    v["turn"][0] = min(s.turn / game.options["max_turns"], 1.0)
    v["events_left"][0] = min(s.events_left / 2.0, 1.0)
    for c in s.played:
        v["played"][c["k"]] = 1.0
    if s.played:
        v["played_cancelled"][0] = float(s.played[-1]["x"])
    for k in s.pool:
        v["loki_pool"][k] += 0.125
    c = s.contest
    if c is not None:
        v["contest"][:] = (c["t"] == "ch", c["t"] == "bt", min(c.get("ign", 0) / 2.0, 1.0),
                           min(max((c.get("dd", 0) + 4) / 8.0, 0.0), 1.0))
        v["contest_seats"][0, rel[c["p"]]] = 1.0
        if c["t"] == "ch":
            v["ctx_challenge"][c["ch"]] = 1.0
        else:
            v["contest_seats"][1, rel[c["q"]]] = 1.0
        for side in (0, 1):
            k, owner = c["b"][side], c["bs"][side]
            if owner == player:
                v["own_bonus"][k] = 1.0
                v["bonus_placed"][side] = 1.0
            elif k >= 0 and c["t"] == "ch":
                v["bonus_placed"][side] = 1.0
    if not s.stack:
        return buf
    f = s.stack[-1]
    m = f["m"]
    v["current_player"][rel[f["p"]]] = 1.0
    v["mode"][m] = 1.0
    if m in (CHALLENGE, DISCARD_REQ):
        v["ctx_challenge"][f["ch"]] = 1.0
        v["ctx_chosen"][f["chosen"] if m == CHALLENGE else f["troops"]] = 1.0
        if m == DISCARD_REQ:
            v["ctx_discard_left"][0] = f["left"] / 3.0
    elif m == TRAVEL:
        v["ctx_world"][f["world"]] = 1.0
        v["ctx_chosen"][f["chosen"]] = 1.0
    elif m == CLAIM:
        v["ctx_target"][rel[f["target"]], f["troop"]] = 1.0
    elif m == DEFEND:
        v["ctx_target"][rel[f["att"]], f["troop"]] = 1.0
    elif m == RELOCATE:
        v["ctx_relocate"][f["troop"]] = 1.0
        v["ctx_relocate"][6 + (0 if f["wild"] == TYR else 1)] = 1.0
        v["ctx_relocate"][[8 + o for o in f["options"]]] = 1.0
    elif m == REACT:
        for r in f["kinds"]:
            v["window"][TRIGGERS.index(CARDS[r].trigger)] = 1.0
    elif m == KEEP and f["p"] == player:
        for k in f["drawn"]:
            v["ctx_keep"][k] += 0.5
    return buf
