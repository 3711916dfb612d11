"""Wizard as text: the actions' names, the whole table (a spectator's view) and one seat's view,
for logs, the terminal play mode and the tests (``WizardState.action_name``, ``render`` and
``render_view``, found by name)."""

from __future__ import annotations

from . import actions
from .actions import PHASE_NAMES, PHASE_OVER
from .cards import LED_FREE, LED_NONE, SUITS, card_list, card_name, trump_name


def action_name(st, action: int) -> str:
    """``play Dwarves 7``, ``trump Elves``, ``bid 2``; ``<invalid action a>`` out of range."""
    return actions.action_name(action, st.game.num_actions)


def render(st, observer: int | None = None) -> str:
    """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
    if observer is not None:
        return render_view(st, observer)
    n = st.game.num_players
    flipped = "none" if st.flipped < 0 else card_name(st.flipped)
    head = (
        f"Wizard - round {st.round}/{st.game.rounds}, dealer player_{st.dealer}, "
        f"flipped {flipped}, trump {trump_name(st.trump)}"
    )
    lines = [head]
    for p in range(n):
        mark = ">" if p == st.current_player else " "
        bid = "-" if st.bids[p] < 0 else str(st.bids[p])
        hand = ", ".join(card_name(c) for c in card_list(st.hands[p]))
        lines.append(
            f"{mark} player_{p}: score {st.points[p]}, bid {bid}, won {st.tricks_won[p]}, "
            f"hand [{hand}]"
        )
    if st.trick:
        played = ", ".join(
            f"player_{(st.trick_leader + i) % n} {card_name(c)}" for i, c in enumerate(st.trick)
        )
        led = (
            "not set"
            if st.led == LED_NONE
            else "free (Wizard)"
            if st.led == LED_FREE
            else SUITS[st.led]
        )
        lines.append(f"trick: {played}; led suit {led}")
    if st.phase == PHASE_OVER:
        lines.append(st.game_over_line())
    else:
        hidden = " (own card hidden: Foresight)" if st.own_hand_hidden(st.current_player) else ""
        lines.append(f"player_{st.current_player} to {PHASE_NAMES[st.phase]}{hidden}")
    return "\n".join(lines)


def render_view(st, player: int) -> str:
    """The table as ``player`` sees it (built from ``view(player)`` only; ``deckzoo play``)."""
    v = st.view(player)
    n = v["num_players"]
    flipped = "none" if v["flipped"] is None else card_name(v["flipped"])
    trump = "(dealer choosing)" if v["trump"] is None else trump_name(v["trump"])
    head = (
        f"Wizard - round {v['round']}/{v['num_rounds']}, dealer player_{v['dealer']}, "
        f"flipped {flipped}, trump {trump}"
    )
    lines = [head]
    for q in range(n):
        mark = ">" if q == v["current_player"] else " "
        bid = "-" if v["bids"][q] is None else v["bids"][q]
        if q == player:
            hand = "hidden (Foresight)" if v["hand"] is None else f"[{_names(v['hand'])}]"
            who = f"player_{q} (you)"
        elif v["foresight_hands"] is not None:
            hand, who = f"[{_names(v['foresight_hands'][q])}]", f"player_{q}"
        else:
            k = v["hand_sizes"][q]
            hand, who = f"{k} card{'s' if k != 1 else ''}", f"player_{q}"
        void = f", void in {', '.join(SUITS[x] for x in v['voids'][q])}" if v["voids"][q] else ""
        lines.append(
            f"{mark} {who}: score {v['scores'][q]}, bid {bid}, "
            f"won {v['tricks_won'][q]}{void}, hand {hand}"
        )
    if v["tricks"]:
        leader, cards, winner = v["tricks"][-1]
        shown = ", ".join(f"player_{(leader + i) % n} {card_name(c)}" for i, c in enumerate(cards))
        lines.append(f"last trick: {shown}; won by player_{winner}")
    if v["trick"]:
        shown = ", ".join(
            f"player_{(v['trick_leader'] + i) % n} {card_name(c)}" for i, c in enumerate(v["trick"])
        )
        led = {None: "not set", LED_FREE: "free (Wizard)"}.get(v["led_suit"])
        lines.append(f"trick: {shown}; led suit {led or SUITS[v['led_suit']]}")
    if v["history"]:
        last = v["history"][-1]
        lines.append(
            "last round: " + ", ".join(f"player_{q} {d:+d}" for q, d in enumerate(last["deltas"]))
        )
    if v["current_player"] is None:
        lines.append(st.game_over_line())
    else:
        lines.append(f"player_{v['current_player']} to {v['phase']}")
    return "\n".join(lines)


def _names(cards: list[int]) -> str:
    return ", ".join(card_name(c) for c in cards)
