"""Midgard information and serialisation: views, observations, determinization, clones,
invariants, text, JSON. ``InfoMixin`` is part of ``MidgardState``.
"""

from __future__ import annotations

import numpy as np

from . import actions as A
from .cards import DATA, WORLD_NAMES
from .encoding import encode_observation
from .frames import frame_from_dict
from .global_state import encode_state
from .modes import BONUS, KEEP, MODE_NAMES, RELOCATE, TOTAL_COINS
from .troops import Troop

MIGHT = DATA.might
# card kinds and reward kinds, made once: ``determinize`` and ``view`` expand counts with them
_KINDS = np.arange(DATA.num_kinds)
_REWARD_KINDS = np.arange(len(DATA.rewards))


class InfoMixin:
    def _frame_view(self, f, player: int) -> dict:
        d = f.to_dict()
        out = {"mode": MODE_NAMES[f.m], **{k: v for k, v in d.items() if k != "m"}}
        if f.m == KEEP and player != f.p:
            out["drawn"] = len(f.drawn)  # only the chooser sees the rewards drawn
        return out

    def _contest_view(self, player: int):
        """A contest in progress; bonuses are face down: their owner knows the card, the others
        know that a challenge got one (M30) but not whether a battle side placed one (MD16)."""
        c = self.contest
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

    def face_down(self) -> np.ndarray:
        """Per seat and kind, the challenge bonus it placed face down and nobody else has seen yet:
        off its hand but still counted in its known cards until the reveal (MD22)."""
        return face_down_counts(self.contest, self.hands.shape)

    def hidden_bonus(self, player: int) -> list:
        """(side, owner) of face-down bonuses ``player`` cannot see."""
        c = self.contest
        if c is None:
            return []
        return [
            (side, c["bs"][side])
            for side in (0, 1)
            if c["b"][side] >= 0 and c["bs"][side] != player
        ]

    def view(self, player: int) -> dict:
        n = self.game.num_players
        return {
            "player": player,
            "num_players": n,
            "current_player": self.current_player,
            "active": self.active,
            "turn": self.turn,
            "max_turns": self.game.options["max_turns"],
            "decisions": self.decisions,
            "start_player": self.start_player,
            "calendar": self.calendar,
            "season": ("summer", "winter")[self.season()],
            "hand": self.hands[player].tolist(),
            "hand_sizes": self.hands.sum(axis=1).tolist(),
            "known_in_hand": [_as_list(k) for k in self.known],
            "coins": self.coins.tolist(),
            "skat": self.skat,
            "worlds": self.world.tolist(),
            "troops": [[t.to_json() for t in ts] for ts in self.troops],
            "pending": None if self.pending is None else self.pending.to_json(),
            "open": list(self.open),
            "reserved": list(self.reserved),
            "won": [list(w) for w in self.won],
            "challenges_out": list(self.ch_out),
            "challenge_deck_size": len(self.ch_deck),
            "valhalla": self.valhalla.tolist(),
            "krog": list(self.krog),
            "thing_size": len(self.thing),
            # the Thing's cards at the last reshuffle (public, M-E2), None before the first
            "thing_base": None if self.thing_base is None else _as_list(self.thing_base),
            "rewards": self.rewards[player].tolist(),
            "revealed": self.revealed.tolist(),
            "reward_counts": self.rewards.sum(axis=1).tolist(),
            "reward_deck_size": len(self.reward_deck),
            "reward_top": self.reward_deck[-1]
            if self.reward_top_known == player and self.reward_deck
            else None,
            "made_trip": self.made_trip,
            "won_challenge": self.won_challenge,
            "had_troops": self.had_troops,
            "stack": [self._frame_view(f, player) for f in self.stack],
            "events_left": self.events_left,
            "played": [
                {
                    "card": c["k"],
                    "seat": c["s"],
                    "cancelled": c["x"],
                    "immune": list(c["imm"]),
                    "resolving": c["r"] >= 0,
                }
                for c in self.played
            ],
            "pool": list(self.pool),
            "contest": self._contest_view(player),
            "over": self.over,
            "truncated": self.truncated,
            "end_reason": self.end_reason,
            "challenge_renown": self.challenge_renown().tolist(),
        }

    def observe(self, player: int) -> np.ndarray:
        return encode_observation(self, player)

    def global_state(self) -> np.ndarray:
        return encode_state(self)

    def _determinize(self, player: int, rng: np.random.Generator) -> InfoMixin:
        """Resample what ``player`` cannot see: other hands with the Thing, others' hidden rewards
        with the reward pile (a top card the player put back stays), the challenge deck order."""
        s = self.clone()
        n = self.game.num_players
        others = [q for q in range(n) if q != player]
        # A seat's cards are its hand plus a face-down challenge bonus of its (MD22); those that
        # everyone saw join it stay (X7), the rest is resampled with the Thing.
        held = self.hands + self.face_down()
        pool = list(self.thing)
        for q in others:
            pool.extend(_KINDS.repeat(held[q] - self.known[q]).tolist())
        rng.shuffle(pool)
        bonus_side = {q: side for side, q in self.hidden_bonus(player) if self.contest["t"] == "ch"}
        if bonus_side:
            s.contest["b"], s.contest["held"] = list(s.contest["b"]), list(s.contest["held"])
        thing = None
        if self.thing_base is not None:  # after a reshuffle the Thing is known to all (M-E2)
            need = sum(
                1 for q in bonus_side if not (self.known[q, A.FIRST_ACTION_CARD :] > 0).any()
            )
            thing, pool = self._thing_after_reshuffle(player, pool, need)
            s.thing_drawn = self._draws_after_reshuffle(player, thing, rng)
        cards_of = {q: _KINDS.repeat(self.known[q]).tolist() for q in others}
        # a face-down bonus is an event or reaction: a seat that has none among its known cards
        # gets one from the pool before any hand is dealt (a deal could take the last one)
        for q in bonus_side:
            if not (self.known[q, A.FIRST_ACTION_CARD :] > 0).any():
                first = next(j for j, x in enumerate(pool) if x >= A.FIRST_ACTION_CARD)
                cards_of[q].append(pool.pop(first))
        for q in others:
            cards = cards_of[q]
            k = int(held[q].sum()) - len(cards)
            cards, pool = cards + pool[:k], pool[k:]
            if q in bonus_side:  # the face-down bonus: any event or reaction among them
                side = bonus_side[q]
                actions = [x for x in cards if x >= A.FIRST_ACTION_CARD]
                new = int(actions[rng.integers(len(actions))])
                cards.remove(new)
                s.contest["held"].remove(s.contest["b"][side])
                s.contest["held"].append(new)
                s.contest["b"][side] = new
            s.hands[q] = np.bincount(np.asarray(cards, dtype=np.int64), minlength=DATA.num_kinds)
        s.thing = pool if thing is None else thing
        c = self.contest
        if (
            c is not None
            and c["t"] == "bt"
            and player != c["p"]
            and self.stack
            and self.stack[-1].m == BONUS
            and self.stack[-1].side == 1
        ):
            # the attacker's secret choice (placed or not, and which; MD16) is resampled from its
            # resampled hand: no bonus or any event/reaction in it
            q = c["p"]
            choices = [-1] + [
                k for k in range(A.FIRST_ACTION_CARD, DATA.num_kinds) if s.hands[q, k] > 0
            ]
            k = int(choices[rng.integers(len(choices))])
            s.contest["b"], s.contest["bs"] = [k, c["b"][1]], [q if k >= 0 else -1, c["bs"][1]]
        keep_top = self.reward_top_known == player and self.reward_deck
        rpool = list(self.reward_deck[:-1] if keep_top else self.reward_deck)
        hidden_keep = [f for f in s.stack if f.m == KEEP and f.p != player]
        for q in others:
            rpool.extend(_REWARD_KINDS.repeat(self.rewards[q]).tolist())
        for f in hidden_keep:
            rpool.extend(f.drawn)
        rng.shuffle(rpool)
        for q in others:
            k = int(self.rewards[q].sum())
            s.rewards[q] = np.bincount(
                np.asarray(rpool[:k], dtype=np.int64), minlength=len(DATA.rewards)
            )
            rpool = rpool[k:]
        for f in hidden_keep:  # the clone's own copies (KeepFrame.copy)
            k = len(f.drawn)
            f.drawn, rpool = rpool[:k], rpool[k:]
        s.reward_deck = rpool + ([self.reward_deck[-1]] if keep_top else [])
        s.ch_deck = list(self.ch_deck)
        rng.shuffle(s.ch_deck)
        s._mask = None
        return s

    def _thing_after_reshuffle(self, player: int, pool: list, need: int) -> tuple[list, list]:
        """Split the shuffled unknown cards ``pool`` into a Thing and the rest (the others' unseen
        cards). Since the last reshuffle the Thing holds only cards it held then that ``player``
        did not draw itself (``thing_base`` is public, its own draws it saw), so the Thing takes
        the first cards of ``pool`` within that bound: a uniform choice of the cards the bound
        allows. (The Thing's cards are not weighed by what the others showed since; an
        approximation, as MD15's.) ``need`` events or reactions must stay out of the Thing for
        face-down bonuses; if the uniform choice leaves fewer, the Thing takes events last, which
        the true Thing shows possible."""
        size = len(self.thing)
        left = np.asarray(self.thing_base) - self.thing_drawn[player]
        thing = _take_within(pool, left, size, events_last=False)
        rest = _minus(pool, thing)
        if sum(1 for x in rest if x >= A.FIRST_ACTION_CARD) < need:
            thing = _take_within(pool, left, size, events_last=True)
            rest = _minus(pool, thing)
        return thing, rest

    def _draws_after_reshuffle(self, player: int, thing: list, rng) -> np.ndarray:
        """Each other seat's draws since the reshuffle, resampled: the reshuffled cards neither in
        the new Thing nor drawn by ``player``, dealt in the (public) numbers each seat drew."""
        drawn = self.thing_drawn.copy()
        left = np.asarray(self.thing_base) - drawn[player]
        left -= np.bincount(np.asarray(thing, dtype=np.int64), minlength=DATA.num_kinds)
        cards = _KINDS.repeat(left).tolist()
        rng.shuffle(cards)
        for q in range(self.game.num_players):
            if q != player:
                k = int(drawn[q].sum())
                drawn[q] = np.bincount(
                    np.asarray(cards[:k], dtype=np.int64), minlength=DATA.num_kinds
                )
                cards = cards[k:]
        return drawn

    def clone(self) -> InfoMixin:
        s = type(self).__new__(type(self))
        s.game = self.game
        s.defer_rng(self.rng_source())
        s.hands, s.known, s.valhalla = self.hands.copy(), self.known.copy(), self.valhalla.copy()
        s.thing, s.krog = list(self.thing), list(self.krog)
        s.thing_base = None if self.thing_base is None else self.thing_base.copy()
        s.thing_drawn = self.thing_drawn.copy()
        s.troops = [[t.copy() for t in ts] for ts in self.troops]
        s.pending = None if self.pending is None else self.pending.copy()
        s.coins, s.skat, s.world = self.coins.copy(), self.skat, self.world.copy()
        s.reward_deck = list(self.reward_deck)
        s.rewards, s.revealed = self.rewards.copy(), self.revealed.copy()
        s.reward_top_known = self.reward_top_known
        s.ch_deck, s.open, s.reserved = list(self.ch_deck), list(self.open), list(self.reserved)
        s.won, s.ch_out = [list(w) for w in self.won], list(self.ch_out)
        s.calendar, s.turn, s.start_player, s.active = (
            self.calendar,
            self.turn,
            self.start_player,
            self.active,
        )
        s.decisions = self.decisions
        s.made_trip, s.won_challenge, s.had_troops = (
            self.made_trip,
            self.won_challenge,
            self.had_troops,
        )
        s.stack = [f.copy() for f in self.stack]
        s.over, s.truncated, s.end_reason = self.over, self.truncated, self.end_reason
        s.played = [_copy_frame(c) for c in self.played]
        s.pool = list(self.pool)
        s.contest = None if self.contest is None else _copy_frame(self.contest)
        s.events_left = self.events_left
        s._mask = self._mask
        return s

    def check_invariants(self) -> None:
        """Conservation of cards, coins, rewards and challenges; legal troops (for tests)."""
        n = self.game.num_players
        total = card_totals(
            self.hands,
            self.valhalla,
            self.thing + self.krog,
            self.troops,
            self.pending,
            [f.wild for f in self.stack if f.m == RELOCATE],
            self.played,
            self.pool,
            self.contest,
        )
        if total.tolist() != list(DATA.kind_counts):
            raise AssertionError(f"card conservation broken: {total.tolist()}")
        if (self.hands < 0).any() or (self.valhalla < 0).any():
            raise AssertionError("negative card counts")
        if (self.known > self.hands + self.face_down()).any() or (self.known < 0).any():
            raise AssertionError("publicly known cards exceed a hand")
        check_thing_base(self.thing, self.thing_base, self.thing_drawn)
        if (
            int(self.coins.sum()) + self.skat != TOTAL_COINS
            or (self.coins < 0).any()
            or self.skat < 0
        ):
            raise AssertionError(f"coin conservation broken: {self.coins.tolist()} + {self.skat}")
        rtotal = self.rewards.sum(axis=0) + self.revealed.sum(axis=0)
        rtotal += np.bincount(
            np.asarray(self.reward_deck, dtype=np.int64), minlength=len(DATA.rewards)
        )
        for f in self.stack:
            if f.m == KEEP:
                for k in f.drawn:
                    rtotal[k] += 1
        if rtotal.tolist() != list(DATA.reward_counts):
            raise AssertionError(f"reward conservation broken: {rtotal.tolist()}")
        chs = self.ch_deck + self.open + [c for c in self.reserved if c >= 0] + self.ch_out
        chs += [c for w in self.won for c in w]
        if sorted(chs) != list(range(len(DATA.challenges))):
            raise AssertionError(f"challenge conservation broken: {sorted(chs)}")
        for p in range(n):
            if len(self.troops[p]) > A.MAX_TROOPS:
                raise AssertionError(f"seat {p} has {len(self.troops[p])} troops")
            for t in self.troops[p]:
                if not t.is_valid() and not any(f.m == RELOCATE and f.p == p for f in self.stack):
                    raise AssertionError(f"seat {p} has an invalid troop {t}")

    # ---- text and serialisation ---------------------------------------------------------
    def action_name(self, action: int) -> str:
        if not 0 <= action < A.NUM_ACTIONS:
            return f"<invalid action {action}>"
        return A.action_name(action)

    def render(self, observer: int | None = None) -> str:
        """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
        if observer is not None:
            return self.render_view(observer)
        n = self.game.num_players
        names = DATA.kind_names
        header = (
            f"Midgard - turn {self.turn}, calendar {self.calendar} "
            f"({('summer', 'winter')[self.season()]}), "
            f"Thing {len(self.thing)}, Skat {self.skat}, Krog top "
            f"{names[self.krog[-1]] if self.krog else '-'}, Valhalla {int(self.valhalla.sum())}"
        )
        lines = [header]
        lines.append(
            "open: "
            + ", ".join(
                f"{DATA.challenges[c].name} ({self.challenge_difficulty(c)})" for c in self.open
            )
        )
        for p in range(n):
            mark = ">" if p == self.current_player else " "
            hand = ", ".join(
                f"{names[k]}x{int(v)}" if v > 1 else names[k]
                for k, v in enumerate(self.hands[p])
                if v
            )
            res = (
                f", reserved {DATA.challenges[self.reserved[p]].name}"
                if self.reserved[p] >= 0
                else ""
            )
            lines.append(
                f"{mark} player_{p}: {WORLD_NAMES[self.world[p]]}, {int(self.coins[p])} coins, "
                f"renown {int(self.scores()[p])}, won {len(self.won[p])}, rewards "
                f"{int(self.rewards[p].sum())}{res}; hand [{hand}]"
            )
            for ti, t in enumerate(self.troops[p]):
                lines.append(
                    f"     troop {ti}{' (engaged)' if t.engaged else ''}: {t.describe(names)} "
                    f"[might {t.might(MIGHT)}]"
                )
        if self.pending is not None:
            lines.append(f"     new troop: {self.pending.describe(names)}")
        lines.extend(self._cardplay_lines(None))
        if self.over:
            lines.append(self.game_over_line(self.end_reason))
        else:
            lines.append(f"player_{self.current_player} to decide: {MODE_NAMES[self.mode]}")
        return "\n".join(lines)

    def render_view(self, player: int) -> str:
        """The table as ``player`` sees it (built from ``view(player)`` only: no hidden cards)."""
        v = self.view(player)
        names = DATA.kind_names
        n = v["num_players"]
        header = (
            f"Midgard - turn {v['turn']}/{v['max_turns']}, "
            f"calendar {v['calendar']} ({v['season']}), "
            f"Thing {v['thing_size']}, Skat {v['skat']}, rewards left {v['reward_deck_size']}"
        )
        lines = [header]
        lines.append(
            "open: "
            + ", ".join(
                f"{DATA.challenges[c].name} ({self.challenge_difficulty(c)})" for c in v["open"]
            )
        )
        krog = ", ".join(names[x] for x in v["krog"]) or "-"
        vh = (
            ", ".join(
                f"{names[x]}x{c}" if c > 1 else names[x] for x, c in enumerate(v["valhalla"]) if c
            )
            or "-"
        )
        lines.append(f"Krog (bottom to top): {krog}; Valhalla: {vh}")
        for p in range(n):
            mark = ">" if p == v["current_player"] else " "
            you = " (you)" if p == player else ""
            res = (
                f", reserved {DATA.challenges[v['reserved'][p]].name}"
                if v["reserved"][p] >= 0
                else ""
            )
            lines.append(
                f"{mark} player_{p}{you}: {WORLD_NAMES[v['worlds'][p]]}, {v['coins'][p]} coins, "
                f"{v['hand_sizes'][p]} cards, {v['reward_counts'][p]} rewards, challenge renown "
                f"{v['challenge_renown'][p]}{res}"
            )
            for ti, tj in enumerate(v["troops"][p]):
                t = Troop.from_json(tj)
                lines.append(
                    f"     troop {ti}{' (engaged)' if t.engaged else ''}: {t.describe(names)} "
                    f"[might {t.might(MIGHT)}, {t.ncards()} cards]"
                )
        if v["pending"] is not None:
            lines.append(f"     new troop: {Troop.from_json(v['pending']).describe(names)}")
        hand = ", ".join(
            f"{names[x]}x{c}" if c > 1 else names[x] for x, c in enumerate(v["hand"]) if c
        )
        lines.append(f"your hand: {hand or '-'}")
        own = ", ".join(
            f"{DATA.rewards[x][0]} {DATA.rewards[x][1]}"
            for x, c in enumerate(v["rewards"])
            for _ in range(c)
        )
        lines.append(f"your rewards: {own or '-'}")
        lines.extend(self._cardplay_lines(player))
        if v["over"]:
            lines.append(f"game over ({v['end_reason']})")
        elif v["stack"]:
            top = v["stack"][-1]
            lines.append(f"player_{v['current_player']} to decide: {top['mode']}")
        return "\n".join(lines)

    def _cardplay_lines(self, player) -> list[str]:
        """Cards in play, the Loki pool and a contest's bonuses (face down for ``player``; all
        shown when ``player`` is None)."""
        names = DATA.kind_names
        lines = []
        for c in self.played:
            lines.append(
                f"in play: {names[c['k']]} by player_{c['s']}{' (cancelled)' if c['x'] else ''}"
            )
        if self.pool:
            lines.append("Loki's Trick pool: " + ", ".join(names[k] for k in self.pool))
        c = self.contest
        if c is not None:
            shown = [c["b"][side] if player is None else None for side in (0, 1)]
            if player is not None:
                shown = self._contest_view(player)["bonus"]
            what = "challenge " + DATA.challenges[c["ch"]].name if c["t"] == "ch" else "battle"
            bon = ", ".join(
                "-" if b is None or b == -1 else (b if isinstance(b, str) else names[b])
                for b in shown
            )
            lines.append(f"{what}: bonuses [{bon}]")
        return lines

    def _to_dict(self) -> dict:
        return {
            "hands": [_as_list(h) for h in self.hands],
            "known": [_as_list(h) for h in self.known],
            "thing": list(self.thing),
            "thing_base": None if self.thing_base is None else _as_list(self.thing_base),
            "thing_drawn": [_as_list(h) for h in self.thing_drawn],
            "krog": list(self.krog),
            "valhalla": _as_list(self.valhalla),
            "troops": [[t.to_json() for t in ts] for ts in self.troops],
            "pending": None if self.pending is None else self.pending.to_json(),
            "coins": self.coins.tolist(),
            "skat": self.skat,
            "world": self.world.tolist(),
            "reward_deck": list(self.reward_deck),
            "rewards": [_as_list(r) for r in self.rewards],
            "revealed": [_as_list(r) for r in self.revealed],
            "reward_top_known": self.reward_top_known,
            "ch_deck": list(self.ch_deck),
            "open": list(self.open),
            "reserved": list(self.reserved),
            "won": [list(w) for w in self.won],
            "ch_out": list(self.ch_out),
            "calendar": self.calendar,
            "turn": self.turn,
            "decisions": self.decisions,
            "start_player": self.start_player,
            "active": self.active,
            "made_trip": self.made_trip,
            "won_challenge": self.won_challenge,
            "had_troops": self.had_troops,
            "stack": [f.to_dict() for f in self.stack],
            "over": self.over,
            "truncated": self.truncated,
            "end_reason": self.end_reason,
            "played": [_copy_frame(c) for c in self.played],
            "pool": list(self.pool),
            "contest": None if self.contest is None else _copy_frame(self.contest),
            "events_left": self.events_left,
        }

    @classmethod
    def _check_dict(cls, game, d: dict) -> None:
        """``from_dict``'s check of the saved fields (saved.py): ``ValueError`` naming the field."""
        from .saved import check_state

        check_state(game, d)

    @classmethod
    def _from_dict(cls, game, d: dict) -> InfoMixin:
        s = cls.blank(game, None)
        s.hands = np.array([_as_counts(h, DATA.num_kinds) for h in d["hands"]], dtype=np.int64)
        s.known = np.array([_as_counts(h, DATA.num_kinds) for h in d["known"]], dtype=np.int64)
        s.thing, s.krog = list(d["thing"]), list(d["krog"])
        base = d["thing_base"]
        s.thing_base = None if base is None else _as_counts(base, DATA.num_kinds)
        s.thing_drawn = np.array(
            [_as_counts(h, DATA.num_kinds) for h in d["thing_drawn"]], dtype=np.int64
        )
        s.valhalla = _as_counts(d["valhalla"], DATA.num_kinds)
        s.troops = [[Troop.from_json(t) for t in ts] for ts in d["troops"]]
        s.pending = None if d["pending"] is None else Troop.from_json(d["pending"])
        s.coins, s.skat = np.asarray(d["coins"], dtype=np.int64), d["skat"]
        s.world = np.asarray(d["world"], dtype=np.int64)
        s.reward_deck = list(d["reward_deck"])
        s.rewards = np.array(
            [_as_counts(r, len(DATA.rewards)) for r in d["rewards"]], dtype=np.int64
        )
        s.revealed = np.array(
            [_as_counts(r, len(DATA.rewards)) for r in d["revealed"]], dtype=np.int64
        )
        s.reward_top_known = d["reward_top_known"]
        s.ch_deck, s.open, s.reserved = list(d["ch_deck"]), list(d["open"]), list(d["reserved"])
        s.won, s.ch_out = [list(w) for w in d["won"]], list(d["ch_out"])
        s.calendar, s.turn, s.start_player, s.active = (
            d["calendar"],
            d["turn"],
            d["start_player"],
            d["active"],
        )
        s.decisions = d["decisions"]
        s.made_trip, s.won_challenge, s.had_troops = (
            d["made_trip"],
            d["won_challenge"],
            d["had_troops"],
        )
        s.stack = [frame_from_dict(f) for f in d["stack"]]
        s.over, s.truncated, s.end_reason = d["over"], d["truncated"], d["end_reason"]
        s.played = [_copy_frame(c) for c in d["played"]]
        s.pool = list(d["pool"])
        s.contest = None if d["contest"] is None else _copy_frame(d["contest"])
        s.events_left = d["events_left"]
        return s


def check_thing_base(thing, base, drawn) -> None:
    """After a reshuffle the Thing plus every seat's draws since is the reshuffled multiset
    (M-E2); ``AssertionError`` otherwise."""
    if (np.asarray(drawn) < 0).any():
        raise AssertionError("negative draw counts since the reshuffle")
    if base is None:
        return
    now = np.bincount(np.asarray(thing, dtype=np.int64), minlength=DATA.num_kinds)
    if (now + np.asarray(drawn).sum(axis=0)).tolist() != np.asarray(base).tolist():
        raise AssertionError("the Thing and the draws since the reshuffle are not what it held")


def face_down_counts(contest, shape) -> np.ndarray:
    """Per seat and kind, the face-down challenge bonuses of ``contest`` (see ``face_down``)."""
    out = np.zeros(shape, dtype=np.int64)
    if contest is not None and contest["t"] == "ch":
        for side in (0, 1):
            if contest["b"][side] >= 0:
                out[contest["bs"][side], contest["b"][side]] += 1
    return out


def card_totals(hands, valhalla, piles, troops, pending, wild, played, pool, contest) -> np.ndarray:
    """Copies of each card kind found in all places a card can be (card conservation): hands and
    Valhalla (counts), the Thing and Krog (``piles``), troops and the one being laid down, the
    displaced wildcards (``wild``: of the stack's relocate frames), played cards, Loki's pool and
    a contest's held bonuses."""
    total = np.asarray(hands).sum(axis=0) + valhalla
    total += np.bincount(np.asarray(piles, dtype=np.int64), minlength=DATA.num_kinds)
    for t in [t for ts in troops for t in ts] + ([] if pending is None else [pending]):
        for k in t.cards():
            total[k] += 1
    held = contest["held"] if contest else []
    for k in list(wild) + [c["k"] for c in played] + list(pool) + held:
        total[k] += 1
    return total


def _take_within(pool: list, bound, size: int, events_last: bool) -> list:
    """The first ``size`` cards of ``pool`` with at most ``bound[kind]`` of each kind (troop cards
    before events and reactions when ``events_last``), in pool order."""
    order = pool
    if events_last:
        order = [x for x in pool if x < A.FIRST_ACTION_CARD] + [
            x for x in pool if x >= A.FIRST_ACTION_CARD
        ]
    room = np.array(bound, dtype=np.int64).tolist()  # Python ints: cheaper to index one by one
    out = []
    for x in order:
        if len(out) == size:
            break
        if room[x] > 0:
            room[x] -= 1
            out.append(x)
    return out


def _minus(pool: list, taken: list) -> list:
    """``pool`` without one copy of each card of ``taken`` (order kept)."""
    left = np.bincount(np.asarray(taken, dtype=np.int64), minlength=DATA.num_kinds).tolist()
    out = []
    for x in pool:
        if left[x] > 0:
            left[x] -= 1
        else:
            out.append(x)
    return out


def _as_list(counts) -> list:
    """Counts per kind as the sorted list of kinds (short JSON)."""
    size = len(counts)
    kinds = _KINDS if size == DATA.num_kinds else np.arange(size)
    return kinds.repeat(counts).tolist()


def _as_counts(kinds, size: int) -> np.ndarray:
    return np.bincount(np.asarray(kinds, dtype=np.int64), minlength=size).astype(np.int64)


def _copy_frame(f: dict) -> dict:
    """Contests and played cards hold ints, strings, flat lists and lists of lists that are never
    changed in place."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in f.items()}
