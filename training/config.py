"""Training configuration: one documented dataclass, filled from YAML (configs/<game>.yaml).

Every field below has a default; a YAML file sets only what it changes. Unknown keys, wrong
types and out-of-range values raise ``ConfigError`` naming the key (``ppo.lerning_rate``).
``load_config(path)`` reads a file, ``config_from_dict(d)`` a dict, ``config_to_dict(cfg)`` is
the inverse (written to the run folder as ``config.yaml``).

Intervals (``checkpoint_every``, ``opponents.snapshot_every``, ``eval.every``) are in env
steps of the learner and are checked after each PPO rollout of ``ppo.n_steps * n_envs`` steps,
so an event happens at the first rollout boundary at or after each multiple of its interval.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckzoo.envs.core.errors import ConfigError

LEARNER = "learner"  # the opponents.mix key of a seat played (and trained) by the learner itself


@dataclass
class PPOConfig:
    """sb3-contrib MaskablePPO hyper-parameters (their meaning is SB3's)."""

    learning_rate: float = 3e-4
    """Adam step size (constant, so that a resumed run continues exactly)."""
    n_steps: int = 512
    """Env steps collected per env before each update; a rollout is ``n_steps * n_envs`` steps."""
    batch_size: int = 256
    """Minibatch size; must divide ``n_steps * n_envs``."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 0.99
    """Discount per learner decision."""
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    """Entropy bonus: keeps the policy stochastic while the opponent pool changes."""
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: list = field(default_factory=lambda: [128, 128])
    """Hidden layer sizes, used for both the actor and the critic (separate networks)."""
    activation: str = "tanh"
    """tanh or relu."""


@dataclass
class OpponentConfig:
    """Who sits in the other seats while the learner trains (drawn per seat, per episode)."""

    mix: dict = field(default_factory=lambda: {"random": 0.5, "pool": 0.5})
    """``{spec: weight}``: agent specs (random, heuristic, ppo:PATH, ...) and the self-play keys
    ``pool`` (a uniformly drawn past snapshot of the learner) and ``latest`` (the newest one).
    A game without a heuristic agent plays ``random`` in its place (a warning says so)."""
    pool_size: int = 20
    """Snapshots kept in the pool; the oldest is dropped beyond this."""
    snapshot_every: int = 20_000
    """Steps between snapshots of the learner added to the pool (one is taken at step 0)."""


@dataclass
class EvalConfig:
    """Periodic evaluation on the engine: the learner in every seat in turn, against baselines."""

    every: int = 50_000
    """Steps between evaluations (0: only the final one)."""
    games: int = 200
    """Games per opponent at each periodic evaluation."""
    final_games: int = 1000
    """Games per opponent in the final evaluation (summary.json)."""
    opponents: list = field(default_factory=lambda: ["random", "heuristic"])
    """Opponent specs; each evaluation seats the learner against P-1 copies of each."""
    deterministic: bool = True
    """Evaluate the greedy policy (most likely legal action) rather than sampling it."""
    max_steps: int = 20_000
    """Decisions (all seats) after which an evaluation game is abandoned and counts as a loss
    for the learner (a greedy policy can cycle forever through cancellable decisions)."""


@dataclass
class PretrainConfig:
    """Behaviour cloning before PPO (training/pretrain.py): the policy first imitates an agent."""

    imitate: Any = None
    """Agent spec to imitate (``heuristic``, or any spec ``make_agent`` knows); null: no pretraining."""
    decisions: int = 100_000
    """Decisions to record (whole games, every seat, until at least this many)."""
    holdout: float = 0.1
    """Share of the recorded games held out to measure the imitation accuracy (0 <= holdout < 1)."""
    epochs: int = 5
    """Passes over the recorded decisions."""
    batch_size: int = 512
    learning_rate: float = 1e-3
    """Adam step size of the cloning (its own optimiser; PPO's starts fresh afterwards)."""
    value: bool = True
    """Also fit the value head to the imitated agent's discounted returns (``ppo.gamma``, the
    run's ``reward``), so that PPO's first advantages are sane."""
    eval_games: int = 200
    """Games per ``eval.opponents`` entry to evaluate the cloned policy before PPO starts (0: none)."""


@dataclass
class VectorConfig:
    """Keys of the vector trainer only (``trainer: vector``, training/vector_ppo.py). It reads the
    shared keys too: ``n_envs`` is its number of lanes (games played at once), ``ppo.n_steps`` the
    decisions per lane in a rollout, ``ppo.batch_size`` the minibatch size (rounded so that whole
    minibatches cover the rollout), and every other ``ppo.*`` key has PPO's usual meaning."""

    anneal_lr: bool = True
    """Decay the learning rate linearly from ``ppo.learning_rate`` to 0 over ``total_timesteps``."""
    norm_adv: bool = True
    """Normalise the advantages of each minibatch to mean 0 and standard deviation 1."""
    clip_vloss: bool = True
    """Clip the value update around the rollout's values with ``ppo.clip_range`` (as PPO2 and
    CleanRL do)."""
    target_kl: Any = None
    """Stop an update's remaining epochs once the approximate KL divergence from the rollout's
    policy exceeds this (null: never)."""
    stagger: int = 1000
    """Before the first rollout, lane ``i`` plays a uniformly random number below this of random
    legal moves (not trained on), so that the lanes' games are at different stages (0: none)."""
    scalar_lanes: Any = None
    """Lanes played on the scalar engine, for opponents that are agents there (``heuristic``,
    ``ismcts:N``, ``ppo:PATH`` in ``opponents.mix``); null: the share of games that draw such an
    opponent, times ``n_envs`` (docs/training.md, "The vector trainer")."""


@dataclass
class TrainConfig:
    """One training run of MaskablePPO on one game."""

    trainer: str = "sb3"
    """sb3 (sb3-contrib's MaskablePPO on single-agent envs, training/train.py) or vector (batched
    self-play PPO on the batched engines, training/vector_ppo.py; Wizard, Go Big, Big Number)."""
    game: str = "gobig"
    """Env name as in ``deckzoo.envs.ENVS`` (``gobig`` or ``gobig_v0``)."""
    num_players: Any = None
    """Seats at the table (None: the game's default)."""
    game_options: dict = field(default_factory=dict)
    """Game options passed to ``Game(num_players, **game_options)``."""
    reward: str = "win"
    """win, score or dense (see training/single_agent.py)."""
    max_episode_steps: Any = None
    """Truncate a training episode after this many learner decisions (None: never)."""
    total_timesteps: int = 500_000
    """Budget in learner env steps (rounded up to whole rollouts)."""
    seed: int = 0
    """Seeds everything: torch, numpy, python, the envs and the evaluations."""
    n_envs: int = 2
    """Env copies stepped together (the policy runs on all of them in one batch)."""
    vec_env: str = "dummy"
    """dummy (all envs in this process) or subproc (one process per env)."""
    torch_threads: int = 1
    """torch intra-op threads. Small networks are far slower with more than one thread on a
    busy 2-core machine (see docs/training.md for the measurement)."""
    device: str = "cpu"
    checkpoint_every: int = 50_000
    """Steps between checkpoints (run_dir/checkpoint.pkl, written atomically)."""
    run_dir: str = "runs/{game}"
    """Output folder; ``{game}`` is replaced by the game name."""
    progress_bar: bool = True
    ppo: PPOConfig = field(default_factory=PPOConfig)
    opponents: OpponentConfig = field(default_factory=OpponentConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    vector: VectorConfig = field(default_factory=VectorConfig)

    @property
    def rollout_steps(self) -> int:
        return self.ppo.n_steps * self.n_envs

    def resolved_run_dir(self) -> Path:
        return Path(self.run_dir.replace("{game}", self.game))


# ---- reading and checking ---------------------------------------------------------------------
def _type_ok(value, tp) -> bool:
    if tp is Any:
        return True
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def _fill(cls, data: Any, where: str):
    if not isinstance(data, dict):
        raise ConfigError(f"config {where or 'file'}: expected a mapping, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        keys = ", ".join(repr(f"{where}{k}") for k in unknown)
        raise ConfigError(f"unknown config key {keys}; known keys{' in ' + where[:-1] if where else ''}: "
                          f"{', '.join(sorted(known))}")
    kwargs = {}
    for name, value in data.items():
        tp = hints[name]
        if dataclasses.is_dataclass(tp):
            kwargs[name] = _fill(tp, value, f"{where}{name}.")
            continue
        if not _type_ok(value, tp):
            raise ConfigError(f"config key '{where}{name}' must be {getattr(tp, '__name__', tp)}, got {value!r}")
        kwargs[name] = float(value) if tp is float else value
    return cls(**kwargs)


def _check(cfg: TrainConfig) -> None:
    import deckzoo.envs as E

    def bad(key, msg):
        raise ConfigError(f"config key {key!r} {msg}")

    try:
        env_name = E._canonical(cfg.game)
    except ConfigError as e:
        raise ConfigError(f"config key 'game': {e}") from None
    cfg.game = E.ENVS[env_name].Game.name
    if cfg.max_episode_steps is not None and not (_type_ok(cfg.max_episode_steps, int) and cfg.max_episode_steps > 0):
        bad("max_episode_steps", f"must be a positive int or null, got {cfg.max_episode_steps!r}")
    if cfg.num_players is not None and not _type_ok(cfg.num_players, int):
        bad("num_players", f"must be an int or null, got {cfg.num_players!r}")
    if cfg.reward not in ("win", "score", "dense"):
        bad("reward", f"must be win, score or dense, got {cfg.reward!r}")
    if cfg.vec_env not in ("dummy", "subproc"):
        bad("vec_env", f"must be dummy or subproc, got {cfg.vec_env!r}")
    if cfg.device not in ("cpu", "cuda", "auto"):
        bad("device", f"must be cpu, cuda or auto, got {cfg.device!r}")
    for key, v in [("total_timesteps", cfg.total_timesteps), ("n_envs", cfg.n_envs),
                   ("torch_threads", cfg.torch_threads), ("checkpoint_every", cfg.checkpoint_every),
                   ("ppo.n_steps", cfg.ppo.n_steps), ("ppo.batch_size", cfg.ppo.batch_size),
                   ("ppo.n_epochs", cfg.ppo.n_epochs), ("opponents.pool_size", cfg.opponents.pool_size),
                   ("opponents.snapshot_every", cfg.opponents.snapshot_every), ("eval.games", cfg.eval.games),
                   ("eval.max_steps", cfg.eval.max_steps)]:
        if v < 1:
            bad(key, f"must be >= 1, got {v}")
    if cfg.eval.every < 0 or cfg.eval.final_games < 0:
        bad("eval.every" if cfg.eval.every < 0 else "eval.final_games", "must be >= 0")
    if cfg.trainer not in ("sb3", "vector"):
        bad("trainer", f"must be sb3 or vector, got {cfg.trainer!r}")
    if cfg.trainer == "vector":
        _check_vector(cfg, env_name, bad)
    elif LEARNER in cfg.opponents.mix:
        bad(f"opponents.mix.{LEARNER}", "is a seat played by the learner itself: only trainer: "
            "vector has it")
    if cfg.trainer == "sb3" and cfg.rollout_steps % cfg.ppo.batch_size:
        bad("ppo.batch_size", f"must divide ppo.n_steps * n_envs = {cfg.rollout_steps}, got {cfg.ppo.batch_size}")
    if not cfg.ppo.net_arch or not all(_type_ok(h, int) and h > 0 for h in cfg.ppo.net_arch):
        bad("ppo.net_arch", f"must be a non-empty list of positive ints, got {cfg.ppo.net_arch!r}")
    if cfg.ppo.activation not in ("tanh", "relu"):
        bad("ppo.activation", f"must be tanh or relu, got {cfg.ppo.activation!r}")
    for key in ("learning_rate", "clip_range", "max_grad_norm"):
        if not getattr(cfg.ppo, key) > 0:
            bad(f"ppo.{key}", f"must be > 0, got {getattr(cfg.ppo, key)}")
    for key in ("gamma", "gae_lambda"):
        if not 0 <= getattr(cfg.ppo, key) <= 1:
            bad(f"ppo.{key}", f"must be in [0, 1], got {getattr(cfg.ppo, key)}")
    mix = cfg.opponents.mix
    if not mix or not all(isinstance(k, str) for k in mix):
        bad("opponents.mix", f"must map agent specs to weights, got {mix!r}")
    for k, w in mix.items():
        if not _type_ok(w, float) or w < 0:
            bad(f"opponents.mix.{k}", f"must be a number >= 0, got {w!r}")
    if sum(mix.values()) <= 0:
        bad("opponents.mix", "weights sum to 0")
    if not all(isinstance(s, str) for s in cfg.eval.opponents):
        bad("eval.opponents", f"must be a list of agent specs, got {cfg.eval.opponents!r}")
    pre = cfg.pretrain
    if pre.imitate is not None:
        from deckzoo.agents.registry import make_agent

        if not isinstance(pre.imitate, str):
            bad("pretrain.imitate", f"must be an agent spec (e.g. heuristic) or null, got {pre.imitate!r}")
        try:
            make_agent(pre.imitate, cfg.game, 0)
        except ConfigError as e:
            raise ConfigError(f"config key 'pretrain.imitate': {e}") from None
    for key in ("decisions", "epochs", "batch_size"):
        if getattr(pre, key) < 1:
            bad(f"pretrain.{key}", f"must be >= 1, got {getattr(pre, key)}")
    if pre.eval_games < 0:
        bad("pretrain.eval_games", f"must be >= 0, got {pre.eval_games}")
    if not 0 <= pre.holdout < 1:
        bad("pretrain.holdout", f"must be in [0, 1), got {pre.holdout}")
    if not pre.learning_rate > 0:
        bad("pretrain.learning_rate", f"must be > 0, got {pre.learning_rate}")
    # The game itself validates num_players and its options (its error names the key).
    game_cls = E.ENVS[env_name].Game
    try:
        game_cls(cfg.num_players, **cfg.game_options)
    except ConfigError as e:
        raise ConfigError(f"config key 'game_options'/'num_players': {e}") from None


def _check_vector(cfg: TrainConfig, env_name: str, bad) -> None:
    from deckzoo.envs import vector

    if env_name not in vector.available():
        bad("trainer", f"vector needs a batched engine; {cfg.game} has none (batched: "
            f"{', '.join(vector.available())})")
    if cfg.pretrain.imitate is not None:
        bad("pretrain.imitate", "is not supported by trainer: vector (it trains from scratch)")
    if cfg.max_episode_steps is not None:
        bad("max_episode_steps", "is not supported by trainer: vector (its games always end)")
    v = cfg.vector
    for key in ("anneal_lr", "norm_adv", "clip_vloss"):
        if not isinstance(getattr(v, key), bool):
            bad(f"vector.{key}", f"must be true or false, got {getattr(v, key)!r}")
    if not _type_ok(v.stagger, int) or v.stagger < 0:
        bad("vector.stagger", f"must be an int >= 0, got {v.stagger!r}")
    if v.target_kl is not None and not (_type_ok(v.target_kl, float) and v.target_kl > 0):
        bad("vector.target_kl", f"must be a number > 0 or null, got {v.target_kl!r}")
    lanes = v.scalar_lanes
    if lanes is not None and not (_type_ok(lanes, int) and 0 <= lanes <= cfg.n_envs):
        bad("vector.scalar_lanes", f"must be null or an int in [0, n_envs], got {lanes!r}")


def config_from_dict(data: dict) -> TrainConfig:
    cfg = _fill(TrainConfig, data or {}, "")
    _check(cfg)
    return cfg


def load_config(path: str | Path, overrides: dict | None = None) -> TrainConfig:
    """Read a YAML config; ``overrides`` (dotted keys, e.g. ``{"total_timesteps": 1000}``) win."""
    import yaml

    path = Path(path)
    if not path.exists():
        raise ConfigError(f"no config file {str(path)!r}")
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    for key, value in (overrides or {}).items():
        node = data
        *parents, last = key.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[last] = value
    try:
        return config_from_dict(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def config_to_dict(cfg: TrainConfig) -> dict:
    return dataclasses.asdict(cfg)


__all__ = [
    "EvalConfig",
    "OpponentConfig",
    "PPOConfig",
    "PretrainConfig",
    "TrainConfig",
    "config_from_dict",
    "config_to_dict",
    "load_config",
]
