"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), generic over the engine.

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
4(2), 2012 (algorithm 3, SO-ISMCTS with the availability-count UCB of section IV-B).

One tree is grown for the deciding seat (the *observer*). Every iteration

1. samples a full state consistent with the observer's view: ``info_state.determinize(rng)``
   (the engine re-seeds the sample's chance generator, so rollouts cannot learn the real deck
   order or future chance outcomes);
2. descends the tree along moves legal in that sample. A node's children are keyed by
   ``(seat, action)``, so a node reached by different seats in different samples never mixes
   their statistics. Among children legal in this sample it picks the best by

       mean reward of the child's mover + c * sqrt(ln(availability) / visits)

   where *availability* counts the iterations in which that child was legal (not the parent's
   visits, which over-explores moves that are rarely available);
3. expands one untried legal move, then finishes the game with a rollout policy (uniform random
   by default, or any ``Agent``, e.g. the game's heuristic);
4. backs the per-seat outcome up the path: each node is credited with the outcome of the seat
   that moved into it.

The move played is the root child with the most visits. Nothing in here knows any game: it uses
only ``determinize``, ``current_player``, ``legal_mask``, ``apply``, ``is_terminal``,
``returns``/``score_returns`` of the engine protocol (envs/core/game.py).

Rewards. ``reward="win"`` (default) uses ``state.returns()`` (winners share +1, the others share
-1); ``reward="score"`` uses ``state.score_returns()`` (points centred on the table mean, scaled
by the game's ``score_scale``). Both are mapped from the game's declared ``return_bounds`` of that
mode to [0, 1] for the UCB formula (for ``win``, [-1, 1]), so the exploration constant is relative
to the widest possible outcome in every game. Rollouts cut short by ``max_rollout_steps`` are
valued by ``score_returns``, mapped from the ``score`` bounds (the only generic signal before the
end).

Horizon. With ``horizon=k`` the tree and the rollouts stop once ``k`` scoring rounds (deals,
hands: the engine's public ``round_index()``) have ended after the decision, or at the game's end,
and an iteration is valued by the points each seat gained meanwhile: ``score_returns()`` at the
stop minus ``score_returns()`` at the decision. A round's points are much less noisy than a whole
game's outcome and far cheaper to roll out to, so the same second buys more and better samples.
These values have no fixed range, so the UCB formula sees them min-max normalised over the values
seen in the current search (as MuZero normalises its Q values). Games without rounds ignore it.

Budget. ``iterations`` (deterministic given the seed) or ``seconds`` per move (wall clock; not
reproducible, so arenas that must replay exactly use iterations), or both: at most that many
iterations and at most that long (``ismcts:500:1s``), which replays exactly as long as the clock
never cuts a search short and still bounds the slowest move (a Big Number search at a deal's first
lead rolls out whole deals and takes several times the average). A decision with a single legal
action is answered at once without search.

Prior. ``bias`` steers the tree towards one agent's move at every node (progressive bias with
progressive widening, see ``ISMCTSAgent``). That agent is ``prior`` when given, else the rollout
agent, so a cheap or strong policy can guide the tree while rollouts stay random. In a simultaneous
step each seat's preferred move is asked of the prior with that seat's own ``for_player`` view of
the sample (which never shows the step's other commits), so decoupled selection stays blind to
them. With ``prior``, the observer's preference at the root is asked once per search, of the
real information state (every sample agrees with it there).

Loops. Some games let a seat undo a step within its turn (Midgard's ``cancel`` of a composite
choice), so a seat can return to an information state it has already decided in. A search that
values the undo as highly as anything else can go round such a loop hundreds of times. The agent
remembers, per game, the information states it decided in (a digest of the observation and the
legal moves) and the move it made; when a decision finds it back in one of them, the move that
closed the loop (its previous decision) is barred in its state from then on, unless it is the
only legal move there. The loop may run once more, then the undo is off the table. Games that
never repeat an information state are not affected.

Registry specs (``make_agent``)::

    ismcts                   200 iterations, random rollouts
    ismcts:1000              1000 iterations
    ismcts:0.5s              half a second per move
    ismcts:500:1s            500 iterations, but never more than a second
    ismcts:300:rollout=heuristic:c=0.5:reward=score:max_rollout_steps=200
    ismcts:60:rollout=heuristic:bias=1     progressive bias towards the heuristic's moves
    ismcts:200:rollout=heuristic:horizon=1 roll out to the end of the round, value its points
    ismcts:200:prior=zoo:bias=2  progressive bias towards the zoo policy's moves, random rollouts

(options are separated by ``:``, so a spec never contains the ``,`` that separates agents in
``deckzoo arena --agents``; ``,`` is accepted too when the spec is passed on its own).
"""

from __future__ import annotations

import hashlib
import math
import time

import numpy as np

from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import InfoState, State

from .base import Agent
from .registry import make_agent, register_agent

DEFAULT_ITERATIONS = 200
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}
REWARDS = ("win", "score")
WIDENING = 0.5  # with ``bias``: a node with n visits considers 1 + int(0.5 * sqrt(n)) moves


class _Node:
    """Statistics of the move that leads into this node, made by seat ``player``."""

    __slots__ = ("avail", "children", "joint", "player", "total", "visits")

    def __init__(self, player: int):
        self.player = player
        self.visits = 0
        self.total = 0.0  # sum of the mover's rewards in [0, 1]
        self.avail = 1
        self.children: dict[tuple[int, int], _Node] = {}
        # At the start of a simultaneous step: ``children`` holds each seat's own move statistics
        # and ``joint`` the nodes after the step, keyed by every move made in it.
        self.joint: dict[tuple, _Node] | None = None


def _fast_apply(state: State, action: int) -> None:
    """Apply an action already known to be legal, skipping the second validation of ``apply``.

    Only when the game keeps the base class's ``apply`` (validate, then ``_apply``); a game that
    overrides ``apply`` gets its own method.
    """
    if type(state).apply is State.apply:
        state._apply(action)
    else:
        state.apply(action)


class ISMCTSAgent(Agent):
    """SO-ISMCTS over ``info_state.determinize``; see the module docstring.

    Args:
        seed: seeds the agent's generator (determinizations, tie-breaks, random rollouts).
        iterations: iterations per move (None: ``DEFAULT_ITERATIONS``, or unlimited when
            ``seconds`` is given).
        seconds: time budget per move; with ``iterations`` too, whichever ends first.
        clock: what ``seconds`` measures: "wall" (wall clock, default) or "cpu" (the CPU time of
            the searching thread: what the wall clock would show on an otherwise idle core, so a
            budget means the same on a busy shared machine).
        exploration: UCB constant ``c`` for rewards in [0, 1] (0.7 as in Cowling et al.).
        rollout_agent: an ``Agent`` used for rollouts instead of uniform random moves. It is
            re-seeded from this agent's generator, so runs stay reproducible.
        reward: "win" (``returns()``) or "score" (``score_returns()``).
        max_rollout_steps: cut rollouts after this many moves (None: play to the end).
        bias: progressive bias towards the rollout agent's own move (needs ``rollout_agent``):
            at every tree node the agent's choice in the current sample is expanded first and
            its UCB score gets ``bias / (1 + visits)``; other moves are admitted by progressive
            widening (a node visited n times considers ``1 + int(0.5 * sqrt(n))`` moves), so a
            small budget refines the agent's play instead of trying every move once
            (0: plain SO-ISMCTS, every legal move expanded before UCB applies). Applies in
            simultaneous steps too, per seat.
        prior_agent: the ``Agent`` whose move ``bias`` favours (None: ``rollout_agent``); it is
            re-seeded from this agent's generator like the rollout agent.
        horizon: stop each iteration after this many scoring rounds and value it by the points
            gained (see the module docstring); None: play every rollout to the end.
        normalize: let UCB see the values min-max normalised over the current search, as with
            ``horizon`` (always on there): where rollouts are cut short (``max_rollout_steps``)
            and valued by the points so far, the differences between moves are a few hundredths
            of the [0, 1] range and the exploration term would swamp them.
        simultaneous: treat the seats of a simultaneous step (``simultaneous_players()``, e.g.
            BigWig's face-down commits) as moving at once, by decoupled selection (see the module
            docstring); False: as a sequence of seen moves, as plain SO-ISMCTS does.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_agent: Agent | None = None,
        reward: str = "win",
        max_rollout_steps: int | None = None,
        bias: float = 0.0,
        horizon: int | None = None,
        simultaneous: bool = True,
        normalize: bool = False,
        clock: str = "wall",
        prior_agent: Agent | None = None,
    ):
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (
            not isinstance(iterations, (int, np.integer)) or iterations < 1
        ):
            raise ConfigError(f"ismcts: 'iterations' must be a positive int, got {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ConfigError(f"ismcts: 'seconds' must be positive, got {seconds!r}")
        if clock not in CLOCKS:
            raise ConfigError(f"ismcts: 'clock' must be 'wall' or 'cpu', got {clock!r}")
        self.clock = clock
        if reward not in REWARDS:
            raise ConfigError(
                f"ismcts: 'reward' must be one of {', '.join(REWARDS)}, got {reward!r}"
            )
        if exploration < 0:
            raise ConfigError(f"ismcts: 'exploration' must be >= 0, got {exploration!r}")
        if max_rollout_steps is not None and max_rollout_steps < 0:
            raise ConfigError(
                f"ismcts: 'max_rollout_steps' must be >= 0, got {max_rollout_steps!r}"
            )
        if bias < 0 or (bias > 0 and rollout_agent is None and prior_agent is None):
            raise ConfigError(
                f"ismcts: 'bias' must be >= 0 and needs a prior or rollout agent, got {bias!r}"
            )
        if prior_agent is not None and not bias > 0:
            raise ConfigError("ismcts: a 'prior' agent needs 'bias' > 0 to have any effect")
        if horizon is not None and (not isinstance(horizon, (int, np.integer)) or horizon < 1):
            raise ConfigError(f"ismcts: 'horizon' must be a positive int, got {horizon!r}")
        self.horizon = None if horizon is None else int(horizon)
        self.simultaneous = bool(simultaneous)
        self.normalize = bool(normalize)
        self.bias = float(bias)
        self._stop_round: int | None = None  # per search, set by act
        self.iterations = None if iterations is None else int(iterations)
        self.seconds = seconds
        self.exploration = float(exploration)
        self.rollout_agent = rollout_agent
        self.prior_agent = prior_agent
        # per search, set by act (here too, so that a fresh agent restores a saved one's state)
        self._prior = prior_agent if prior_agent is not None else rollout_agent
        self._me, self._root_preferred = -1, -1
        self.reward = reward
        self.max_rollout_steps = max_rollout_steps
        # Loop guard (see the module docstring), per game: the information states decided in (a
        # dict used as a set, so that the agent's state saves as JSON), the moves made, and the
        # moves barred per state.
        self._seen: dict[str, bool] = {}
        self._history: list[list] = []  # [digest, action] per decision
        self._barred: dict[str, list[int]] = {}
        # Diagnostics of the last search (iterations run, root visit counts by action).
        self.last_iterations = 0
        self.last_visits: dict[int, int] = {}

    def __repr__(self) -> str:
        budget = ", ".join(
            f"{k}={v}"
            for k, v in (("iterations", self.iterations), ("seconds", self.seconds))
            if v is not None
        )
        if self.seconds is not None and self.clock != "wall":
            budget += f", clock={self.clock!r}"
        rollout = type(self.rollout_agent).__name__ if self.rollout_agent else "random"
        prior = f"prior={type(self.prior_agent).__name__}, " if self.prior_agent else ""
        return (
            f"ISMCTSAgent({budget}, c={self.exploration}, rollout={rollout}, {prior}"
            f"reward={self.reward!r}, bias={self.bias}, "
            f"max_rollout_steps={self.max_rollout_steps}, horizon={self.horizon}, "
            f"simultaneous={self.simultaneous}, normalize={self.normalize})"
        )

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_last_root"}

    # ---- search -----------------------------------------------------------------------------
    def act(self, info_state: InfoState) -> int:
        legal = info_state.legal_actions()
        if len(legal) == 0:
            raise ValueError(f"seat {info_state.player} has nothing to decide now")
        if len(legal) == 1:
            self.last_iterations, self.last_visits = 0, {int(legal[0]): 0}
            return int(legal[0])
        key = self._loop_check(info_state, legal)
        action = self._search(info_state, legal, self._barred.get(key, ()))
        self._history.append([key, action])
        return action

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self._seen, self._history, self._barred = {}, [], {}

    def _loop_check(self, info_state: InfoState, legal: np.ndarray) -> str:
        """The digest of this decision's information state; on a repeat, bar the move that led
        back here (the previous decision's) in its own state."""
        obs = np.ascontiguousarray(info_state.observe())
        key = hashlib.blake2b(obs.tobytes() + legal.tobytes(), digest_size=12).hexdigest()
        if key in self._seen and self._history:
            prev_key, prev_action = self._history[-1]
            barred = self._barred.setdefault(prev_key, [])
            if prev_action not in barred:
                barred.append(int(prev_action))
        self._seen[key] = True
        return key

    def _search(self, info_state: InfoState, legal: np.ndarray, barred) -> int:
        """One search from ``info_state``; the most visited legal move not in ``barred`` (all of
        them when every legal move is barred)."""
        me = info_state.player
        root = _Node(-1)
        if self.rollout_agent is not None:
            self.rollout_agent.seed(int(self.rng.integers(2**63)))
        self._prior = self.prior_agent if self.prior_agent is not None else self.rollout_agent
        self._me, self._root_preferred = me, -1  # the observer's move at the root (``prior``)
        if self.prior_agent is not None:
            self.prior_agent.seed(int(self.rng.integers(2**63)))
            if self.bias > 0:
                self._root_preferred = int(self.prior_agent.act(info_state))
        now = CLOCKS[self.clock]
        deadline = None if self.seconds is None else now() + self.seconds
        done = 0
        # Horizon mode: where to stop, the points at the decision, the range of values seen.
        self._stop_round = None
        self._lo, self._hi = math.inf, -math.inf
        if self.horizon is not None:
            first = info_state.determinize(self.rng)
            self._stop_round = first.round_index() + self.horizon
            self._base = first.score_returns()
        limit = self.iterations
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done > 0 and now() >= deadline:
                break
            self._iterate(root, info_state.determinize(self.rng))
            root.visits += 1
            done += 1
        self.last_iterations = done
        self._last_root = root  # the tree of the last search (tests and diagnostics; not pickled)
        self.last_visits = {
            int(a): root.children[(me, int(a))].visits if (me, int(a)) in root.children else 0
            for a in legal
        }
        allowed = {a: v for a, v in self.last_visits.items() if a not in barred}
        if not allowed:
            allowed = self.last_visits
        best = max(allowed.values())
        top = [a for a, v in allowed.items() if v == best]
        return int(top[0]) if len(top) == 1 else int(self.rng.choice(top))

    def _iterate(self, root: _Node, state: State) -> None:
        stop = self._stop_round
        norm = (0.0, 1.0)  # values are in [0, 1] already
        minmax = stop is not None or self.normalize
        if minmax:  # min-max normalisation of the values seen so far (0.5 while all are equal)
            norm = (self._lo, self._hi - self._lo) if self._hi > self._lo else (self._lo - 0.5, 1.0)
        node = root
        path = []
        # Selection and expansion.
        while not state.is_terminal() and (stop is None or state.round_index() < stop):
            if self.simultaneous and len(state.simultaneous_players()) > 1:
                node, expanded = self._joint_step(node, state, path, norm, root)
                if expanded:
                    break
                continue
            p = state.current_player
            legal = np.flatnonzero(state.legal_mask())
            children = node.children
            expand, preferred = self._expansion(node, root, p, legal, state)
            if expand is not None:
                child = _Node(p)
                children[(p, expand)] = child
                _fast_apply(state, expand)
                path.append(child)
                break
            best_a, best = self._select(children, p, legal, norm, preferred)
            _fast_apply(state, best_a)
            path.append(best)
            node = best
        self._rollout(state)
        # Backpropagation: rewards in [0, 1] per seat (horizon: raw point gains).
        if stop is not None:
            value = np.asarray(state.score_returns(), dtype=np.float64) - self._base
        else:
            value = self._value(state)
        if minmax:
            self._lo = min(self._lo, float(value.min()))
            self._hi = max(self._hi, float(value.max()))
        for child in path:
            child.visits += 1
            if child.player >= 0:
                child.total += value[child.player]

    def _expansion(
        self, node: _Node, root: _Node, p: int, legal: np.ndarray, state: State
    ) -> tuple[int | None, int]:
        """The move to expand at ``node`` (None: select among the children) and the rollout
        agent's preferred move there (-1 without ``bias``)."""
        children = node.children
        rng = self.rng
        if self.bias > 0 and len(legal) > 1:
            preferred = self._preferred(node, root, p, state)
            untried = [int(a) for a in legal if (p, int(a)) not in children]
            # Progressive widening: the agent's move first, then one more random move each
            # time sqrt(visits) grows by 1 / WIDENING, instead of every move before any UCB.
            allowed = 1 + int(WIDENING * math.sqrt(node.visits))
            if (p, preferred) not in children:
                return preferred, preferred
            if untried and len(legal) - len(untried) < allowed:
                return untried[int(rng.integers(len(untried)))], preferred
            return None, preferred
        untried = [int(a) for a in legal if (p, int(a)) not in children]
        if not untried:
            return None, -1
        return (untried[int(rng.integers(len(untried)))] if len(untried) > 1 else untried[0]), -1

    def _rollout(self, state: State) -> None:
        """Play ``state`` on (random moves, or the rollout agent's) to the end, the step limit or
        the horizon round."""
        rng = self.rng
        stop = self._stop_round
        steps = 0
        limit = self.max_rollout_steps
        agent = self.rollout_agent
        while not state.is_terminal():
            if limit is not None and steps >= limit:
                break
            if stop is not None and state.round_index() >= stop:
                break
            p = state.current_player
            if agent is None:
                legal = np.flatnonzero(state.legal_mask())
                a = int(legal[int(rng.integers(len(legal)))]) if len(legal) > 1 else int(legal[0])
                _fast_apply(state, a)
            else:
                state.apply(agent.act(state.for_player(p)))
            steps += 1

    def _select(
        self,
        children: dict,
        p: int,
        legal: np.ndarray,
        norm: tuple[float, float],
        preferred: int = -1,
    ) -> tuple[int, _Node]:
        """UCB with availability counts over ``p``'s admitted moves among ``legal``."""
        c, bias = self.exploration, self.bias
        lo, span = norm
        best_score, best, best_a = -math.inf, None, -1
        for a in legal:
            child = children.get((p, int(a)))
            if child is None:  # not yet admitted by progressive widening
                continue
            child.avail += 1
            mean = (child.total / child.visits - lo) / span
            score = mean + c * math.sqrt(math.log(child.avail) / child.visits)
            if a == preferred:
                score += bias / (1 + child.visits)
            if score > best_score:
                best_score, best, best_a = score, child, int(a)
        return best_a, best

    def _preferred(self, node: _Node, root: _Node, p: int, state: State) -> int:
        """The bias agent's move for seat ``p`` (the one to move) in this sample."""
        if node is root and p == self._me and self._root_preferred >= 0:
            return self._root_preferred  # the observer's own, asked once of the real view
        return int(self._prior.act(state.for_player(p)))

    def _joint_step(
        self, node: _Node, state: State, path: list, norm: tuple[float, float], root: _Node
    ) -> tuple[_Node, bool]:
        """One simultaneous step (every seat of ``state.simultaneous_players()`` commits once),
        by decoupled selection: each seat picks from its own statistics at ``node`` (an untried
        move first, then UCB), never from statistics conditioned on the moves made before it in
        the same step, which it cannot see. The node reached afterwards is keyed by all the step's
        moves (they are revealed together). Returns it and whether it is new (expanded)."""
        rng = self.rng
        moves = []
        children = node.children
        for p in state.simultaneous_players():
            legal = np.flatnonzero(state.legal_mask())
            untried = [int(a) for a in legal if (p, int(a)) not in children]
            preferred, expand = -1, None
            if self.bias > 0 and len(legal) > 1:  # as in ``_iterate``, from p's own view
                preferred = self._preferred(node, root, p, state)
                # p's statistics at this node: its visits are those of any of its moves here
                seen = sum(children[(p, int(a))].visits for a in legal if (p, int(a)) in children)
                if (p, preferred) not in children:
                    expand = preferred
                elif untried and len(legal) - len(untried) < 1 + int(WIDENING * math.sqrt(seen)):
                    expand = untried[int(rng.integers(len(untried)))]
            elif untried:
                expand = (
                    untried[int(rng.integers(len(untried)))] if len(untried) > 1 else untried[0]
                )
            if expand is not None:
                a = expand
                stats = children[(p, a)] = _Node(p)
            else:
                a, stats = self._select(children, p, legal, norm, preferred)
            _fast_apply(state, a)
            path.append(stats)
            moves.append((p, a))
        if node.joint is None:
            node.joint = {}
        key = tuple(moves)
        child = node.joint.get(key)
        expanded = child is None
        if expanded:
            child = node.joint[key] = _Node(-1)
        path.append(child)
        return child, expanded

    def _value(self, state: State) -> np.ndarray:
        if state.is_terminal() and self.reward == "win":
            r, (lo, hi) = state.returns(), state.game.return_bounds("win")
        else:
            r, (lo, hi) = state.score_returns(), state.game.return_bounds("score")
        return (np.asarray(r, dtype=np.float64) - lo) / ((hi - lo) or 1.0)


# ---- registry ---------------------------------------------------------------------------------
_BOOLS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def _flag(val: str) -> bool:
    if val.lower() not in _BOOLS:
        raise ValueError(f"expected one of {', '.join(_BOOLS)}")
    return _BOOLS[val.lower()]


def _agent_spec(val: str) -> str:
    """An agent spec in a spec: ``zoo/sample`` stands for ``zoo:sample`` (``:`` separates keys)."""
    return val.replace("/", ":") if val.startswith("zoo/") else val


# A spec's KEY=VALUE keys: the keyword option each sets and how its value is read.
_SPEC_KEYS = {
    "iterations": ("iterations", int),
    "seconds": ("seconds", lambda v: float(v.rstrip("s"))),
    "c": ("exploration", float),
    "exploration": ("exploration", float),
    "rollout": ("rollout", _agent_spec),
    "prior": ("prior", _agent_spec),
    "reward": ("reward", str),
    "max_rollout_steps": ("max_rollout_steps", int),
    "bias": ("bias", float),
    "horizon": ("horizon", int),
    "clock": ("clock", str),
    "simultaneous": ("simultaneous", _flag),
    "norm": ("normalize", _flag),
}


def parse_spec(arg: str | None) -> dict:
    """``"300"``, ``"0.5s"``, ``"300:rollout=heuristic:c=0.5:reward=score"`` -> keyword options.

    The first bare token is the budget (an int: iterations; a number ending in ``s``: seconds).
    Keys: ``iterations``, ``seconds``, ``c`` (or ``exploration``), ``rollout`` (an agent spec:
    ``random``, ``heuristic``, ``zoo``, ``zoo/sample`` for the spec ``zoo:sample``), ``prior``
    (an agent spec, as for ``rollout``: the agent ``bias`` favours), ``reward``
    (``win``/``score``), ``max_rollout_steps``, ``bias``,
    ``horizon``, ``clock`` (``wall``/``cpu``), ``simultaneous`` and ``norm``
    (``1``/``0``: ``normalize``).
    """
    out: dict = {}
    if not arg:
        return out
    for tok in (t.strip() for t in arg.replace(",", ":").split(":")):
        if not tok:
            continue
        key, eq, val = tok.partition("=")
        if eq and key not in _SPEC_KEYS:
            raise ConfigError(
                f"ismcts: unknown option {key!r} in spec {arg!r} (known: "
                "iterations, seconds, clock, c, rollout, prior, reward, "
                "max_rollout_steps, bias, horizon, simultaneous, norm)"
            )
        try:
            if not eq:  # the budget
                name, value = (
                    ("seconds", float(tok[:-1])) if tok.endswith("s") else ("iterations", int(tok))
                )
            else:
                name, read = _SPEC_KEYS[key]
                value = read(val)
        except ValueError as e:
            raise ConfigError(f"ismcts: cannot read {tok!r} in spec {arg!r}: {e}") from None
        out[name] = value
    return out


def make_ismcts(game_name: str, seed: int | None, arg: str | None) -> ISMCTSAgent:
    opts = parse_spec(arg)
    agents = {}
    for key in ("rollout", "prior"):
        spec = opts.pop(key, None)
        if spec is None or (spec == "random" and key == "rollout"):
            continue  # random rollouts are built in
        if spec.startswith("ismcts"):
            raise ConfigError(f"ismcts: a {key} by another search agent is not supported")
        agents[key] = make_agent(spec, game_name, seed)
    return ISMCTSAgent(
        seed, rollout_agent=agents.get("rollout"), prior_agent=agents.get("prior"), **opts
    )


register_agent(
    "ismcts",
    make_ismcts,
    "ismcts[:ITERATIONS][:SECONDSs][:KEY=VALUE...]: information-set tree search, e.g. "
    "ismcts:500, ismcts:0.5s, ismcts:300:rollout=heuristic (keys: c, rollout, prior, reward, "
    "max_rollout_steps, bias, horizon)",
)

__all__ = ["ISMCTSAgent", "make_ismcts", "parse_spec"]
