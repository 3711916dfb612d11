"""ISMCTS treats a BigWig trick's face-down commits as simultaneous (decoupled selection).

The hand-built trick: the point card is 3 VP (white, red, yellow), a 2 VP card lies under the
altar. Seat 0 (youngest: commits first) holds Loki, Fenrir and Mjollnir; seat 1 holds Dvergar and
red 9. Every other large card is face up in the discard pile and the draw pile is empty, so every
determinization deals seat 1 exactly these cards. Seat 0's VP gain minus seat 1's, halved:

    seat 0 \\ seat 1   Dvergar   red 9
    Loki                -0.5     -0.5    (loses the trick, takes the altar card)
    Fenrir              +1.5     -1.5    (Fenrir voids Dvergar; red 9 is trump and higher)
    Mjollnir            -1.5     +1.5    (Dvergar makes the lowest win; 10 beats 9)

A seat 1 that could see seat 0's commit would answer every card with its counter: Loki is then the
best move (-0.5 against -1.5). Committing face down at once, seat 1 cannot: this is matching
pennies between Fenrir and Mjollnir (worth 0 to seat 0), and Loki is never right.
"""

from collections import Counter

from deckzoo.agents.base import Agent
from deckzoo.agents.ismcts import ISMCTSAgent
from deckzoo.agents.registry import make_agent
from deckzoo.envs.bigwig.cards import DVERGAR, FENRIR, LOKI, MJOLLNIR, point_kind, standard
from deckzoo.envs.bigwig.rules import PLAY_WELL
from deckzoo.envs.gobig.rules import GoBigGame
from tests.bigwig.helpers import table

RED_9 = standard("red", 9)


def pennies_trick(first, second):
    return table([first, second], point_kind(["red", "yellow"]), altar=[point_kind(["red"])])


def choices(state, seat, simultaneous, seeds=range(6)):
    out = Counter()
    for seed in seeds:
        agent = ISMCTSAgent(seed=seed, iterations=300, horizon=1, simultaneous=simultaneous)
        out[agent.act(state.for_player(seat))] += 1
    return out


def test_the_trick_is_built_as_described():
    state = pennies_trick([LOKI, FENRIR, MJOLLNIR], [DVERGAR, RED_9])
    assert state.current_player == 0 and state.simultaneous_players() == (0, 1)
    rng = __import__("numpy").random.default_rng(0)
    for _ in range(5):  # nothing is left to deal seat 1 but its two cards
        assert state.determinize(0, rng).hands[1].tolist() == state.hands[1].tolist()


def test_peeking_search_plays_safe_simultaneous_search_does_not():
    state = pennies_trick([LOKI, FENRIR, MJOLLNIR], [DVERGAR, RED_9])
    # Plain SO-ISMCTS: seat 1's tree nodes sit below seat 0's commit, so it answers what it saw.
    assert choices(state, 0, simultaneous=False) == Counter({LOKI: 6})
    # Decoupled: seat 1 chooses from statistics that do not depend on seat 0's commit.
    found = choices(state, 0, simultaneous=True)
    assert LOKI not in found and set(found) <= {FENRIR, MJOLLNIR}


def test_seat_1_statistics_at_the_trick_are_not_split_by_seat_0s_commit():
    state = pennies_trick([LOKI, FENRIR, MJOLLNIR], [DVERGAR, RED_9])
    agent = ISMCTSAgent(seed=0, iterations=200, horizon=1)
    agent.act(state.for_player(0))
    root = agent._last_root
    seat1 = {a: n.visits for (p, a), n in root.children.items() if p == 1}
    assert set(seat1) <= {DVERGAR, RED_9, PLAY_WELL} and sum(seat1.values()) == 200
    assert all(not n.children for n in root.children.values())  # statistics only, no subtrees
    assert all(key[0][0] == 0 and key[1][0] == 1 for key in root.joint)  # keyed by both commits


def test_a_later_seat_cannot_exploit_the_commit_it_has_not_seen():
    """Seat 1 decides after seat 0 committed face down: whatever seat 0 put down, the same seeds
    give the same search, move for move."""
    worlds = []
    for hidden in (DVERGAR, RED_9, PLAY_WELL):
        state = pennies_trick([DVERGAR, RED_9], [LOKI, FENRIR, MJOLLNIR])
        state.apply(hidden)
        assert state.current_player == 1
        agents = [ISMCTSAgent(seed=s, iterations=150, horizon=1) for s in range(4)]
        worlds.append([(a.act(state.for_player(1)), a.last_visits) for a in agents])
    assert worlds[0] == worlds[1] == worlds[2]


class Fixed(Agent):
    """A prior that always names a seat's lowest legal action, and logs who it was asked for."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.asked = []

    def act(self, info_state):
        self.asked.append((info_state.player, info_state.view()["phase"]))
        return int(info_state.legal_actions()[0])


def test_prior_moves_are_expanded_first_in_a_simultaneous_step():
    """One iteration expands one move per seat of the trick: under ``bias`` it is each seat's
    prior move (without it, a random untried one)."""
    state = pennies_trick([LOKI, FENRIR, MJOLLNIR], [DVERGAR, RED_9])
    seen = set()
    for seed in range(6):
        agent = ISMCTSAgent(seed=seed, iterations=1, horizon=1, prior_agent=Fixed(), bias=1.0)
        assert agent.act(state.for_player(0)) == LOKI
        assert set(agent._last_root.children) == {(0, LOKI), (1, RED_9)}
        plain = ISMCTSAgent(seed=seed, iterations=1, horizon=1)
        plain.act(state.for_player(0))
        seen |= set(plain._last_root.children)
    assert len(seen) > 2  # the plain search expands other moves


def test_the_prior_is_asked_once_for_the_observer_at_the_root_and_per_sample_for_the_others():
    state = pennies_trick([LOKI, FENRIR, MJOLLNIR], [DVERGAR, RED_9])
    prior = Fixed()
    agent = ISMCTSAgent(seed=0, iterations=20, horizon=1, prior_agent=prior, bias=1.0)
    agent.act(state.for_player(0))
    tricks = Counter(p for p, phase in prior.asked if phase == "commit")
    assert tricks == Counter({0: 1, 1: 20})  # seat 0 commits only at the root


def test_a_prior_guided_later_seat_cannot_exploit_the_commit_it_has_not_seen():
    """As above with the heuristic as prior at every node: the prior is asked with each seat's own
    view, so seat 0's face-down card changes nothing in seat 1's search."""
    worlds = []
    for hidden in (DVERGAR, RED_9, PLAY_WELL):
        state = pennies_trick([DVERGAR, RED_9], [LOKI, FENRIR, MJOLLNIR])
        state.apply(hidden)
        agents = [
            ISMCTSAgent(
                seed=s,
                iterations=100,
                horizon=1,
                prior_agent=make_agent("heuristic", "bigwig", s),
                bias=2.0,
            )
            for s in range(3)
        ]
        worlds.append([(a.act(state.for_player(1)), a.last_visits) for a in agents])
    assert worlds[0] == worlds[1] == worlds[2]


def test_sequential_games_search_exactly_as_before():
    state = GoBigGame(3).new_state(4)
    seat = state.current_player
    a = ISMCTSAgent(seed=2, iterations=60, simultaneous=True)
    b = ISMCTSAgent(seed=2, iterations=60, simultaneous=False)
    assert a.act(state.for_player(seat)) == b.act(state.for_player(seat))
    assert a.last_visits == b.last_visits


def test_spec_option():
    assert make_agent("ismcts:5:simultaneous=0", "bigwig", 0).simultaneous is False
    assert make_agent("ismcts:5", "bigwig", 0).simultaneous is True
