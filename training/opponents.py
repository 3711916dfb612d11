"""Who sits across the table: the opponent mix every trainer draws seats from, and the evaluation
against baseline agents every trainer runs.

``OpponentMix`` is ``opponents.mix``, ``{key: weight}``: agent specs (random, heuristic,
ppo:PATH, ...) and the self-play keys ``pool`` (a uniformly drawn snapshot of the learner),
``latest`` (the newest) and, for the vector and RLlib trainers, ``learner`` (the learner itself);
the vector trainer also knows ``exploiter`` (a best response to the learner, training/league.py).
The single-agent env (``single_agent.py``), the vector trainer's lanes (``vector_lanes.py``) and the
RLlib seat mapping (``rllib.py``) all draw a seat's key with ``draw``/``draw_indices``: one
``Generator.choice`` over the keys in the order given, with the normalised weights, so the same
generator state seats the same line-up in every trainer.

``evaluate`` plays the learner in every seat in turn against fresh copies of one baseline and
reports its win share with a 95% Wilson interval (``deckzoo.agents.evaluation.stats``, the arena's
statistics); ``evaluate_opponents`` does so for each ``eval.opponents`` entry, its games seeded by
(seed, step, opponent index) so that every trainer's evaluation at a step plays the same games.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

import numpy as np

from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.evaluation.stats import wilson_interval, win_credit
from deckzoo.agents.registry import has_heuristic, make_agent

if TYPE_CHECKING:  # (the config, and pydantic with it, is not needed by the single-agent env)
    from .config import TrainConfig

log = logging.getLogger("deckzoo.training")

LEARNER = "learner"  # the mix key of a seat played (and trained) by the learner itself
EXPLOITER = "exploiter"  # the mix key of a seat played by an exploiter (training/league.py)
SELF_PLAY_KEYS = ("pool", "latest", LEARNER, EXPLOITER)  # mix keys that are not agent specs


class OpponentMix:
    """``{key: weight}`` with its keys in order and their probabilities (weights / their sum)."""

    def __init__(self, weights: dict):
        self.weights = {k: float(w) for k, w in weights.items()}
        self.keys = list(self.weights)
        w = np.array([self.weights[k] for k in self.keys], dtype=np.float64)
        self.p = w / w.sum() if len(w) else w

    @classmethod
    def parse(cls, weights, key: str = "opponents.mix", what: str = "config key") -> OpponentMix:
        """A mix given by a user: errors name the entry (``ConfigKeyError``: ``key.entry``)."""
        from .config import ConfigKeyError

        if not isinstance(weights, dict) or not weights:
            raise ConfigKeyError(key, f"{what} {key!r} must map agent specs to weights (empty)")
        for k, w in weights.items():
            if not isinstance(k, str):
                raise ConfigKeyError(key, f"{what} {key!r}: mix keys are agent specs, got {k!r}")
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not w >= 0:
                raise ConfigKeyError(
                    f"{key}.{k}",
                    f"{what} '{key}.{k}': weight of {k!r} must be a finite number >= 0, got {w!r}",
                )
            if not math.isfinite(w):
                raise ConfigKeyError(
                    f"{key}.{k}", f"{what} '{key}.{k}' must be a finite number >= 0, got {w!r}"
                )
        if sum(weights.values()) <= 0:
            raise ConfigKeyError(key, f"{what} {key!r}: the weights sum to 0")
        return cls(weights)

    @classmethod
    def of(cls, mix: OpponentMix | dict) -> OpponentMix:
        return mix if isinstance(mix, OpponentMix) else cls(mix)

    @classmethod
    def of_config(cls, cfg: TrainConfig) -> OpponentMix:
        """``opponents.mix`` for the game: without a heuristic agent, its weight goes to random."""
        mix = dict(cfg.opponents.mix)
        if "heuristic" in mix and not has_heuristic(cfg.game):
            log.warning("%s has no heuristic agent: its opponent weight goes to random", cfg.game)
            mix["random"] = mix.get("random", 0.0) + mix.pop("heuristic")
        return cls(mix)

    def __len__(self) -> int:
        return len(self.keys)

    def agent_specs(self) -> list[str]:
        """The keys that name agents (not the self-play keys)."""
        return [k for k in self.keys if k not in SELF_PLAY_KEYS]

    def draw_indices(self, rng: np.random.Generator, size=None):
        """Indices into ``keys`` drawn with the mix's probabilities."""
        return rng.choice(len(self.keys), size=size, p=self.p)

    def draw(self, rng: np.random.Generator) -> str:
        return self.keys[int(self.draw_indices(rng))]

    def split(self, batched_keys) -> tuple[OpponentMix, OpponentMix]:
        """``(the part in batched_keys, the rest)``, each without its zero weights."""
        batched = {k: w for k, w in self.weights.items() if k in batched_keys and w > 0}
        rest = {k: w for k, w in self.weights.items() if k not in batched and w > 0}
        return OpponentMix(batched), OpponentMix(rest)

    def __add__(self, other: OpponentMix) -> OpponentMix:
        return OpponentMix({**self.weights, **other.weights})

    def total(self) -> float:
        return sum(self.weights.values())


def eval_opponents(cfg: TrainConfig) -> list[str]:
    """``eval.opponents`` for the game: without a heuristic agent, evaluation against it is
    skipped (a warning says so)."""
    out = []
    for spec in cfg.eval.opponents:
        if spec == "heuristic" and not has_heuristic(cfg.game):
            log.warning("%s has no heuristic agent yet: evaluation against it is skipped", cfg.game)
            continue
        out.append(spec)
    return out


def derive_seed(*keys: int) -> int:
    """A seed derived from integers, stable across processes and Python versions."""
    return int(np.random.SeedSequence(list(keys)).generate_state(1, np.uint64)[0] >> 1)


def evaluate(agent, game, opponent: str, games: int, seed: int, engine: str = "auto") -> dict:
    """Play ``games`` games on the engine: ``agent`` in seat g mod P of game g, fresh ``opponent``
    agents elsewhere. Returns the agent's win share (ties split) with its 95% Wilson interval. A
    game the engine cuts off at its declared cap (``max_game_length``: Midgard's
    ``max_decisions``, where a greedy policy can cycle through cancellable decisions) counts as a
    loss; ``abandoned`` says how many.

    The games are the arena's (``deckzoo.agents.evaluation``): a policy learner and opponents
    with batched forms play many games at once, one forward pass for all the learner's rows;
    ``engine`` as the arena's (``scalar``: one game at a time). Either way game g has the same
    deal and opponent seeds."""
    from deckzoo.agents.evaluation.batched import choose_engine, play_batched
    from deckzoo.agents.evaluation.forms import BatchedForm, PolicyRows

    n = game.num_players
    rng = np.random.default_rng(seed)
    agent.seed(int(rng.integers(2**63)))
    tasks = []
    for g in range(games):
        specs = [opponent] * n
        specs[g % n] = LEARNER
        agent_seeds = [int(x) for x in rng.integers(2**63, size=n)]
        game_seed = int(rng.integers(2**63))
        tasks.append(
            {
                "index": g,
                "seed": game_seed,
                "seats": specs,
                "specs": specs,
                "agent_seeds": agent_seeds,
            }
        )
    forms = {}
    if getattr(agent, "weights", None) is not None:
        rows = PolicyRows(agent.weights, bool(agent.deterministic))
        forms[LEARNER] = BatchedForm(LEARNER, rows, bool(agent.deterministic))
    mode = "scalar"
    if forms:
        mode, _ = choose_engine(game, [LEARNER, opponent], engine, forms)
    if mode == "batched":
        records = list(play_batched(tasks, game, seed=int(rng.integers(2**63)), forms=forms))
    else:
        records = [_play_scalar(agent, game, t) for t in tasks]
    return _evaluation_row(records, opponent, games, n)


def _play_scalar(agent, game, task: dict) -> dict:
    seat = task["specs"].index(LEARNER)
    agents = [
        agent if s == LEARNER else make_agent(s, type(game).name, sd)
        for s, sd in zip(task["specs"], task["agent_seeds"])
    ]
    result = play_match(game, agents, task["seats"], task["seed"])
    return {
        "index": task["index"],
        "specs": task["specs"],
        "winners": result.winners,
        "steps": result.steps,
        "truncated": result.truncated,
        "learner_seat": seat,
    }


def _evaluation_row(records: list[dict], opponent: str, games: int, n: int) -> dict:
    total, steps, abandoned = 0.0, 0, 0
    for r in records:
        steps += r["steps"]
        if r["truncated"]:
            abandoned += 1
        else:
            total += win_credit(r["winners"], r["specs"].index(LEARNER))
    lo, hi = wilson_interval(total, games)
    return {
        "opponent": opponent,
        "games": games,
        "win_share": total / games if games else 0.0,
        "ci_low": lo,
        "ci_high": hi,
        "uniform": 1.0 / n,
        "steps_per_game": steps / max(games, 1),
        "abandoned": abandoned,
    }


def evaluate_opponents(
    agent,
    game,
    opponents: list[str],
    games: int,
    seed: int,
    step: int,
    kind: str = "periodic",
    engine: str = "auto",
) -> list[dict]:
    """``evaluate`` against each opponent spec, seeded by (seed, step, opponent index); ``kind``
    (periodic, pretrain, final) marks the rows in eval.csv."""
    rows = []
    for k, opp in enumerate(opponents):
        r = evaluate(agent, game, opp, games, seed=derive_seed(seed, step, k), engine=engine)
        r["step"], r["kind"] = step, kind
        rows.append(r)
        log.info(
            "step %d: win share vs %s %.3f [%.3f, %.3f] over %d games (1/P = %.3f)%s",
            step,
            opp,
            r["win_share"],
            r["ci_low"],
            r["ci_high"],
            games,
            r["uniform"],
            f", {r['abandoned']} abandoned" if r["abandoned"] else "",
        )
    return rows
