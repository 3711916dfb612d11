"""Training configuration: one documented dataclass, filled from YAML (configs/<game>.yaml).

Every field below has a default; a YAML file sets only what it changes. Unknown keys, wrong
types and out-of-range values raise ``ConfigError`` naming the key (``ppo.lerning_rate``): the
dataclasses are pydantic's, their annotations say each key's type and range.
``load_config(path)`` reads a file, ``config_from_dict(d)`` a dict, ``config_to_dict(cfg)`` is
the inverse (written to the run folder as ``config.yaml``).

Intervals (``checkpoint_every``, ``opponents.snapshot_every``, ``eval.every``) are in env
steps of the learner and are checked after each PPO rollout of ``ppo.n_steps * n_envs`` steps,
so an event happens at the first rollout boundary at or after each multiple of its interval.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
)
from pydantic.dataclasses import dataclass as pydantic_dataclass

from deckzoo.envs.core.errors import ConfigError, closest

from .opponents import EXPLOITER, LEARNER, OpponentMix

SECTIONS = ("ppo", "opponents", "eval", "pretrain", "vector", "rllib")  # the nested dataclasses


class ConfigKeyError(ConfigError):
    """A bad value of one config key; ``key`` is its dotted name (``ppo.learning_rate``), so that
    ``load_config`` can blame the ``--set`` that gave it rather than the file."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(message)


# Types and ranges are pydantic's (no coercion between types but int to float; no inf or nan);
# unknown keys are refused. Checks that involve several keys or the game are in ``_check``.
dataclass = pydantic_dataclass(config=ConfigDict(extra="forbid", allow_inf_nan=False))
Count = Annotated[StrictInt, Field(ge=1)]
NonNegative = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictFloat, Field(gt=0)]
NonNegativeFloat = Annotated[StrictFloat, Field(ge=0)]
Share = Annotated[StrictFloat, Field(ge=0, le=1)]


@dataclass
class PPOConfig:
    """sb3-contrib MaskablePPO hyper-parameters (their meaning is SB3's)."""

    learning_rate: Positive = 3e-4
    """Adam step size (constant, so that a resumed run continues exactly)."""
    n_steps: Count = 512
    """Env steps collected per env before each update; a rollout is ``n_steps * n_envs`` steps."""
    batch_size: Count = 256
    """Minibatch size; must divide ``n_steps * n_envs``."""
    n_epochs: Count = 4
    """Passes over each rollout."""
    gamma: Share = 0.99
    """Discount per learner decision."""
    gae_lambda: Share = 0.95
    clip_range: Positive = 0.2
    ent_coef: NonNegativeFloat = 0.01
    """Entropy bonus: keeps the policy stochastic while the opponent pool changes."""
    vf_coef: NonNegativeFloat = 0.5
    max_grad_norm: Positive = 0.5
    net_arch: Annotated[list[Annotated[StrictInt, Field(gt=0)]], Field(min_length=1)] = field(
        default_factory=lambda: [128, 128]
    )
    """Hidden layer sizes, used for both the actor and the critic (separate networks)."""
    activation: Literal["tanh", "relu"] = "tanh"
    """tanh or relu."""


@dataclass
class ExploiterConfig:
    """Exploiters in the pool (``trainer: vector``, training/league.py): every so often a best
    response is trained against the learner as it is then, frozen in every other seat (the
    exploitability harness's machinery), and joins the pool as a frozen member. A policy tuned
    to the opponents it meets is brittle; an exploiter is an opponent made to find its
    weaknesses. The mix key ``exploiter`` gives exploiters their share of seats."""

    every: Count | None = None
    """Learner steps between exploiter rounds (null: by CPU seconds only). A round happens at the
    first rollout boundary at or after each multiple; none at step 0."""
    every_cpu_seconds: Positive | None = None
    """Also a round at the first rollout boundary after each multiple of this many of the
    learner's own training CPU seconds (the exploiters' excluded); null: steps only."""
    cpu_budget: Positive = 60.0
    """Training CPU seconds of each exploiter, counted against the run's own ``cpu_budget``: the
    budget is the whole run's cost. No round starts with less than this left of it."""
    steps: Count | None = None
    """Also stop each exploiter at this many of its own learner steps (whichever comes first);
    where the steps end it, the exploiter (and so the run) is bit-reproducible."""
    keep: Count = 4
    """Exploiters drawable from the pool; the oldest is dropped beyond this."""
    init: Literal["scratch", "learner"] = "learner"
    """Where each exploiter starts: ``learner``, the learner's own actor and critic at that
    moment (it starts at the learner's level and spends its budget on the exploitation), or
    ``scratch``, a fresh network."""
    deterministic: StrictBool = True
    """Exploiters play greedy (the most likely legal action) in the pool and in their
    measurement: a best response needs no mixing. false: they sample their policy."""
    games: Count = 200
    """Games of each new exploiter against P-1 copies of the learner it was trained against
    (sampled, as it plays in training), for its win share in eval.csv and summary.json: how
    exploitable the learner was at that point. Evaluation CPU, not counted in the budget."""


@dataclass
class OpponentConfig:
    """Who sits in the other seats while the learner trains (drawn per seat, per episode)."""

    mix: dict = field(default_factory=lambda: {"random": 0.5, "pool": 0.5})
    """``{spec: weight}``: agent specs (random, heuristic, ppo:PATH, ...) and the self-play keys
    ``pool`` (a uniformly drawn past snapshot of the learner) and ``latest`` (the newest one);
    with ``exploiters``, ``exploiter`` (a uniformly drawn exploiter; a pool snapshot until the
    first is made). A game without a heuristic agent plays ``random`` in its place (a warning
    says so)."""
    pool_size: Count = 20
    """Snapshots kept in the pool; the oldest is dropped beyond this."""
    snapshot_every: Count = 20_000
    """Steps between snapshots of the learner added to the pool (one is taken at step 0)."""
    exploiters: ExploiterConfig | None = None
    """Best responses to the learner trained during the run and added to the pool (vector
    trainer; ``ExploiterConfig``); the mix key ``exploiter`` seats them. null: none."""


@dataclass
class EvalConfig:
    """Periodic evaluation on the engine: the learner in every seat in turn, against baselines."""

    every: NonNegative = 50_000
    """Steps between evaluations (0: only the final one)."""
    every_cpu_seconds: Positive | None = None
    """Also evaluate at the first rollout boundary after each multiple of this many training CPU
    seconds (for curves against CPU time, as the exploitability harness draws); null: steps only."""
    games: Count = 200
    """Games per opponent at each periodic evaluation."""
    final_games: NonNegative = 1000
    """Games per opponent in the final evaluation (summary.json)."""
    final_seed: NonNegative | None = None
    """Seed of the final evaluation's games (int), fixed in the config before the run so that the
    evaluation is pre-registered (its games are seeded from it, the final step and the opponent);
    null: ``seed`` instead."""
    opponents: list[StrictStr] = field(default_factory=lambda: ["random", "heuristic"])
    """Opponent specs; each evaluation seats the learner against P-1 copies of each."""
    deterministic: StrictBool = True
    """Evaluate the greedy policy (most likely legal action) rather than sampling it."""
    engine: Literal["auto", "scalar", "batched"] = "auto"
    """Where the evaluation games are played, as the arena's ``--engine``: ``auto`` plays them
    many at once (the learner's rows in one forward pass) wherever the opponent has a batched
    form, ``scalar`` one game at a time. The same games either way."""


@dataclass
class PretrainConfig:
    """Behaviour cloning before PPO (training/pretrain.py): the policy first imitates an agent."""

    imitate: StrictStr | None = None
    """Agent spec to imitate (``heuristic`` or any ``make_agent`` spec); null: no pretraining."""
    decisions: Count = 100_000
    """Decisions to record (whole games, every seat, until at least this many)."""
    holdout: Annotated[StrictFloat, Field(ge=0, lt=1)] = 0.1
    """Share of the recorded games held out to measure the imitation accuracy (0 <= holdout < 1)."""
    epochs: Count = 5
    """Passes over the recorded decisions."""
    batch_size: Count = 512
    learning_rate: Positive = 1e-3
    """Adam step size of the cloning (its own optimiser; PPO's starts fresh afterwards)."""
    value: StrictBool = True
    """Also fit the value head to the imitated agent's discounted returns (``ppo.gamma``, the
    run's ``reward``), so that PPO's first advantages are sane."""
    eval_games: NonNegative = 200
    """Games per ``eval.opponents`` entry to evaluate the cloned policy before PPO (0: none)."""


@dataclass
class VectorConfig:
    """Keys of the vector trainer only (``trainer: vector``, training/vector_ppo.py). It reads the
    shared keys too: ``n_envs`` is its number of lanes (games played at once), ``ppo.n_steps`` the
    decisions per lane in a rollout, ``ppo.batch_size`` the minibatch size (rounded so that whole
    minibatches cover the rollout), and every other ``ppo.*`` key has PPO's usual meaning."""

    anneal_lr: StrictBool = True
    """Decay the learning rate linearly from ``ppo.learning_rate`` to 0 over ``total_timesteps``."""
    norm_adv: StrictBool = True
    """Normalise the advantages of each minibatch to mean 0 and standard deviation 1."""
    clip_vloss: StrictBool = True
    """Clip the value update around the rollout's values with ``ppo.clip_range`` (as PPO2 and
    CleanRL do)."""
    stagger: NonNegative = 1000
    """Before the first rollout, lane ``i`` plays a uniformly random number below this of random
    legal moves (not trained on), so that the lanes' games are at different stages (0: none)."""
    scalar_lanes: NonNegative | None = None
    """Lanes played on the scalar engine, for opponents that are agents there (``heuristic``,
    ``ismcts:N``, ``ppo:PATH`` in ``opponents.mix``); null: the share of games that draw such an
    opponent, times ``n_envs`` (docs/training.md, "The vector trainer")."""
    features: StrictStr | None = None
    """Input features appended to the observation before the network (``deckzoo.agents.features``,
    e.g. ``wizard``): fixed functions of the observation that the saved policy names, so that
    ``ppo:PATH`` applies them too; null: the observation alone."""
    batched_agents: StrictBool = True
    """Seat the agents that have a batched twin (``deckzoo.agents.batched``: the Wizard, Go Big,
    Big Number and BigWig heuristics) in batched lanes, deciding all of them in one call, instead
    of on the scalar engine; they make the same moves (Go Big's ties and BigWig's sampled tricks
    drawn from the lanes' generator).
    false: every agent plays on the scalar engine (as runs made before this key did)."""
    init: StrictStr | None = None
    """A policy the run starts from instead of a fresh network (``zoo:GAME``, ``ppo:PATH``):
    its actor, and its critic where a vector run's checkpoint beside the file holds the same
    actor. ``ppo.net_arch``, ``ppo.activation`` and ``vector.features`` must be the policy's.
    Why: to go on training a policy, e.g. one made on an earlier version of the game, without
    relearning the game first. A resumed run keeps its own weights. null: a fresh network."""
    value_warmup: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.05
    """With ``init`` and no critic beside it: the share of ``cpu_budget`` that trains the critic
    alone, the actor frozen (advantages from an untrained critic would walk the actor away from
    its start). Needs ``cpu_budget``; 0: none."""


@dataclass
class RLlibConfig:
    """Keys of the RLlib trainer only (``trainer: rllib``, training/rllib.py; docs/distributed.md).

    It reads the shared keys too: ``ppo.*`` (learning_rate, n_epochs, batch_size as the
    minibatch size, gamma, gae_lambda, clip_range, ent_coef, vf_coef, max_grad_norm, net_arch,
    activation), ``opponents.mix`` with the keys ``learner`` (another seat of the policy being
    trained), ``pool`` (a frozen snapshot) and ``random``, ``opponents.pool_size`` and
    ``snapshot_every``, ``eval.*``, ``checkpoint_every``, ``seed`` and ``torch_threads``. Its
    ``total_timesteps`` and intervals count env steps: the decisions of every seat."""

    env_runners: NonNegative = 1
    """Ray actors that play the games (0: the driver plays them itself)."""
    envs_per_runner: Count = 4
    """Games each env runner steps at once (one batched forward pass for all of them)."""
    train_batch_size: Count = 4000
    """Env steps collected per training iteration (all seats)."""
    address: Annotated[StrictStr, Field(min_length=1)] | None = None
    """null: start a local Ray instance of ``num_cpus`` CPUs; ``auto`` or ``HOST:PORT``: join
    that cluster (``deckzoo train --address``)."""
    num_cpus: Count | None = None
    """CPUs of the local Ray instance (null: ``max(env_runners, 1)``)."""
    ship_code: StrictBool = True
    """When joining a cluster, send this deckzoo's code with the job (Ray ``runtime_env``), so
    the nodes need only Ray and deckzoo's dependencies installed."""


@dataclass
class TrainConfig:
    """One training run of MaskablePPO on one game."""

    trainer: Literal["sb3", "vector", "rllib"] = "sb3"
    """sb3 (sb3-contrib's MaskablePPO on single-agent envs, training/sb3.py), vector (batched
    self-play PPO, training/vector_ppo.py: on the batched engines, and on scalar lanes for a game
    without one, as Midgard) or
    rllib (RLlib's PPO, one policy for every seat, on a local Ray instance or a cluster,
    training/rllib.py)."""
    game: StrictStr = "gobig"
    """Env name as in ``deckzoo.envs.ENVS`` (``gobig`` or ``gobig_v0``)."""
    num_players: StrictInt | None = None
    """Seats at the table (None: the game's default)."""
    game_options: dict = field(default_factory=dict)
    """Game options passed to ``Game(num_players, **game_options)``."""
    reward: Literal["win", "score", "dense"] = "win"
    """win, score or dense (see training/single_agent.py)."""
    max_episode_steps: Count | None = None
    """Truncate a training episode after this many learner decisions (None: never)."""
    total_timesteps: Count = 500_000
    """Budget in learner env steps (rounded up to whole rollouts)."""
    cpu_budget: Positive | None = None
    """A second budget, in CPU seconds of training (collection and updates; evaluations and
    checkpoints excluded): the run stops at the first rollout boundary at which it is spent, or
    at ``total_timesteps``, whichever comes first. With ``vector.anneal_lr`` the vector trainer
    anneals over whichever budget is further used. The stopping point (and so that schedule)
    follows the clock: two runs with one seed agree step for step only up to where their clocks
    differ, so leave it null for bit-reproducible runs. null: steps only."""
    seed: StrictInt = 0
    """Seeds everything: torch, numpy, python, the envs and the evaluations."""
    n_envs: Count = 2
    """Env copies stepped together (the policy runs on all of them in one batch)."""
    vec_env: Literal["dummy", "subproc"] = "dummy"
    """dummy (all envs in this process) or subproc (one process per env)."""
    torch_threads: Count = 1
    """torch intra-op threads. Small networks are far slower with more than one thread on a
    busy 2-core machine (see docs/training.md for the measurement)."""
    device: Literal["cpu", "cuda", "auto"] = "cpu"
    checkpoint_every: Count = 50_000
    """Steps between checkpoints (run_dir/checkpoint.pkl, written atomically)."""
    run_dir: StrictStr = "runs/{game}"
    """Output folder; ``{game}`` is replaced by the game name."""
    progress_bar: StrictBool = True
    ppo: PPOConfig = field(default_factory=PPOConfig)
    opponents: OpponentConfig = field(default_factory=OpponentConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    vector: VectorConfig = field(default_factory=VectorConfig)
    rllib: RLlibConfig = field(default_factory=RLlibConfig)

    @property
    def rollout_steps(self) -> int:
        return self.ppo.n_steps * self.n_envs

    def resolved_run_dir(self) -> Path:
        return Path(self.run_dir.replace("{game}", self.game))


# ---- reading and checking ---------------------------------------------------------------------
OPTIONAL_SECTIONS = {"exploiters": ExploiterConfig}  # sections whose default is null (off)
BOUNDS = {
    "greater_than": ">",
    "greater_than_equal": ">=",
    "less_than": "<",
    "less_than_equal": "<=",
}


def _key_error(e: ValidationError) -> ConfigKeyError:
    """pydantic's first error as a ``ConfigKeyError`` naming the dotted key (``eval.opponents[1]``);
    every unknown key of the same section at once, with the section's known keys."""
    errors = e.errors()
    unknown = [x["loc"] for x in errors if x["type"] == "unexpected_keyword_argument"]
    if unknown:
        section = unknown[0][:-1]
        locs = [loc for loc in unknown if loc[:-1] == section]
        keys = [_dotted(loc) for loc in locs]
        node = TrainConfig()
        for name in section:
            node = getattr(node, name)
            if node is None:  # a section that is off by default (null): its keys all the same
                node = OPTIONAL_SECTIONS[name]()
        fields = sorted(f.name for f in dataclasses.fields(node))
        known = ", ".join(fields)
        where = f" in {_dotted(section)}" if section else ""
        listed = ", ".join(
            repr(k) + (f" (did you mean {c!r}?)" if (c := closest(loc[-1], fields)) else "")
            for k, loc in zip(keys, locs)
        )
        return ConfigKeyError(keys[0], f"unknown config key {listed}; known keys{where}: {known}")
    x = errors[0]
    key = _dotted(x["loc"])
    if x["type"] in BOUNDS:
        what = f"must be {BOUNDS[x['type']]} {next(iter(x['ctx'].values()))}"
    else:
        what = x["msg"][0].lower() + x["msg"][1:]
    return ConfigKeyError(key, f"config key {key!r}: {what}, got {x['input']!r}")


def _dotted(loc: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _check(cfg: TrainConfig) -> None:
    """What the types cannot say: the game and its options, agent specs, and the keys that depend
    on each other or on the trainer."""
    import deckzoo.envs as E

    def bad(key, msg):
        raise ConfigKeyError(key, f"config key {key!r} {msg}")

    try:
        env_name = E.canonical(cfg.game)
    except ConfigError as e:
        raise ConfigKeyError("game", f"config key 'game': {e}") from None
    cfg.game = E.ENVS[env_name].Game.name
    if cfg.device == "cuda" and not _cuda_available():
        bad("device", "is cuda, but torch sees no GPU here; use cpu (or auto: a GPU if any)")
    if cfg.trainer == "vector":
        _check_vector(cfg, env_name, bad)
    elif cfg.trainer == "rllib":
        _check_rllib(cfg, bad)
    elif LEARNER in cfg.opponents.mix:
        bad(f"opponents.mix.{LEARNER}", "is a seat of the learner itself: trainer sb3 has none")
    _check_exploiters(cfg, bad)
    if cfg.trainer != "rllib" and cfg.rllib.address is not None:
        bad("rllib.address", "(deckzoo train --address) needs trainer rllib")
    if cfg.trainer == "sb3" and cfg.rollout_steps % cfg.ppo.batch_size:
        bad(
            "ppo.batch_size",
            f"must divide ppo.n_steps * n_envs = {cfg.rollout_steps}, got {cfg.ppo.batch_size}",
        )
    for k in OpponentMix.parse(cfg.opponents.mix).agent_specs():
        _check_spec(k, cfg.game, f"opponents.mix.{k}")
    for i, spec in enumerate(cfg.eval.opponents):
        _check_spec(spec, cfg.game, f"eval.opponents[{i}]")
    if cfg.pretrain.imitate is not None:
        from deckzoo.agents.registry import make_agent

        try:
            make_agent(cfg.pretrain.imitate, cfg.game, 0)
        except ConfigError as e:
            key = "pretrain.imitate"
            raise ConfigKeyError(key, f"config key {key!r}: {e}") from None
    # The game itself validates num_players and its options (its error names the key).
    try:
        E.ENVS[env_name].Game(cfg.num_players, **cfg.game_options)
    except ConfigError as e:
        key = "num_players" if "num_players" in str(e) else "game_options"
        raise ConfigKeyError(key, f"config key 'game_options'/'num_players': {e}") from None


def _check_exploiters(cfg: TrainConfig, bad) -> None:
    """Exploiters are the vector trainer's, need a schedule, and a share of the mix needs them."""
    x = cfg.opponents.exploiters
    if x is None:
        if EXPLOITER in cfg.opponents.mix:
            bad(
                f"opponents.mix.{EXPLOITER}",
                "gives exploiters a share, but opponents.exploiters makes none (null)",
            )
        return
    if cfg.trainer != "vector":
        bad("opponents.exploiters", f"needs trainer vector, got trainer {cfg.trainer}")
    if x.every is None and x.every_cpu_seconds is None:
        bad(
            "opponents.exploiters",
            "has no schedule: set every (learner steps) or every_cpu_seconds (or both)",
        )
    if cfg.cpu_budget is not None and x.cpu_budget >= cfg.cpu_budget:
        bad(
            "opponents.exploiters.cpu_budget",
            f"must be below the run's cpu_budget ({cfg.cpu_budget}): no round could start, "
            f"got {x.cpu_budget}",
        )


def _check_spec(spec: str, game: str, key: str) -> None:
    """An opponent spec must name an agent (checked before training, not at the first use).
    ``heuristic`` is always accepted: a game without one plays or skips it with a warning."""
    from deckzoo.agents.registry import make_agent

    if spec == "heuristic":
        return
    try:
        make_agent(spec, game, 0)
    except ConfigError as e:
        raise ConfigKeyError(key, f"config key {key!r}: {e}") from None


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


RLLIB_MIX = (LEARNER, "pool", "random")


def _check_rllib(cfg: TrainConfig, bad) -> None:
    r = cfg.rllib
    if cfg.ppo.batch_size > r.train_batch_size:
        bad(
            "ppo.batch_size",
            f"(the minibatch) must be at most rllib.train_batch_size = "
            f"{r.train_batch_size}, got {cfg.ppo.batch_size}",
        )
    for key in cfg.opponents.mix:
        if key not in RLLIB_MIX:
            bad(
                f"opponents.mix.{key}",
                f"is not an RLlib seat: trainer rllib plays "
                f"{', '.join(RLLIB_MIX)} (its policies see observations, not the engine)",
            )
    if cfg.pretrain.imitate is not None:
        bad("pretrain.imitate", "is not supported by trainer rllib")
    if cfg.max_episode_steps is not None:
        bad("max_episode_steps", "is not supported by trainer rllib")


def _check_vector(cfg: TrainConfig, env_name: str, bad) -> None:
    if cfg.pretrain.imitate is not None:
        bad("pretrain.imitate", "is not supported by trainer: vector (it trains from scratch)")
    if cfg.max_episode_steps is not None:
        bad("max_episode_steps", "is not supported by trainer: vector (its games always end)")
    v = cfg.vector
    if v.features is not None:
        from deckzoo.agents import features

        known = features.names(cfg.game)
        if v.features not in known:
            bad(
                "vector.features",
                f"must be null or a feature set of {cfg.game} ({', '.join(known) or 'none'}), "
                f"got {v.features!r}",
            )
    if v.init is not None:
        _check_init(cfg, bad)
    if v.scalar_lanes is not None and v.scalar_lanes > cfg.n_envs:
        bad("vector.scalar_lanes", f"must be null or at most n_envs, got {v.scalar_lanes!r}")


def _check_init(cfg: TrainConfig, bad) -> None:
    """``vector.init`` must name a policy network that fits the game and the configured network."""
    import deckzoo.envs as E
    from deckzoo.training.exploit_init import check_fits, resolve_start

    try:
        start = resolve_start(cfg.vector.init, cfg.game)
    except ConfigError as e:
        bad("vector.init", f"cannot be started from: {e}")
    try:
        game = E.ENVS[E.canonical(cfg.game)].Game(cfg.num_players, **cfg.game_options)
    except ConfigError:
        return  # the game's own options are wrong: the check of game_options says so
    try:
        check_fits(start, game)
    except ConfigError as e:
        bad("vector.init", f"cannot be started from: {e}")
    w = start.weights
    arch = [int(a.shape[1]) for a, _ in w.hidden]
    features = None if w.features is None else w.features.name
    mine = (list(cfg.ppo.net_arch), cfg.ppo.activation, cfg.vector.features)
    if mine != (arch, w.activation, features):
        bad(
            "vector.init",
            f"is a network of hidden sizes {arch}, activation {w.activation} and features "
            f"{features}; the config's ppo.net_arch, ppo.activation and vector.features are "
            f"{mine[0]}, {mine[1]} and {mine[2]}: set them to the policy's",
        )
    if start.critic is None and cfg.vector.value_warmup and cfg.cpu_budget is None:
        bad(
            "vector.value_warmup",
            f"is a share of cpu_budget, which is null; {cfg.vector.init} comes without a "
            "critic, so set cpu_budget (or vector.value_warmup: 0 to train the fresh critic "
            "with the actor)",
        )


def config_from_dict(data: dict | None) -> TrainConfig:
    if not isinstance(data or {}, dict):
        raise ConfigKeyError("", f"config: expected a mapping, got {type(data).__name__}")
    try:
        cfg = TrainConfig(**(data or {}))
    except ValidationError as e:
        raise _key_error(e) from None
    _check(cfg)
    return cfg


def load_config(
    path: str | Path, overrides: dict | None = None, sources: dict | None = None
) -> TrainConfig:
    """Read a YAML config; ``overrides`` (dotted keys, e.g. ``{"total_timesteps": 1000}``) win.

    ``path`` is a file, or the name of a shipped config (``gobig``: ``cli_args.config_path``).
    An error in an overridden key is blamed on the override: ``sources`` maps a dotted key to what
    the user typed (``--set ppo.learning_rate=abc``, ``--steps 0``); other errors name the file
    (and, for bad YAML, the line and column)."""
    from deckzoo.agents.cli_args import config_path, load_yaml

    path = config_path(path)
    data = load_yaml(read_config_text(path), str(path)) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config keys at the top level")
    sources = dict(sources or {})
    for key, value in (overrides or {}).items():
        source = sources.setdefault(key, f"override {key}={value!r}")
        node = data
        *parents, last = key.split(".")
        for i, p in enumerate(parents):
            node = node.setdefault(p, {})
            if not isinstance(node, dict):
                section = ".".join(parents[: i + 1])
                raise ConfigError(f"{source}: {section!r} is not a section of the config")
        node[last] = value
    try:
        return config_from_dict(data)
    except ConfigKeyError as e:
        for key, source in sources.items():
            if e.key == key or e.key.startswith(key + ".") or e.key.startswith(key + "["):
                raise ConfigError(f"{source}: {e}") from None
        raise ConfigError(f"{path}: {e}") from None
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def read_config_text(path: Path) -> str:
    """The text of a config file; a file that cannot be read, or is not UTF-8 text (a binary file
    given by mistake), is one ``ConfigError`` line rather than a traceback."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{path}: not a YAML config (not UTF-8 text: byte {e.object[e.start]:#04x} at "
            f"offset {e.start})"
        ) from None
    except OSError as e:
        raise ConfigError(f"cannot read config {str(path)!r}: {e.strerror or e}") from None


def config_to_dict(cfg: TrainConfig) -> dict:
    return dataclasses.asdict(cfg)


__all__ = [
    "ConfigKeyError",
    "EvalConfig",
    "ExploiterConfig",
    "OpponentConfig",
    "PPOConfig",
    "PretrainConfig",
    "RLlibConfig",
    "TrainConfig",
    "config_from_dict",
    "config_to_dict",
    "load_config",
]
