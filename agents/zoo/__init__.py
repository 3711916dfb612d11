"""Reference policies shipped with deckzoo: the agent spec ``zoo:<game>``.

For every game the best policy trained so far is stored in this folder as ``<game>.npz``, a
deckzoo policy file (``deckzoo.agents.policy``: numpy arrays read with ``allow_pickle=False`` and
one JSON metadata string; loading it cannot run code). Its metadata records the game and its
configuration, the training configuration, the commands that reproduce it and its measured
strength (``benchmarks/zoo.py`` evaluates each as ``configs/zoo.yaml`` planned;
``benchmarks/results/zoo.md`` has the table). A policy plays in its file's mode (``extra.mode``:
greedy, the most likely legal action, unless the file says ``sample``) unless asked otherwise::

    import deckzoo.agents
    agent = deckzoo.agents.load("zoo:wizard")                 # an Agent for Wizard (4 players)
    deckzoo arena wizard --agents zoo:wizard,heuristic
    deckzoo play wizard --opponents zoo:wizard
    make_agent("zoo", "wizard")  /  make_agent("zoo:sample", "wizard")  /  "zoo:wizard:greedy"

A zoo policy was trained on one version of its game (``metadata(game)["env"]``, e.g.
``"bigwig_v0"``). When a game's version moves on (its rules, observation or decisions changed),
the shipped file is kept until it is retrained, but it no longer silently stands for the game:
``trained_for_current(game)`` is False, loading it warns with ``OtherVersionWarning`` naming both
versions, and the evaluation tables say which version each row was measured on.

A zoo policy was trained for its game's configuration (``metadata(game)["game_config"]``); in
another one (a different player count) the observation size differs and acting raises
``ConfigError``.

``install(policy_file, game, **extra)`` writes a policy file here with the extra metadata (how it
was made, how strong it is): the last step of producing a zoo policy.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from deckzoo.envs.core.errors import ConfigError

from ..policy import PolicyAgent, PolicyWeights, check_env_version, load_policy, save_policy
from ..registry import register_agent

FOLDER = Path(__file__).resolve().parent
MODES = ("greedy", "sample")


def path(game: str) -> Path:
    return FOLDER / f"{game}.npz"


def sha256(game: str) -> str:
    """The shipped file's sha256: ``zoo:GAME`` names a policy by game only, and the zoo replaces
    policies, so results that measured one record which file it was."""
    return hashlib.sha256(path(game).read_bytes()).hexdigest()


def available() -> list[str]:
    """Games that have a zoo policy."""
    return sorted(p.stem for p in FOLDER.glob("*.npz"))


@cache
def _load(game: str) -> tuple[PolicyWeights, str]:
    p = path(game)
    if not p.is_file():
        raise ConfigError(
            f"zoo: no reference policy for {game!r} (available: {', '.join(available()) or 'none'})"
        )
    weights, meta = load_policy(p)
    if meta.get("game") not in (None, game):
        raise ConfigError(f"zoo: {p.name} holds a policy for {meta.get('game')!r}, not {game!r}")
    return weights, json.dumps(meta)


def weights(game: str) -> PolicyWeights:
    """The policy's weights (loaded once per process and shared by every agent)."""
    return _load(game)[0]


def metadata(game: str) -> dict:
    """The policy file's metadata: game, game_config, training, extra (command, strength...)."""
    return json.loads(_load(game)[1])


def trained_on(game: str) -> str | None:
    """The versioned env the game's policy was trained on (``"bigwig_v0"``)."""
    return metadata(game).get("env")


def trained_for_current(game: str) -> bool:
    """Whether the shipped policy was trained on the game's current version."""
    import deckzoo.envs as E

    return trained_on(game) in (None, E.GAMES[game].env_name())


def default_mode(game: str) -> str:
    """How the game's policy plays unless told: ``greedy`` or ``sample`` (the file's ``mode``)."""
    return metadata(game)["extra"].get("mode") or "greedy"


class ZooAgent(PolicyAgent):
    """A shipped reference policy, in its file's mode unless ``deterministic`` is given."""

    name = "zoo"

    def __init__(self, game: str, seed: int | None = None, deterministic: bool | None = None):
        self.game_name = game
        if deterministic is None:
            deterministic = default_mode(game) == "greedy"
        self.version_warning = check_env_version(metadata(game), game, f"zoo:{game}")
        super().__init__(weights(game), seed, deterministic)

    def __repr__(self) -> str:
        return f"ZooAgent({self.game_name!r}, deterministic={self.deterministic})"


def make_zoo(game_name: str, seed: int | None, arg: str | None) -> ZooAgent:
    """``zoo``, ``zoo:sample``, ``zoo:<game>``, ``zoo:<game>:greedy`` (default: the file's mode)."""
    game, _, mode = (arg or game_name).partition(":")
    if game in MODES and not mode:
        game, mode = game_name, game
    if mode and mode not in MODES:
        raise ConfigError(f"zoo: mode must be greedy or sample, got {mode!r} in 'zoo:{arg}'")
    if game != game_name:
        raise ConfigError(f"zoo:{game} is a policy for {game}; this game is {game_name}")
    return ZooAgent(game, seed, deterministic=None if not mode else mode == "greedy")


def install(
    policy_file: str | Path,
    game: str,
    training: dict | None = None,
    game_config: dict | None = None,
    **extra,
) -> Path:
    """Copy a policy file into the zoo as ``<game>.npz``; ``training`` and ``game_config`` fill
    in what the file lacks (a MaskablePPO .zip has neither), ``extra`` is added to its metadata."""
    w, meta = load_policy(policy_file)
    if meta.get("game") not in (None, game):
        raise ConfigError(f"{policy_file} is a policy for {meta.get('game')!r}, not {game!r}")
    import deckzoo.envs as E

    env = meta.get("env") or next((k for k, m in E.ENVS.items() if m.Game.name == game), None)
    training = dict(meta.get("training") or training or {})
    training.pop("run_dir", None)  # a path on the machine that trained it
    out = save_policy(
        path(game),
        w,
        game=game,
        env=env,
        game_config=meta.get("game_config") or game_config,
        trainer=meta.get("trainer") or "deckzoo.training (MaskablePPO)",
        training=training or None,
        extra={**(meta.get("extra") or {}), **extra},
    )
    _load.cache_clear()
    return out


register_agent(
    "zoo", make_zoo, "zoo[:GAME][:sample|:greedy]: the reference policy shipped for the game"
)

__all__ = [
    "ZooAgent",
    "available",
    "default_mode",
    "install",
    "make_zoo",
    "metadata",
    "path",
    "trained_for_current",
    "trained_on",
    "weights",
]
