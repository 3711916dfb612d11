"""The engine protocol every deckzoo game implements.

``Game`` is a validated configuration; ``State`` is one mutable position. The base classes do
the work that must be identical in every game, once: option validation, action validation
before mutation (so an illegal action never changes anything), win/score returns, JSON round
trips of the random generator, and the read-only ``InfoState`` proxy that agents receive.

A game subclass fills in:

* ``Game``: ``name``, ``title``, ``version``, ``min_players``/``max_players``, ``OPTIONS``,
  ``score_sign``/``score_scale``, ``_setup()`` (derive everything from the options: must set
  ``num_actions``, ``layout`` and ``observation_shape``, ``state_layout``, ``max_game_length``
  and ``score_bounds``), ``_new_state(rng)``.
* ``State``: ``current_player`` (attribute or property), ``legal_mask()``, ``_apply(action)``,
  ``is_terminal()``, ``scores()``, ``winners()``, ``view(p)``, ``observe(p)``, ``global_state()``,
  ``_determinize(p, rng)``, ``action_name(a)``, ``render(observer=None)``, ``render_view(p)``,
  ``_to_dict()``/``_from_dict()``. All but the moves may instead be functions of the game's own
  modules, which ``State`` finds by name (``FUNCTION_MODULES``: ``encoding.observe(state, p)``,
  ``text.render(state, observer)``, ``saved.to_dict(state)``, ...), so the State class forwards
  nothing and no module needs to import the rules module back (docs/adding-a-game.md).

The global state (``env.state()``, for centralised critics) is the full-information encoding of a
position in absolute seat order: ``game.state_layout`` (a ``global_state.StateLayout``: the
observation's public pieces, then every hand, face-down card and the order of the piles that
decides the future) filled by ``state.global_state()``, every entry in ``[0, state_high]``. Two
positions that any seat can tell apart have different global states; it never changes unless the
position does.

Optional: ``is_legal(a)`` (a cheaper legality test than the whole mask), ``simultaneous_players()``
/ ``legal_mask_for(p)`` (face-down commits), ``round_index()`` (games scored in rounds: lets a
search stop its rollouts at a round's end), ``clone()`` (hand-rolled, much faster than deepcopy),
``render_view(p)`` (a game's own text for one seat's view), ``LazyRng`` (a chance generator built
only when a clone first needs it).
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import zlib
from typing import Any, ClassVar

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from .encoding import Layout
from .errors import ConfigError, IllegalActionError
from .options import Option, check_seat, validate_options
from .render import render_view

BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def rng_from_dict(d: dict) -> np.random.Generator:
    """Inverse of ``to_dict``'s ``rng`` entry; ``ValueError`` for anything that is not such a
    state (a saved state is untrusted data)."""
    state = d.get("bit_generator") if isinstance(d, dict) else None
    kind = state.get("bit_generator") if isinstance(state, dict) else None
    if kind not in BIT_GENERATORS:
        raise ValueError(
            f"'rng' must hold a numpy bit generator state "
            f"({', '.join(BIT_GENERATORS)}), got {kind!r}"
        )
    try:
        return rng_from_state(state)
    except (TypeError, ValueError, KeyError) as e:
        raise ValueError(f"'rng': not a valid {kind} state ({e})") from None


def rng_from_state(state: dict) -> np.random.Generator:
    """A generator in exactly the given ``bit_generator.state`` (built without seeding first)."""
    bit_gen = getattr(np.random, state["bit_generator"])(_PLACEHOLDER)
    bit_gen.state = state
    return np.random.Generator(bit_gen)


class _Words(ISeedSequence):
    """Seed material for a bit generator's constructor, without ``SeedSequence``'s hashing.

    ``np.random.default_rng(x)`` spends ~40 us hashing ``x``; ``copy_rng`` overwrites the seeded
    state at once and ``fork_rng`` already has random bytes, so both hand the constructor these.
    """

    def __init__(self, data: bytes = b""):
        self.data = data

    def generate_state(self, n_words, dtype=np.uint32):
        dtype = np.dtype(dtype)
        need = n_words * dtype.itemsize
        if len(self.data) < need:
            return np.ones(n_words, dtype=dtype)
        return np.frombuffer(self.data[:need], dtype=dtype).copy()


_PLACEHOLDER = _Words()


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An exact, independent copy of ``rng`` (same future draws), ~5x cheaper than deepcopy."""
    bit_gen = rng.bit_generator
    twin = type(bit_gen)(_PLACEHOLDER)
    twin.state = bit_gen.state
    return np.random.Generator(twin)


def fork_rng(rng: np.random.Generator) -> np.random.Generator:
    """A new PCG64 generator seeded with 256 fresh random bits drawn from ``rng`` (which advances).

    What ``determinize`` needs for the copy's own chance stream: unpredictable from the real
    game's generator, reproducible from ``rng``, and without ``SeedSequence``'s hashing cost.
    """
    return _forked(rng.bytes(32))


def _forked(seed_bytes: bytes) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(_Words(seed_bytes)))


class KeyedChance:
    """Chance drawn from streams keyed by event, for duplicate boards (``new_state(seed,
    keyed_chance=True)``; docs/agents.md, "Duplicate boards").

    A game that draws its chance from one sequential generator desyncs two games of the same deal
    as soon as their play differs: a reshuffle that comes earlier in one of them moves every later
    draw. Here the ``k``-th event of a kind (``"reshuffle"``, ``"loki"``) draws from a generator
    seeded by ``(seed, kind, k)`` only, so it is the same in every game of the board that reaches
    it, whatever happened before. The counters travel with clones (``copy``).
    """

    __slots__ = ("counts", "seed")

    def __init__(self, seed: int, counts: dict[str, int] | None = None):
        self.seed = int(seed)
        self.counts = {} if counts is None else counts

    def next(self, event: str) -> np.random.Generator:
        """The generator of the next event of kind ``event`` (and count it)."""
        k = self.counts.get(event, 0)
        self.counts[event] = k + 1
        return np.random.default_rng([self.seed, zlib.crc32(event.encode()), k])

    def copy(self) -> KeyedChance:
        return KeyedChance(self.seed, dict(self.counts))


def keyed_chance_from_dict(value) -> KeyedChance | None:
    """Inverse of ``to_dict``'s ``chance`` entry (absent or null: no keyed chance); ``ValueError``
    naming the field for anything else (a saved state is untrusted data)."""
    from .saved import Fields

    def whole(x) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))

    if value is None:
        return None
    f = Fields(value, "saved state: field 'chance'", known=("seed", "counts"))
    seed = f.get("seed")
    if not whole(seed) or seed < 0:
        f.fail("seed", f"must be the board's seed, a whole number >= 0, got {seed!r}")
    counts = f.get("counts")
    if not isinstance(counts, dict):
        f.fail("counts", f"must map event kinds to counts, got {type(counts).__name__}")
    for event, k in counts.items():
        if not isinstance(event, str) or not whole(k) or k < 0:
            f.fail("counts", f"must map event kinds to whole numbers >= 0, got {event!r}: {k!r}")
    return KeyedChance(int(seed), {e: int(k) for e, k in counts.items()})


def as_action(action: Any, num_actions: int, legal_fn) -> int:
    """Coerce ``action`` to an int in range or raise ``IllegalActionError`` (no mutation).

    Accepts Python and numpy integers (and 0-d integer arrays, which samplers return); rejects
    bools, floats, None and anything else, because silently truncating 2.7 to 2 hides bugs.
    """
    if (
        isinstance(action, np.ndarray)
        and action.shape == ()
        and np.issubdtype(action.dtype, np.integer)
    ):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(
            action, legal_fn(), f"actions are integers, got {type(action).__name__}"
        )
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalActionError(action, legal_fn(), f"out of range 0..{num_actions - 1}")
    return a


# Game classes by ``name``, filled as they are defined: ``State.from_dict`` rebuilds a game from
# its name with this, so the engine needs no registry (the registry imports the engines).
_GAME_CLASSES: dict[str, type[Game]] = {}


class Game:
    """A validated configuration of one game; makes states."""

    name: ClassVar[str] = "game"
    # The name people read ("Go Big"); the Gymnasium id is its words joined ("deckzoo/GoBig-v0").
    title: ClassVar[str] = "Game"
    # Bump when the behaviour changes (a golden playthrough differs), never for a refactor: it
    # names the env ("gobig_v0"), its PettingZoo and Gymnasium ids and the playthroughs.
    version: ClassVar[int] = 0
    # Whether seats decide at once (face-down commits, ``simultaneous_players``): such a game's
    # env.py also provides the PettingZoo Parallel env, ``parallel_env``.
    simultaneous: ClassVar[bool] = False
    # The phases a decision can be in, as the views name them (``view(p)["phase"]``): the
    # information-leak test plays until it has checked positions of every one. Empty: not declared.
    decision_phases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    # The supported player counts when not every count in min..max is playable
    # (Wizard: 3-6, 10, 12).
    player_counts: ClassVar[tuple[int, ...] | None] = None
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    # How raw scores map to "score"/"dense" rewards: +1 when more points are better, -1 when
    # fewer are (penalty games); scale brings a typical final spread to about [-1, 1].
    score_sign: ClassVar[int] = 1
    score_scale: ClassVar[float] = 1.0

    # Upper bound of every observation entry (entries are >= 0); used for the Box space.
    observation_high: ClassVar[float] = 1.0
    # Upper bound of every global-state entry (entries are >= 0); used for ``state_space``.
    state_high: ClassVar[float] = 1.0

    num_actions: int
    observation_shape: tuple[int, ...]
    state_layout: Layout  # the global state's pieces (see the module docstring), set by _setup
    # Declared bounds (OpenSpiel's max_game_length, min_utility/max_utility), set by ``_setup``:
    # the most decisions (``apply`` calls) one game can take, a proved bound or a cap the engine
    # enforces; and the lowest and highest raw points (``scores()``) a seat can end with.
    max_game_length: int
    score_bounds: tuple[float, float]

    @property
    def state_shape(self) -> tuple[int, ...]:
        return (self.state_layout.size,)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "name" in vars(cls):
            _GAME_CLASSES[cls.name] = cls

    def __init__(self, num_players: int | None = None, **options):
        if num_players is None:
            num_players = self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise ConfigError(
                f"{self.name}: option 'num_players' must be an int, got {num_players!r}"
            )
        if num_players not in self.supported_players():
            allowed = (
                f"{self.min_players}..{self.max_players}"
                if self.player_counts is None
                else ", ".join(map(str, self.player_counts))
            )
            raise ConfigError(
                f"{self.name}: option 'num_players' must be in {allowed}, got {num_players}"
            )
        self.num_players = int(num_players)
        self.options = validate_options(self.OPTIONS, options, self.name)
        for o in self.OPTIONS:
            if o.seat:
                check_seat(self.options[o.name], self.num_players, self.name, o.name)
        self._setup()
        required = (
            "num_actions",
            "layout",
            "observation_shape",
            "state_layout",
            "max_game_length",
            "score_bounds",
        )
        missing = [a for a in required if not hasattr(self, a)]
        if missing:
            raise TypeError(f"{type(self).__name__}._setup must set {', '.join(missing)}")

    @classmethod
    def env_name(cls) -> str:
        """The versioned env name, ``"gobig_v0"``: the key of ``deckzoo.envs.ENVS``."""
        return f"{cls.name}_v{cls.version}"

    def return_bounds(self, reward: str = "win") -> tuple[float, float]:
        """Lowest and highest return one seat can get in a game played to its end, per reward mode.

        ``win``: winners share +1, the rest share -1, so every return lies in [-1, 1]. ``score``:
        ``score_returns()`` centres points on the table mean, so a seat is at most (n-1)/n of
        the points range from it. ``dense``: the score changes sum to final minus initial points.
        (An ``illegal_action="penalize"`` penalty of -1 comes on top.)
        """
        lo, hi = self.score_bounds
        spread = (hi - lo) / self.score_scale
        if reward == "win":
            return -1.0, 1.0
        if reward == "score":
            n = self.num_players
            return -spread * (n - 1) / n, spread * (n - 1) / n
        if reward == "dense":
            return -spread, spread
        raise ConfigError(f"{self.name}: unknown reward mode {reward!r}; known: win, score, dense")

    @classmethod
    def supported_players(cls) -> tuple[int, ...]:
        """Every playable player count (``player_counts`` if set, else
        ``min_players..max_players``)."""
        if cls.player_counts is not None:
            return tuple(cls.player_counts)
        return tuple(range(cls.min_players, cls.max_players + 1))

    def _setup(self) -> None:
        raise NotImplementedError

    def new_state(self, seed: int | None = None, *, keyed_chance: bool = False) -> State:
        """A fresh game; all chance comes from one generator seeded here.

        With ``keyed_chance`` (a duplicate board's games; docs/agents.md, "Duplicate boards") the
        set-up is the same, but the chance events that play can move in time draw from
        ``KeyedChance(seed)`` (``State.event_rng``), so they stay the same in games of this seed
        whose play differs.
        """
        state = self._new_state(np.random.default_rng(seed))
        if keyed_chance:
            if seed is None:
                raise ValueError("keyed_chance needs a seed (the board's)")
            state.chance = KeyedChance(seed)
        return state

    def _new_state(self, rng: np.random.Generator) -> State:
        raise NotImplementedError

    def config(self) -> dict:
        """Everything needed to rebuild this game: ``type(game)(**game.config())``."""
        return {"num_players": self.num_players, **self.options}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config().items())
        return f"{type(self).__name__}({opts})"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.config() == other.config()

    def __hash__(self) -> int:
        return hash((type(self), json.dumps(self.config(), sort_keys=True)))


#: Where a game's protocol functions live when its State class does not define them: method ->
#: (module of the game's package, function). The function takes the state first (``_from_dict``
#: the State class, ``_check_dict`` the game), so a module of functions needs nothing from the
#: rules module and never imports it: no import circle inside a game folder, no one-line
#: forwards in the State class. A game may still define any of these as methods instead.
FUNCTION_MODULES: dict[str, tuple[str, str]] = {
    "view": ("encoding", "view"),
    "observe": ("encoding", "observe"),
    "global_state": ("global_state", "global_state"),
    "_determinize": ("determinize", "determinize"),
    "check_invariants": ("invariants", "check_invariants"),
    "action_name": ("text", "action_name"),
    "render": ("text", "render"),
    "render_view": ("text", "render_view"),
    "_to_dict": ("saved", "to_dict"),
    "_from_dict": ("saved", "from_dict"),
    "_check_dict": ("saved", "check_state"),
}


def _install_functions(cls: type) -> None:
    """Give ``cls`` (a game's State class) the functions of ``FUNCTION_MODULES`` that its game
    package has and it does not define: found by name, as the registry finds ``batched.py`` and
    ``testing.py``. A module that is missing is simply not used; a module that is there but lacks
    the function is too (a game may keep, say, ``render_view`` as the base's)."""
    package = cls.__module__.rpartition(".")[0]
    if not package:
        return
    for method, (module, function) in FUNCTION_MODULES.items():
        if _defines(cls, method):
            continue
        name = f"{package}.{module}"
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            continue
        fn = getattr(importlib.import_module(name), function, None)
        if fn is None:
            continue
        if method == "_from_dict":
            fn = classmethod(fn)
        elif method == "_check_dict":
            fn = staticmethod(fn)
        setattr(cls, method, fn)


def _defines(cls: type, method: str) -> bool:
    """Whether ``cls`` or a base below ``State`` (a mixin, a game's own base) defines ``method``."""
    for klass in cls.__mro__:
        if klass is State:
            return False
        if method in vars(klass):
            return True
    return False


class State:
    """One position of a game. Mutable, owned by one thread; see the module docstring."""

    game: Game
    rng: np.random.Generator
    current_player: int | None
    # keyed chance streams of a duplicate board (``Game.new_state``); None: everything from ``rng``
    chance: KeyedChance | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _install_functions(cls)

    # ---- the protocol a game fills in -------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal (chance resolved with ``self.rng``)."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def scores(self) -> np.ndarray:
        """Raw game points per seat (meaningful at any time, final when terminal)."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that share the win (terminal states only)."""
        raise NotImplementedError

    def view(self, player: int) -> dict:
        raise NotImplementedError

    def observe(self, player: int) -> np.ndarray:
        raise NotImplementedError

    def global_state(self) -> np.ndarray:
        """The full-information float32 encoding of this position (``game.state_layout``)."""
        raise NotImplementedError

    def _determinize(self, player: int, rng: np.random.Generator) -> State:
        raise NotImplementedError

    def action_name(self, action: int) -> str:
        raise NotImplementedError

    def render(self, observer: int | None = None) -> str:
        """Text of the whole state, every hand shown (a spectator's view); with ``observer``,
        the table as that seat sees it (``render_view(observer)``, built from ``view`` only)."""
        raise NotImplementedError

    def _to_dict(self) -> dict:
        raise NotImplementedError

    @classmethod
    def _from_dict(cls, game: Game, d: dict) -> State:
        """Build a state from ``_to_dict``'s fields as given (tests use it to set up positions)."""
        raise NotImplementedError

    @classmethod
    def _check_dict(cls, game: Game, d: dict) -> None:
        """Check ``_to_dict``'s fields before ``from_dict`` builds anything: raise ``ValueError``
        naming a bad field (types, sizes, ranges, the game's invariants)."""

    # ---- shared behaviour -----------------------------------------------------------------
    def is_legal(self, action: int) -> bool:
        """Whether the in-range int ``action`` is legal now (``legal_mask()[action]``).

        ``apply`` asks this before mutating; a game may override it with a cheaper test than
        building the whole mask. It must agree with ``legal_mask`` exactly (the conformance
        harness applies every action on clones and checks both directions).
        """
        return bool(self.legal_mask()[action])

    def legal_actions(self) -> np.ndarray:
        return self.legal_mask().nonzero()[0]  # the mask is 1-D; ~5x cheaper than np.flatnonzero

    def apply(self, action) -> None:
        """Validate, then mutate. Illegal input raises and leaves the state unchanged."""
        if self.current_player is None:
            raise IllegalActionError(action, [], "the game is over")
        kind = type(action)
        if (kind is int or kind is np.int64) and 0 <= action < self.game.num_actions:
            a = int(
                action
            )  # the common cases (Python ints, numpy's default int), without as_action's dispatch
        else:
            a = as_action(action, self.game.num_actions, self.legal_actions)
        if not self.is_legal(a):
            mask = self.legal_mask()
            raise IllegalActionError(
                action,
                np.flatnonzero(mask),
                f"{self.action_name(a)!r} is not legal now",
                self.action_name,
            )
        self._apply(a)

    def simultaneous_players(self) -> tuple[int, ...]:
        """Seats that decide "at once" from here, in the order the engine will ask them.

        Sequential games return just the current player. A game with face-down simultaneous
        commits returns every seat that still has to commit, so the Parallel adapter can let
        them all act in one step; no commit may change another listed seat's view or mask.
        """
        return () if self.current_player is None else (self.current_player,)

    def legal_mask_for(self, player: int) -> np.ndarray:
        """The mask ``player`` has now or will have when asked within the current simultaneous
        step (see ``simultaneous_players``); all False for a seat with nothing to decide."""
        if player == self.current_player:
            return self.legal_mask()
        return np.zeros(self.game.num_actions, dtype=bool)

    def returns(self) -> np.ndarray:
        """Zero-sum win/loss: winners share +1, the others share -1 (all tied: all 0)."""
        n = self.game.num_players
        out = np.zeros(n, dtype=np.float64)
        if not self.is_terminal():
            return out
        win = sorted(set(self.winners()))
        if 0 < len(win) < n:
            out[:] = -1.0 / (n - len(win))
            out[win] = 1.0 / len(win)
        return out

    def round_index(self) -> int:
        """Public count of the scoring rounds (deals, hands) finished so far; 0 in a game without
        them.

        Rounds are where points are settled, so a search may stop its rollouts at the next change
        of this counter and value them by the points gained (ISMCTS's ``horizon``): a round's
        outcome is far less noisy than a whole game's. It must be known to every seat.
        """
        return 0

    def score_returns(self) -> np.ndarray:
        """Final points centred on the table mean and scaled to about [-1, 1]
        (``reward="score"``)."""
        s = self.game.score_sign * np.asarray(self.scores(), dtype=np.float64)
        return (s - s.mean()) / self.game.score_scale

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A full state equal to this one in everything ``player`` can know; hidden cards resampled.

        The copy's own chance generator is then re-seeded from ``rng`` (``reseed``), here for every
        game, so that a search agent's rollouts cannot learn future chance outcomes from the real
        game's generator.
        """
        state = self._determinize(player, rng)
        state.reseed(rng)
        return state

    def reseed(self, rng: np.random.Generator) -> None:
        """Give this state a fresh chance generator, ``fork_rng(rng)`` (and drop keyed chance:
        a search's copy must not learn a board's future chance events)."""
        self.rng = fork_rng(rng)
        if self.chance is not None:
            self.chance = None

    def event_rng(self, event: str) -> np.random.Generator:
        """The generator for the next chance event of kind ``event`` that play can move in time
        (a reshuffle, a blind pick): ``rng`` itself, or with keyed chance that event's own stream
        (``KeyedChance``), so the ordinary seeded game draws exactly as before."""
        if self.chance is None:
            return self.rng
        return self.chance.next(event)

    def render_view(self, player: int) -> str:
        """The table as ``player`` sees it, from ``view(player)`` only (``deckzoo play``); games
        may override this with their own layout."""
        return render_view(self.view(player), self.game.num_players)

    def game_over_line(self, reason: str | None = None) -> str:
        """The last line of a finished game's ``render()``: the winners (and why it ended)."""
        why = f" ({reason})" if reason else ""
        return f"game over{why}; winners: {', '.join(f'player_{w}' for w in self.winners())}"

    def clone(self) -> State:
        """A deep copy sharing the (immutable) game; the generator is copied with ``copy_rng``.

        Games should override this with a hand-rolled copy of their fields (much cheaper).
        """
        memo = {id(self.game): self.game}
        rng = getattr(self, "rng", None)
        if rng is not None:
            memo[id(rng)] = copy_rng(rng)
        return copy.deepcopy(self, memo)

    def for_player(self, player: int) -> InfoState:
        return InfoState(self, player)

    def _rng_state(self) -> dict:
        """The chance generator's ``bit_generator.state`` (``LazyRng`` avoids building it)."""
        return self.rng.bit_generator.state

    def to_dict(self) -> dict:
        """The position as JSON values: the game and its config, the chance generator, the
        game's fields and, for a duplicate board's game, its keyed chance (``chance``: the
        board's seed and the events drawn so far). Without ``chance`` a reloaded board game
        would draw its next reshuffle from ``rng`` and leave the board."""
        out = {
            "game": type(self.game).name,
            "config": self.game.config(),
            "rng": {"bit_generator": self._rng_state()},
            "state": self._to_dict(),
        }
        if self.chance is not None:
            out["chance"] = {"seed": self.chance.seed, "counts": dict(self.chance.counts)}
        return out

    @classmethod
    def from_dict(cls, d: dict, game: Game | None = None) -> State:
        """Inverse of ``to_dict``. The data is checked before anything is built: a missing or
        malformed field, a configuration that does not match ``game``, or a state that breaks
        the game's invariants raises ``ValueError`` naming the field (``saved.py``)."""
        from .saved import Fields, probe

        f = Fields(d, "saved state", known=("game", "config", "rng", "state", "chance"))
        name, config = f.str("game"), f.get("config")
        if not isinstance(config, dict):
            f.fail("config", f"must be a mapping of options, got {type(config).__name__}")
        if game is None:
            if name not in _GAME_CLASSES:
                f.fail("game", f"is {name!r}, which is not a game (or its package is not imported)")
            try:
                game = _GAME_CLASSES[name](**config)
            except ConfigError as e:
                f.fail("config", f"is not usable: {e}")
        elif name != type(game).name or _with_defaults(game, config) != json.loads(
            json.dumps(game.config())
        ):
            f.fail(
                "config", f"is {name} {config}, not this game's {type(game).name} {game.config()}"
            )
        rng = rng_from_dict(f.get("rng"))
        chance = keyed_chance_from_dict(d.get("chance"))
        cls._check_dict(game, f.get("state"))
        state = cls._from_dict(game, f.get("state"))
        state.rng = rng
        if chance is not None:
            state.chance = chance
        probe(state, f"saved {type(game).name} state")
        return state

    def __eq__(self, other) -> bool:
        """Equal when every field, the chance generator and keyed chance included, is equal."""
        if type(self) is not type(other):
            return NotImplemented
        return json.dumps(self.to_dict(), sort_keys=True) == json.dumps(
            other.to_dict(), sort_keys=True
        )

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game!r} player={self.current_player}>"


def _with_defaults(game: Game, config: dict) -> dict:
    """A saved ``config`` with the options it does not name at their defaults: a state saved
    before an option existed (a variant's, added later) is still this game's."""
    defaults = {o.name: o.default for o in type(game).OPTIONS}
    return {**defaults, **config}


class LazyRng:
    """Mixin for a ``State`` whose chance generator is built only when something draws from it.

    Building a numpy Generator costs ~20 us, more than the rest of a clone in some games, and most
    clones (search rollouts, determinizations) never reach the next chance event. Such a state
    keeps ``_rng`` (the Generator, or None) and ``_rng_src`` (what to build it from: a
    ``bit_generator.state`` dict, or the 32 bytes ``fork_rng`` would seed from); ``rng`` builds
    it on first access, identical to the eager one. Subclasses with ``__slots__`` list both names.
    """

    __slots__ = ()

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            src = self._rng_src
            self._rng = _forked(src) if isinstance(src, bytes) else rng_from_state(src)
            self._rng_src = None
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng, self._rng_src = value, None

    def rng_source(self):
        """A cheap snapshot of the generator for ``defer_rng`` (a clone's copy, not built yet)."""
        return self._rng_src if self._rng is None else self._rng.bit_generator.state

    def defer_rng(self, source) -> None:
        self._rng, self._rng_src = None, source

    def reseed(self, rng: np.random.Generator) -> None:
        self.defer_rng(rng.bytes(32))  # fork_rng(rng), built when first needed
        if self.chance is not None:  # as State.reseed: no keyed chance in a search's copy
            self.chance = None

    def _rng_state(self) -> dict:
        src = self._rng_src
        return src if self._rng is None and isinstance(src, dict) else self.rng.bit_generator.state


class InfoState:
    """What an agent may use: one seat's view of a state, read-only.

    Agents get this instead of the state so that they cannot read hidden cards by construction;
    everything exposed is derived from ``view(player)`` or is the public mask.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: State, player: int):
        self._state = state
        self.player = player

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def current_player(self) -> int | None:
        return self._state.current_player

    def view(self) -> dict:
        return self._state.view(self.player)

    def observe(self) -> np.ndarray:
        return self._state.observe(self.player)

    def legal_mask(self) -> np.ndarray:
        if self._state.current_player != self.player:
            return np.zeros(self._state.game.num_actions, dtype=bool)
        return self._state.legal_mask()

    def legal_actions(self) -> np.ndarray:
        return self.legal_mask().nonzero()[0]  # the mask is 1-D; ~5x cheaper than np.flatnonzero

    def determinize(self, rng: np.random.Generator) -> State:
        return self._state.determinize(self.player, rng)

    def action_name(self, action: int) -> str:
        return self._state.action_name(action)

    def is_terminal(self) -> bool:
        return self._state.is_terminal()
