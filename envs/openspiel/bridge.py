"""deckzoo games as OpenSpiel Python games (docs/openspiel.md).

``register_all()`` registers each game of the registry as ``python_deckzoo_<name>``; its options
are game parameters (``parameters``), with ``players`` and ``reward``. A state wraps an engine
state and never changes it in place: every action is applied to a clone, so states share their
engine positions, their history and their chance cursors, and OpenSpiel's clone (a deep copy of
the state's attributes) copies one reference (``Core.__deepcopy__``).

Dynamics are sequential, the engines' own (BigWig's face-down commits are asked seat by seat and
no view shows a commit before the reveal, which is OpenSpiel's turn-based form of a simultaneous
move). Chance is explicit (chance.py, adapters.py): an action whose engine call needs a chance
outcome the script lacks becomes a chance node; its outcome completes the script and the action
is replayed from the position before it.

Returns are the env's reward modes: ``win`` and ``score`` at the end (zero-sum), ``dense`` the
score changes as they happen (general-sum, rewards at every step). The utility bounds are the
game's ``return_bounds``; ``score`` and ``dense`` returns are computed in floating point, so their
bounds are widened by a relative 1e-9 (OpenSpiel's random simulation compares them exactly).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import Game, LazyRng, State
from deckzoo.envs.core.options import Option

from .adapters import ChanceAdapter, adapter_for
from .chance import Done, LazyPile, NeedChance, Pick, ScriptRng
from .history import Step

PREFIX = "python_deckzoo_"
REWARDS = ("win", "score", "dense")
# The information-state tensor holds a row per step (observation and own action, history.py);
# a configuration whose rows would exceed this many floats provides the string only.
MAX_INFO_TENSOR = 1 << 17
# The widening of the floating-point reward modes' bounds (see the module docstring).
BOUND_SLACK = 1e-9

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PLACEHOLDER = np.random.default_rng(0)
_PLACEHOLDER_STATE = _PLACEHOLDER.bit_generator.state


def short_name(game: str | type[Game]) -> str:
    """``python_deckzoo_gobig`` for a game (its class or any name the registry accepts)."""
    cls = game if isinstance(game, type) else registry.game_class(game)
    return PREFIX + cls.name


# ---- options as game parameters -------------------------------------------------------------
_TOKENS = {None: "none", True: "true", False: "false"}


def _param_kind(o: Option) -> str:
    """How an option travels as an OpenSpiel parameter (OpenSpiel has int, float, bool, str)."""
    if o.seat:
        return "seat"  # int, -1 = None
    if o.choices is not None:
        kinds = {type(c) for c in o.choices}
        if kinds == {int}:
            return "int"
        if kinds == {bool}:
            return "bool"
        if kinds == {str}:
            return "str"
        return "token"  # str: none/true/false or the value's own text
    kinds = o.kind if isinstance(o.kind, tuple) else (o.kind,)
    if list in kinds or tuple in kinds:
        return "list"  # str: comma-separated ints, "" = None
    if int in kinds:
        return "int_or_none" if type(None) in kinds else "int"
    if float in kinds:
        return "float"
    if bool in kinds:
        return "bool"
    return "str"


def _token(value) -> str:
    return _TOKENS[value] if value is None or isinstance(value, bool) else str(value)


def encode_option(o: Option, value):
    """A deckzoo option value as its OpenSpiel parameter value."""
    kind = _param_kind(o)
    if kind in ("seat", "int_or_none"):
        return -1 if value is None else int(value)
    if kind == "token":
        return _token(value)
    if kind == "list":
        return "" if value is None else ",".join(str(int(v)) for v in value)
    return value


def decode_option(o: Option, value):
    """An OpenSpiel parameter value as the deckzoo option value (``Game`` validates it)."""
    kind = _param_kind(o)
    if kind in ("seat", "int_or_none"):
        return None if value == -1 else value
    if kind == "token":
        for c in o.choices:
            if _token(c) == value:
                return c
        raise ConfigError(
            f"option {o.name!r} must be one of {[_token(c) for c in o.choices]}, got {value!r}"
        )
    if kind == "list":
        return None if value == "" else [int(v) for v in str(value).split(",")]
    return value


def parameters(cls: type[Game]) -> dict:
    """The parameter specification: ``players``, ``reward`` and every option, at its default."""
    spec = {"players": cls.default_players, "reward": "win"}
    for o in cls.OPTIONS:
        spec[o.name] = encode_option(o, o.default)
    return spec


# ---- the game -------------------------------------------------------------------------------
class Spec:
    """What every state of one configuration shares: the engine's game, its chance adapter, the
    reward mode. Plain Python, so a state's attributes pickle without pyspiel objects."""

    def __init__(self, engine: Game, reward: str, adapter: ChanceAdapter):
        self.engine, self.reward, self.adapter = engine, reward, adapter
        self.max_chance_outcomes = adapter.max_chance_outcomes(engine)

    def check(self, node: Pick) -> Pick:
        bound = self.max_chance_outcomes
        for a, _ in node.outcomes:
            if not 0 <= a < bound:
                raise ValueError(
                    f"{self.engine.name}: chance outcome {a} outside 0..{bound - 1} "
                    "(adapters.py declares each game's bound)"
                )
        return node


def game_type(cls: type[Game], reward: str = "win", info_tensor: bool = True) -> pyspiel.GameType:
    dense = reward == "dense"
    return pyspiel.GameType(
        short_name=short_name(cls),
        long_name=f"deckzoo {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM if dense else pyspiel.GameType.Utility.ZERO_SUM
        ),
        reward_model=(
            pyspiel.GameType.RewardModel.REWARDS if dense else pyspiel.GameType.RewardModel.TERMINAL
        ),
        max_num_players=max(cls.supported_players()),
        min_num_players=min(cls.supported_players()),
        provides_information_state_string=True,
        provides_information_state_tensor=info_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(cls),
    )


def utility_bounds(engine: Game, reward: str) -> tuple[float, float]:
    lo, hi = engine.return_bounds(reward)
    if reward != "win":
        lo -= BOUND_SLACK * max(1.0, abs(lo))
        hi += BOUND_SLACK * max(1.0, abs(hi))
    return lo, hi


class DeckzooGame(pyspiel.Game):
    """One configuration of a deckzoo game; ``engine_class`` is set by ``register_all``'s
    subclass of each game."""

    engine_class: type[Game]

    def __init__(self, params=None):
        cls = self.engine_class
        given = dict(params or {})
        unknown = sorted(set(given) - set(parameters(cls)))
        if unknown:
            raise ConfigError(f"{short_name(cls)}: unknown parameter(s) {', '.join(unknown)}")
        values = {**parameters(cls), **given}
        reward = values.pop("reward")
        if reward not in REWARDS:
            raise ConfigError(f"{short_name(cls)}: reward must be one of {REWARDS}, got {reward!r}")
        players = values.pop("players")
        options = {o.name: decode_option(o, values[o.name]) for o in cls.OPTIONS}
        engine = cls(num_players=players, **options)
        self.spec = Spec(engine, reward, adapter_for(engine))
        rows = engine.max_game_length + 1
        width = int(np.prod(engine.observation_shape)) + engine.num_actions
        self.info_rows = rows if rows * width <= MAX_INFO_TENSOR else 0
        lo, hi = utility_bounds(engine, reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=self.spec.max_chance_outcomes,
            num_players=engine.num_players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=None if reward == "dense" else 0.0,
            max_game_length=engine.max_game_length,
        )
        super().__init__(game_type(cls, reward, bool(self.info_rows)), info, given)
        # Every initial state shares one core, so the set-up's first run happens once per game
        # (OpenSpiel makes an initial state for every clone and every tensor-shape question).
        self.initial_core = Core.initial(self.spec)

    @property
    def engine(self) -> Game:
        """The deckzoo engine's game of this configuration."""
        return self.spec.engine

    def new_initial_state(self) -> DeckzooState:
        return DeckzooState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        from .observer import make_observer

        if isinstance(iig_obs_type, dict):  # OpenSpiel passes the params alone when no type
            iig_obs_type, params = None, iig_obs_type
        return make_observer(self, iig_obs_type, params)


# ---- states -----------------------------------------------------------------------------------
class Pending:
    """An action waiting for chance: the position before it, the answers so far, the cursor."""

    __slots__ = ("action", "actor", "answers", "cursor", "declared", "metas", "pre")

    def __init__(self, pre, action, actor, answers, metas, declared, cursor):
        self.pre, self.action, self.actor = pre, action, actor
        self.answers, self.metas, self.declared, self.cursor = answers, metas, declared, cursor


def _restore_rng(state: State) -> None:
    """Give a finished run's state a real generator again (its clones copy it); nothing draws
    from it: the next action gets a script, ``determinize`` its own generator."""
    if isinstance(state, LazyRng):
        state.defer_rng(_PLACEHOLDER_STATE)
    else:
        state.rng = _PLACEHOLDER


def _run(spec: Spec, pre: State | None, action, answers: tuple, lazy: tuple):
    """Apply ``action`` to a clone of ``pre`` (None: set up a game) with scripted chance; returns
    the new state and its lazy piles, or raises ``NeedChance``."""
    script = ScriptRng(answers)
    piles = {}
    if pre is None:
        state = spec.engine._new_state(script)
    else:
        state = pre.clone()
        for name, unresolved in lazy:
            piles[name] = LazyPile(getattr(state, name), unresolved, script)
            setattr(state, name, piles[name])
        state.rng = script
        state.apply(action)
    _restore_rng(state)
    still = []
    for name, pile in piles.items():
        if getattr(state, name) is pile:  # else the engine made a new pile (a reshuffle's)
            setattr(state, name, list(pile))
            if pile.unresolved:
                still.append((name, pile.unresolved))
    return state, tuple(still)


class Core:
    """The content of a state, never changed once made, so that clones share it: only the
    initial core runs its set-up when first asked, and the caches fill in; both come out the same
    whoever asks first."""

    __slots__ = (
        "_player",
        "_start",
        "_text",
        "actions",
        "base",
        "engine",
        "lazy",
        "parent_returns",
        "pending",
        "spec",
        "step",
    )

    def __init__(self, spec, engine, pending, step, lazy, base, parent_returns):
        self.spec, self.engine, self.pending, self.step = spec, engine, pending, step
        self.lazy, self.base, self.parent_returns = lazy, base, parent_returns
        self._start = False
        self._text = None
        self._player = None
        # the actions from the initial state, as a chain (earlier, action); None at the start,
        # RESAMPLED for a resampled state (it has no history to replay)
        self.actions = None

    @classmethod
    def initial(cls, spec: Spec) -> Core:
        core = cls(spec, None, None, None, (), None, None)
        core._start = True  # the set-up runs when first asked (clones never need it)
        return core

    def __deepcopy__(self, memo) -> Core:
        return self

    def __copy__(self) -> Core:
        return self

    def __reduce__(self):
        """Pickled as its spec and its actions, rebuilt by replaying them (OpenSpiel serialises
        a Python state by pickling its attributes)."""
        if self.actions is RESAMPLED:
            raise TypeError("a resampled state has no history to serialise")
        actions, chain = [], self.actions
        while chain is not None:
            chain, a = chain
            actions.append(a)
        return _replay, (self.spec, actions[::-1])

    def ready(self) -> Core:
        if self._start:
            done = _advance(self, None, None, None, (), (), ())
            self.engine, self.pending, self.step = done.engine, done.pending, done.step
            self.lazy, self.base = done.lazy, done.base
            self._start = False
        return self

    # ---- what a state reports --------------------------------------------------------------
    def current_player(self) -> int:
        """Cached: OpenSpiel asks several times a node (chance? terminal? whose turn?)."""
        if self._player is None:
            if self.pending is not None:
                self._player = _CHANCE
            elif self.engine.is_terminal():
                self._player = _TERMINAL
            else:
                self._player = int(self.engine.current_player)
        return self._player

    def returns(self) -> np.ndarray:
        engine, spec = self.engine, self.spec
        n = spec.engine.num_players
        if engine is None:
            return np.zeros(n)
        if spec.reward == "dense":
            g = spec.engine
            now = np.asarray(engine.scores(), dtype=np.float64)
            return g.score_sign * (now - self.base) / g.score_scale
        if self.pending is not None or not engine.is_terminal():
            return np.zeros(n)
        return engine.returns() if spec.reward == "win" else engine.score_returns()

    def text(self) -> str:
        """The engine's ``render()`` (every hand), and the chance node's label (cached: OpenSpiel
        asks for a state's string at every step, and a clone shares it)."""
        if self._text is None:
            text = "(set-up)" if self.engine is None else self.engine.render()
            if self.pending is not None:
                text += f"\nchance: {self.pending.cursor.label}"
            self._text = text
        return self._text

    # ---- moving on ------------------------------------------------------------------------
    def apply(self, action: int) -> Core:
        child = self._apply(action)
        child.actions = (self.actions, action)
        return child

    def _apply(self, action: int) -> Core:
        if self.pending is not None:
            p = self.pending
            node = p.cursor.child(action) if action in dict(p.cursor.outcomes) else None
            if node is None:
                raise ValueError(f"{action} is not an outcome of this chance node")
            if isinstance(node, Pick):
                node = self.spec.check(node)
                pending = Pending(p.pre, p.action, p.actor, p.answers, p.metas, p.declared, node)
                return self._child(self.engine, pending, self.step)
            return _advance(
                self,
                p.pre,
                p.action,
                p.actor,
                (*p.answers, node.answer),
                (*p.metas, node.meta),
                (*p.declared, *node.lazy),
            )
        engine = self.engine
        return _advance(self, engine, action, engine.current_player, (), (), ())

    def _child(self, engine, pending, step, lazy=None, base=None) -> Core:
        return Core(
            self.spec,
            engine,
            pending,
            step,
            self.lazy if lazy is None else lazy,
            self.base if base is None else base,
            self.returns() if self.spec.reward == "dense" else None,  # for ``rewards()``
        )


RESAMPLED = "resampled"


def _replay(spec: Spec, actions: list[int]) -> Core:
    core = Core.initial(spec).ready()
    for a in actions:
        core = core.apply(a)
    return core


def _advance(core, pre, action, actor, answers, metas, declared) -> Core:
    """Replay ``action`` from ``pre`` with ``answers`` until it finishes or needs chance."""
    spec = core.spec
    while True:
        try:
            state, lazy = _run(spec, pre, action, answers, core.lazy)
        except NeedChance as need:
            node = spec.adapter.process(spec.engine, pre, need.call)
            if isinstance(node, Done):
                answers, metas = (*answers, node.answer), (*metas, node.meta)
                declared = (*declared, *node.lazy)
                continue
            pending = Pending(pre, action, actor, answers, metas, declared, spec.check(node))
            return core._child(pre, pending, core.step)
        if any(m is not None for m in metas):
            spec.adapter.verify(spec.engine, state, list(metas))
        lazy = tuple(dict((*lazy, *declared)).items())
        step = Step(core.step, state, actor, action)
        base = core.base
        if base is None:
            base = np.asarray(state.scores(), dtype=np.float64).copy()
        return core._child(state, None, step, lazy, base)


class DeckzooState(pyspiel.State):
    """One node of the game tree: a decision, a chance node or the end (see ``Core``)."""

    def __init__(self, game: DeckzooGame):
        super().__init__(game)
        self._core = game.initial_core

    @property
    def core(self) -> Core:
        core = self._core
        return core.ready() if core._start else core

    @property
    def engine_state(self) -> State | None:
        """The engine's position: after the last finished action (at a chance node, the one
        before the action waiting for chance); None while the set-up waits for chance."""
        return self.core.engine

    def current_player(self) -> int:
        return self.core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        core = self.core
        if core.pending is not None or player != core.current_player():
            return []
        return core.engine.legal_actions().tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self.core.pending
        if pending is None:
            raise ValueError("not a chance node")
        return list(pending.cursor.outcomes)

    def _apply_action(self, action: int) -> None:
        self._core = self.core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self.core
        if player == pyspiel.PlayerId.CHANCE:
            if core.pending is not None and action in dict(core.pending.cursor.outcomes):
                return core.pending.cursor.outcome_name(action)
            return f"chance outcome {action}"
        if core.engine is None:
            return f"action {action}"
        return core.engine.action_name(action)

    def is_terminal(self) -> bool:
        return self.core.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        return self.core.returns().tolist()

    def rewards(self) -> list[float]:
        core = self.core
        if core.spec.reward == "dense":
            parent = core.parent_returns
            now = core.returns()
            return (now if parent is None else now - parent).tolist()
        return core.returns().tolist() if self.is_terminal() else [0.0] * self.num_players()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> DeckzooState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn anew by the
        engine's ``determinize`` (seeded from ``probability_sampler``); ``player_id`` keeps its
        information state, the other seats' start at the resampled position (history.py)."""
        core = self.core
        if core.pending is not None:
            raise ValueError("resample_from_infostate is not defined at a chance node")
        seed = int(probability_sampler() * 2**53)
        world = core.engine.determinize(player_id, np.random.default_rng(seed))
        _restore_rng(world)
        out = DeckzooState(self.get_game())
        step = Step(None, world, None, None, link=(player_id, core.step))
        out._core = Core(core.spec, world, None, step, core.lazy, core.base, core.parent_returns)
        out._core.actions = RESAMPLED
        return out

    def __str__(self) -> str:
        return self.core.text()
