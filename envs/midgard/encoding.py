"""Midgard observation: one ``Layout`` of named pieces, filled from what a seat may know
(``observe``); and the view, the dict of everything a seat may know (``view``).

Every entry is in [0, 1]. Seats are relative to the observer (row 0 = the observer, then
clockwise). Counts are divided by the largest count possible (card kinds by 8, a hand by 30 and
clipped). The table is printed in docs/rules/midgard.md from ``make_layout(n).table()``.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from . import challenges as C
from .cards import BY_TRIGGER, CARDS, DATA, NUM_CLASSES, THOR, TYR, as_list
from .modes import (
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    KEEP,
    MODE_NAMES,
    NUM_MODES,
    REACT,
    RELOCATE,
    TRAVEL,
)
from .troops import EMPTY, THOR_TAIL

K = DATA.num_kinds
NCH = len(DATA.challenges)
NW = len(DATA.worlds)
NR = len(DATA.rewards)
TRIGGERS = tuple(BY_TRIGGER)
MAX_TROOPS = 5
MAX_TROOP_CARDS = 17.0  # a series: 8 naturals + 6 Tyr + 3 Thor


def make_layout(n: int) -> Layout:
    return Layout(
        [
            ("hand", K),  # own hand: copies of each card kind / 8
            ("hand_sizes", n),  # cards in hand per seat / 30 (clipped)
            (
                "known_in_hand",
                (n, K),
            ),  # cards every seat saw join each hand and not seen leave it (X7) / 8
            ("coins", n),  # coins per seat / 50
            ("skat", 1),  # coins in the Skat / 50
            ("worlds", (n, NW)),  # one-hot world of each seat
            (
                "troops",
                (n, MAX_TROOPS, 12, 3),
            ),  # slot x (natural, Tyr, Thor); a series: counts at its class slot
            (
                "troop_flags",
                (n, MAX_TROOPS, 5),
            ),  # exists, series, engaged, cards / 17, might / 40 (clipped)
            ("pending", (12, 3)),  # the troop being laid down (public), as "troops"
            ("pending_flags", 4),  # exists, series, cards / 17, might / 40 (clipped)
            ("open", NCH),  # open (unreserved) challenges
            ("reserved", (n, NCH)),  # reservation of each seat
            ("won", (n, NCH)),  # challenges won by each seat
            ("challenges_out", NCH),  # reservations discarded out of the game
            (
                "difficulty",
                NCH,
            ),  # current difficulty / 30 of every active challenge (season, lasting effects)
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
            (
                "ctx_target",
                (n, MAX_TROOPS),
            ),  # claim target troop, or the attacker and its troop when defending
            (
                "ctx_relocate",
                10,
            ),  # troop 0-5, wildcard (Tyr, Thor), options (low, high) of a relocation
            ("ctx_keep", NR),  # the rewards drawn to choose from (the chooser only)
            ("ctx_discard_left", 1),  # discards still due for a challenge / 3
            ("flags", 3),  # made a trip, won a challenge, had troops at the start of the turn
            ("turn", 1),  # turn / max_turns
            (
                "events_left",
                1,
            ),  # events the active seat may still play this Preparation / 2 (clipped)
            ("played", K),  # events/reactions played, not yet in Valhalla (window, then effects)
            ("played_cancelled", 1),  # the latest of them was cancelled
            ("loki_pool", K),  # cards discarded face up to Loki's Trick / 8
            (
                "window",
                len(TRIGGERS),
            ),  # triggers the seat asked in the open reaction window may answer
            (
                "contest",
                4,
            ),  # challenge attempt, battle, requirements ignored / 2, difficulty change (+4) / 8
            ("contest_seats", (2, n)),  # side 0 (the facing seat / the attacker), side 1 (defender)
            (
                "bonus_placed",
                2,
            ),  # a face-down bonus on side 0 (challenge / attacker) and side 1, as seen
            ("own_bonus", K),  # the observer's own face-down bonus card
        ]
    )


# Encoded troops by content: a troop's slots and flags depend only on its cards (and the might
# table), and the same few troops recur in every observation, so each is computed once.
_TROOP_CACHE: dict[tuple, tuple[tuple[int, ...], tuple[float, ...], float, float]] = {}
_TROOP_CACHE_MAX = 1 << 16
_OFFSETS: dict[int, dict[str, int]] = {}
# "+n to all other active challenges" of each challenge (M31), for the difficulty piece.
_OTHERS_BONUS = [
    sum(e.n for e in ch.lasting if e.kind == "difficulty_others") for ch in DATA.challenges
]


def _troop_code(t) -> tuple[tuple[int, ...], tuple[float, ...], float, float]:
    """(flat slot indices in a (12, 3) troop block, their values, cards / 17, might / 40) of a
    troop."""
    key = (t.cls, t.nat, t.tyr, t.thor) if t.series else tuple(t.line)
    code = _TROOP_CACHE.get(key)
    if code is not None:
        return code
    idx: list[int] = []
    val: list[float] = []
    if t.series:
        s = 3 * (t.cls + 1)
        idx += (s, s + 1, s + 2)
        val += (t.nat / 8.0, t.tyr / 6.0, t.thor / 3.0)
    else:
        for i, k in enumerate(t.line):
            if k == EMPTY:
                continue
            if k == TYR:
                idx.append(3 * i + 1)
            elif k == THOR or k == THOR_TAIL:
                idx.append(3 * i + 2)
            elif k <= NUM_CLASSES:
                idx.append(3 * i)
            else:
                continue
            val.append(1.0)
    code = (
        tuple(idx),
        tuple(val),
        t.ncards() / MAX_TROOP_CARDS,
        min(t.might(DATA.might) / 40.0, 1.0),
    )
    if len(_TROOP_CACHE) >= _TROOP_CACHE_MAX:
        _TROOP_CACHE.clear()
    _TROOP_CACHE[key] = code
    return code


def _offsets(game) -> dict[str, int]:
    n = game.num_players
    off = _OFFSETS.get(n)
    if off is None:
        off = _OFFSETS[n] = {name: a for name, _, a, _ in game.layout.pieces}
    return off


# Observation pieces by content: within a game most pieces stay the same from one decision to the
# next (the challenges for dozens of turns, coins and troops for several decisions), and the same
# (seat, content) pairs recur as a reaction window asks one seat after another. Each such piece is
# built once as (flat indices, float32 values) under a key that holds everything it reads (the
# layout's player count and the observer included), so a repeat costs a dict lookup and one
# numpy write. The keys are content, never identity, so clones and other games share them safely.
_PIECES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
_PIECES_MAX = 1 << 13  # a few MB at most; cleared when full
_EIGHTHS = (np.arange(DATA.deck_size + 1) / 8.0).astype(np.float32)  # count -> count / 8, exact


def _piece(key: tuple, build, *args) -> tuple[np.ndarray, np.ndarray]:
    """The (indices, values) of the piece ``key``, built by ``build(*args, idx, val)`` once."""
    got = _PIECES.get(key)
    if got is None:
        idx: list[int] = []
        val: list[float] = []
        build(*args, idx, val)
        got = (np.array(idx, dtype=np.intp), np.array(val, dtype=np.float32))
        if len(_PIECES) >= _PIECES_MAX:
            _PIECES.clear()
        _PIECES[key] = got
    return got


def _troop_key(t) -> tuple:
    """Everything of a troop that its encoded slots and flags read."""
    return ((t.cls, t.nat, t.tyr, t.thor) if t.series else tuple(t.line), t.engaged)


def observe(s, player: int) -> np.ndarray:
    """Fill the layout: the observer's hand and Valhalla by table lookup, the slowly changing
    pieces from the content cache (``_piece``), the rest (cards in play, the contest, the
    decision's context) collected as (flat index, value) and written with one fancy assignment
    (numpy scalar writes one by one cost more than the rest)."""
    game = s.game
    n = game.num_players
    buf = np.zeros(game.layout.size, dtype=np.float32)
    o = _offsets(game)
    order = _ORDER_LISTS[n][player]
    rel = _REL_LISTS[n][player]
    a = o["hand"]
    buf[a : a + K] = _EIGHTHS[s.hands[player]]
    a = o["valhalla"]
    buf[a : a + K] = _EIGHTHS[s.valhalla]
    troops = s.troops
    pending = s.pending
    pieces = (
        _piece((0, n, player, s.hands.sum(axis=1).tobytes()), _put_hand_sizes, s, o, order),
        # known counts fit a byte exactly (at most the deck's 122 cards): a small key
        _piece((1, n, player, s.known.astype(np.uint8).tobytes()), _put_known, s, o, order),
        _piece(
            (
                2,
                n,
                player,
                s.skat,
                s.coins.tobytes(),
                s.rewards.tobytes(),
                s.revealed.tobytes(),
                s.world.tobytes(),
            ),
            _put_seats,
            s,
            player,
            o,
            order,
        ),
        _piece(
            (
                3,
                n,
                player,
                tuple([tuple([_troop_key(t) for t in troops[q]]) for q in order]),
                None if pending is None else _troop_key(pending),
            ),
            _put_troops,
            s,
            o,
            order,
        ),
        _piece(
            (
                4,
                n,
                player,
                tuple(s.open),
                tuple(s.reserved),
                tuple([tuple(w) for w in s.won]),
                tuple(s.ch_out),
                s.calendar,
                len(s.ch_deck),
            ),
            _put_challenges,
            s,
            o,
            rel,
        ),
        _piece((5, n, tuple(s.krog)), _put_krog, s, o),
    )
    for i, v in pieces:
        buf[i] = v
    idx: list[int] = []
    val: list[float] = []
    _put_piles(s, player, o, rel, idx, val)
    _put_cardplay(s, o, idx, val)
    if s.contest is not None:
        _put_contest(s.contest, player, o, rel, n, idx, val)
    if s.stack:
        f = s.stack[-1]
        idx += (o["current_player"] + rel[f.p], o["mode"] + f.m)
        val += (1.0, 1.0)
        put = _CONTEXT.get(f.m)
        if put is not None:
            put(f, player, o, rel, idx, val)
    buf[np.array(idx, dtype=np.intp)] = (
        val  # an index array first: a list index takes a slower path
    )
    return buf


# seats in observer-relative order (row 0 = the observer) and each seat's row, by (n, observer)
_ORDER_LISTS = {n: [[(p + i) % n for i in range(n)] for p in range(n)] for n in range(1, 7)}
_REL_LISTS = {n: [[(q - p) % n for q in range(n)] for p in range(n)] for n in range(1, 7)}


def _put_hand_sizes(s, o, order, idx, val) -> None:
    """Cards in hand per seat / 30 (clipped)."""
    sizes = s.hands.sum(axis=1).tolist()
    a = o["hand_sizes"]
    for r, q in enumerate(order):
        idx.append(a + r)
        val.append(min(sizes[q] / 30.0, 1.0))


def _put_known(s, o, order, idx, val) -> None:
    """The cards every seat saw join each hand and not seen leave it / 8."""
    known = s.known.tolist()
    a = o["known_in_hand"]
    for r, q in enumerate(order):
        base = a + r * K
        for k, x in enumerate(known[q]):
            if x:
                idx.append(base + k)
                val.append(x * 0.125)


def _put_krog(s, o, idx, val) -> None:
    """The Krog's copies of each kind / 8 and its top card."""
    krog = s.krog
    if krog:
        a = o["krog"]
        for k in set(krog):
            idx.append(a + k)
            val.append(krog.count(k) / 8.0)
        idx.append(o["krog_top"] + krog[-1])
        val.append(1.0)


def _put_seats(s, player: int, o, order, idx, val) -> None:
    """The Skat, own rewards; per seat coins, rewards held and revealed, world. Per-seat numbers
    as Python lists (a few tolist() calls cost less than numpy ops per piece)."""
    rewards = s.rewards.tolist()
    revealed = s.revealed.tolist()
    coins = s.coins.tolist()
    idx.append(o["skat"])
    val.append(s.skat / 50.0)
    a = o["own_rewards"]
    for k, x in enumerate(rewards[player]):
        if x:
            idx.append(a + k)
            val.append(x / 6.0)
    a_co, a_rv, a_rc = o["coins"], o["revealed"], o["reward_counts"]
    for r, q in enumerate(order):
        idx += (a_co + r, a_rc + r)
        val += (coins[q] / 50.0, min(sum(rewards[q]) / 30.0, 1.0))
        base = a_rv + r * NR
        for k, x in enumerate(revealed[q]):
            if x:
                idx.append(base + k)
                val.append(x / 6.0)
    a = o["worlds"]
    world = s.world.tolist()
    for r, q in enumerate(order):
        idx.append(a + r * NW + world[q])
        val.append(1.0)


def _put_troops(s, o, order, idx, val) -> None:
    """Every seat's troops and the troop being laid down."""
    a_slots, a_flags = o["troops"], o["troop_flags"]
    for r, q in enumerate(order):
        for ti, t in enumerate(s.troops[q]):
            sl, sv, nc, mt = _troop_code(t)
            base = a_slots + (r * MAX_TROOPS + ti) * 36
            idx += [base + i for i in sl]
            val += sv
            base = a_flags + (r * MAX_TROOPS + ti) * 5
            idx += (base, base + 1, base + 2, base + 3, base + 4)
            val += (1.0, float(t.series), float(t.engaged), nc, mt)
    t = s.pending
    if t is not None:
        sl, sv, nc, mt = _troop_code(t)
        base = o["pending"]
        idx += [base + i for i in sl]
        val += sv
        base = o["pending_flags"]
        idx += (base, base + 1, base + 2, base + 3)
        val += (1.0, float(t.series), nc, mt)


def _put_challenges(s, o, rel, idx, val) -> None:
    """Open, reserved, won and discarded challenges, the active ones' difficulties, the deck."""
    a = o["open"]
    for c in s.open:
        idx.append(a + c)
        val.append(1.0)
    a_res, a_won = o["reserved"], o["won"]
    for q in range(len(rel)):
        c = s.reserved[q]
        if c >= 0:
            idx.append(a_res + rel[q] * NCH + c)
            val.append(1.0)
        base = a_won + rel[q] * NCH
        for c in s.won[q]:
            idx.append(base + c)
            val.append(1.0)
    a = o["challenges_out"]
    for c in s.ch_out:
        idx.append(a + c)
        val.append(1.0)
    active = s.open + [c for c in s.reserved if c >= 0]
    if active:  # the difficulty of C.difficulty with C.lasting_bonus_for, summed once for all
        a = o["difficulty"]
        chs = DATA.challenges
        season = C.season_of(s.calendar)
        ids = [chs[c].id for c in active]
        total = sum(_OTHERS_BONUS[c] for c in active)
        for cid in active:
            ch = chs[cid]
            lasting = total - _OTHERS_BONUS[cid] * ids.count(ch.id)
            d = ch.difficulty + ch.season_bonus[season] + lasting
            idx.append(a + cid)
            val.append(min(d / 30.0, 1.0))
    idx.append(o["challenge_deck"])
    val.append(len(s.ch_deck) / NCH)


def _put_piles(s, player: int, o, rel, idx, val) -> None:
    """The Thing's size, the calendar, the reward pile, the turn's flags."""
    idx += (o["thing_size"], o["calendar"] + s.calendar, o["season"] + s.season(), o["reward_deck"])
    val += (len(s.thing) / DATA.deck_size, 1.0, 1.0, len(s.reward_deck) / 30.0)
    if s.reward_top_known == player and s.reward_deck:
        idx.append(o["reward_top"] + s.reward_deck[-1])
        val.append(1.0)
    a = o["flags"]
    idx += (o["active"] + rel[s.active], a, a + 1, a + 2, o["turn"], o["events_left"])
    val += (
        1.0,
        float(s.made_trip),
        float(s.won_challenge),
        float(s.had_troops),
        min(s.turn / s.game.options["max_turns"], 1.0),
        min(s.events_left / 2.0, 1.0),
    )


def _put_cardplay(s, o, idx, val) -> None:
    """Cards in play (and whether the top one is cancelled), Loki's pool."""
    played = s.played
    if played:
        a = o["played"]
        for c in played:
            idx.append(a + c["k"])
            val.append(1.0)
        idx.append(o["played_cancelled"])
        val.append(float(played[-1]["x"]))
    pool = s.pool
    if pool:
        a = o["loki_pool"]
        for k in set(pool):
            idx.append(a + k)
            val.append(pool.count(k) * 0.125)


def _put_contest(c: dict, player: int, o, rel, n: int, idx, val) -> None:
    """A challenge attempt or battle: its kind, ignored requirements, difficulty change, seats,
    and the bonuses as ``player`` sees them (own card, or only that one was placed)."""
    a = o["contest"]
    idx += (a, a + 1, a + 2, a + 3)
    val += (
        float(c["t"] == "ch"),
        float(c["t"] == "bt"),
        min(c.get("ign", 0) / 2.0, 1.0),
        min(max((c.get("dd", 0) + 4) / 8.0, 0.0), 1.0),
    )
    a = o["contest_seats"]
    idx.append(a + rel[c["p"]])
    val.append(1.0)
    if c["t"] == "ch":
        idx.append(o["ctx_challenge"] + c["ch"])
    else:
        idx.append(a + n + rel[c["q"]])
    val.append(1.0)
    for side in (0, 1):
        k, owner = c["b"][side], c["bs"][side]
        if owner == player:
            idx += (o["own_bonus"] + k, o["bonus_placed"] + side)
            val += (1.0, 1.0)
        elif k >= 0 and c["t"] == "ch":
            idx.append(o["bonus_placed"] + side)
            val.append(1.0)


# ---- the decision's context, by mode of the top frame (_CONTEXT) -----------------------------
def _ctx_chosen(troops, o, idx, val) -> None:
    a = o["ctx_chosen"]
    idx += [a + i for i in troops]
    val += [1.0] * len(troops)


def _ctx_challenge(f, player: int, o, rel, idx, val) -> None:
    idx.append(o["ctx_challenge"] + f.ch)
    val.append(1.0)
    _ctx_chosen(f.chosen, o, idx, val)


def _ctx_discard_req(f, player: int, o, rel, idx, val) -> None:
    idx.append(o["ctx_challenge"] + f.ch)
    val.append(1.0)
    _ctx_chosen(f.troops, o, idx, val)
    idx.append(o["ctx_discard_left"])
    val.append(f.left / 3.0)


def _ctx_travel(f, player: int, o, rel, idx, val) -> None:
    idx.append(o["ctx_world"] + f.world)
    val.append(1.0)
    _ctx_chosen(f.chosen, o, idx, val)


def _ctx_claim(f, player: int, o, rel, idx, val) -> None:
    idx.append(o["ctx_target"] + rel[f.target] * MAX_TROOPS + f.troop)
    val.append(1.0)


def _ctx_defend(f, player: int, o, rel, idx, val) -> None:
    idx.append(o["ctx_target"] + rel[f.att] * MAX_TROOPS + f.troop)
    val.append(1.0)


def _ctx_relocate(f, player: int, o, rel, idx, val) -> None:
    a = o["ctx_relocate"]
    idx += (a + f.troop, a + 6 + (0 if f.wild == TYR else 1))
    idx += [a + 8 + x for x in f.options]
    val += [1.0] * (2 + len(f.options))


def _ctx_react(f, player: int, o, rel, idx, val) -> None:
    a = o["window"]
    for r in f.kinds:
        idx.append(a + TRIGGERS.index(CARDS[r].trigger))
        val.append(1.0)


def _ctx_keep(f, player: int, o, rel, idx, val) -> None:
    if f.p != player:  # only the chooser sees the rewards drawn
        return
    a = o["ctx_keep"]
    drawn = list(f.drawn)
    for k in set(drawn):
        idx.append(a + k)
        val.append(drawn.count(k) * 0.5)


_CONTEXT = {
    CHALLENGE: _ctx_challenge,
    DISCARD_REQ: _ctx_discard_req,
    TRAVEL: _ctx_travel,
    CLAIM: _ctx_claim,
    DEFEND: _ctx_defend,
    RELOCATE: _ctx_relocate,
    REACT: _ctx_react,
    KEEP: _ctx_keep,
}


# ---- the view ------------------------------------------------------------------------------
def view(s, player: int) -> dict:
    """Everything ``player`` may know, as JSON values (the hidden cards of others left out)."""
    n = s.game.num_players
    return {
        "player": player,
        "num_players": n,
        "current_player": s.current_player,
        "active": s.active,
        "turn": s.turn,
        "max_turns": s.game.options["max_turns"],
        "decisions": s.decisions,
        "start_player": s.start_player,
        "calendar": s.calendar,
        "season": ("summer", "winter")[s.season()],
        "hand": s.hands[player].tolist(),
        "hand_sizes": s.hands.sum(axis=1).tolist(),
        "known_in_hand": [as_list(k) for k in s.known],
        "coins": s.coins.tolist(),
        "skat": s.skat,
        "worlds": s.world.tolist(),
        "troops": [[t.to_json() for t in ts] for ts in s.troops],
        "pending": None if s.pending is None else s.pending.to_json(),
        "open": list(s.open),
        "reserved": list(s.reserved),
        "won": [list(w) for w in s.won],
        "challenges_out": list(s.ch_out),
        "challenge_deck_size": len(s.ch_deck),
        "valhalla": s.valhalla.tolist(),
        "krog": list(s.krog),
        "thing_size": len(s.thing),
        # the Thing's cards at the last reshuffle (public, M-E2), None before the first
        "thing_base": None if s.thing_base is None else as_list(s.thing_base),
        "rewards": s.rewards[player].tolist(),
        "revealed": s.revealed.tolist(),
        "reward_counts": s.rewards.sum(axis=1).tolist(),
        "reward_deck_size": len(s.reward_deck),
        "reward_top": s.reward_deck[-1] if s.reward_top_known == player and s.reward_deck else None,
        "made_trip": s.made_trip,
        "won_challenge": s.won_challenge,
        "had_troops": s.had_troops,
        "stack": [frame_view(f, player) for f in s.stack],
        "events_left": s.events_left,
        "played": [
            {
                "card": c["k"],
                "seat": c["s"],
                "cancelled": c["x"],
                "immune": list(c["imm"]),
                "resolving": c["r"] >= 0,
            }
            for c in s.played
        ],
        "pool": list(s.pool),
        "contest": contest_view(s, player),
        "over": s.over,
        "truncated": s.truncated,
        "end_reason": s.end_reason,
        "challenge_renown": s.challenge_renown().tolist(),
    }


def frame_view(f, player: int) -> dict:
    d = f.to_dict()
    out = {"mode": MODE_NAMES[f.m], **{k: v for k, v in d.items() if k != "m"}}
    if f.m == KEEP and player != f.p:
        out["drawn"] = len(f.drawn)  # only the chooser sees the rewards drawn
    return out


def contest_view(s, player: int):
    """A contest in progress; bonuses are face down: their owner knows the card, the others
    know that a challenge got one (M30) but not whether a battle side placed one (MD16)."""
    c = s.contest
    if c is None:
        return None
    out = {
        k: (list(v) if isinstance(v, list) else v)
        for k, v in c.items()
        if k not in ("b", "bs", "held")
    }
    bonus = []
    for side in (0, 1):
        k, owner = c["b"][side], c["bs"][side]
        if owner == player:
            bonus.append(k)
        elif k >= 0 and c["t"] == "ch":
            bonus.append("face down")
        else:
            bonus.append(None)
    out["bonus"] = bonus
    return out
