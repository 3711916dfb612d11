"""Exploiters in the pool: a league loop inside the vector trainer (``opponents.exploiters``).

Why. A policy trained against a fixed set of opponents (itself, its past snapshots, a heuristic,
random) learns to beat those, and can stay weak against play none of them shows: what a best
response to it would find. PSRO and AlphaStar's league add such best responses to the pool as it
trains, so that the learner meets its own weaknesses while it can still fix them. Here, at each
scheduled point:

1. **Freeze.** The learner's actor is written as a policy file (``league/round-<k>/learner.npz``).
2. **Train an exploiter** with the exploitability harness's machinery (training/exploit.py): the
   run's own config with the learner frozen and sampled in every other seat (``br_config``),
   trained by the vector trainer (``WarmStartTrainer``) for ``exploiters.cpu_budget`` CPU seconds
   (and at most ``exploiters.steps`` steps), starting from the learner's own actor and critic
   (``init: learner``) or from a fresh network (``init: scratch``). Its run folder is
   ``league/round-<k>/run``.
3. **Measure** the exploiter (as it plays in the pool) against P-1 copies of the learner it
   was trained against (sampled), ``exploiters.games`` games on the engine: its win share,
   against 1/P, says how exploitable the learner was at that point. A cheap measure: one best
   response, one budget.
4. **Join.** The exploiter becomes a frozen pool member (a ``FrozenPolicy``, greedy unless
   ``exploiters.deterministic`` is false: a best response needs no mixing) with snapshot id
   ``frozen_id(F + k)``, below the mix's own policy files. The newest ``exploiters.keep`` are
   drawable by the mix key ``exploiter``; a dropped one stays seated until its games end, as a
   dropped snapshot does.

Cost. Everything a round spends making its exploiter (the freeze, the exploiter's set-up,
training and files) is added to the run's training CPU seconds, so it counts against the run's
``cpu_budget`` and the learning-rate schedule: the budget is the whole run's cost. The measurement
(3) is evaluation CPU (``eval_cpu_seconds``), as the run's own evaluations are. The schedule's
``every_cpu_seconds`` counts the learner's own training CPU (the exploiters' excluded), and no
round starts at the run's last rollout or with less of the run's budget left than one exploiter's.

Resume. The rounds' records, the schedule and every exploiter still drawable or seated are in the
run's checkpoint (meta.json's ``league``; the weights in arrays.npz), so a resumed run continues
the schedule with the same pool. A round cut short by a crash is done again from its start: its
folder is replaced. An exploiter stopped by its CPU budget follows the clock, so two runs with one
seed agree only up to their first round (``exploiters.steps`` ending each exploiter first makes
them agree throughout).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from deckzoo.agents.policy import PolicyAgent, PolicyWeights, save_policy
from deckzoo.envs import canonical

from .config import config_from_dict, config_to_dict
from .exploit import br_config
from .exploit_init import InitPolicy, WarmStartTrainer
from .opponents import derive_seed, evaluate
from .run import next_due
from .vector_lanes import frozen_id
from .vector_ppo import FrozenPolicy

LEAGUE = 7  # derive_seed(seed, LEAGUE, round, purpose): the exploiters' own seeds
TRAIN, MEASURE = 0, 1
FOLDER = "league"


@dataclass
class LeagueState:
    """The loop's bookkeeping, saved in every checkpoint as JSON."""

    next_step: int = 0  # learner steps of the next round (``exploiters.every``)
    next_cpu: float = 0.0  # the learner's own training CPU seconds of the next round
    cpu_seconds: float = 0.0  # what the rounds cost, added to the run's training CPU seconds
    wall_seconds: float = 0.0
    pool: list = field(default_factory=list)  # the drawable exploiters' ids, oldest first
    rounds: list = field(default_factory=list)  # one record a round (``League.round``)


class League:
    """The exploiter rounds of one vector run (``VectorTrainer.league``)."""

    def __init__(self, trainer):
        self.trainer = trainer
        self.x = trainer.cfg.opponents.exploiters
        self.state = LeagueState(
            next_step=self.x.every or 0, next_cpu=self.x.every_cpu_seconds or 0.0
        )

    # ---- the schedule ----
    def learner_cpu(self) -> float:
        """The learner's own training CPU seconds (the run's, less the rounds')."""
        return self.trainer.rs.train_cpu_seconds - self.state.cpu_seconds

    def due(self, step: int) -> bool:
        x, s = self.x, self.state
        return (x.every is not None and step >= s.next_step) or (
            x.every_cpu_seconds is not None and self.learner_cpu() >= s.next_cpu
        )

    def affordable(self) -> bool:
        """A round now leaves the learner time to meet its exploiter: not at the run's last
        rollout, and not with less of the run's CPU budget left than the exploiter's."""
        t = self.trainer
        budget = t.cfg.cpu_budget
        if t.steps() >= t.total:
            return False
        return budget is None or budget - t.rs.train_cpu_seconds > self.x.cpu_budget

    def maybe_round(self, step: int) -> None:
        """At a rollout boundary: a round where one is due and affordable; the schedule moves on
        either way."""
        if not self.due(step):
            return
        x, s = self.x, self.state
        if x.every is not None:
            s.next_step = next_due(step, x.every)
        if x.every_cpu_seconds is not None:
            e = x.every_cpu_seconds
            s.next_cpu = (self.learner_cpu() // e + 1) * e
        if self.affordable():
            self.round(step)

    # ---- one round ----
    def first_id(self) -> int:
        """The snapshot id of round 0's exploiter: below the mix's own policy files'."""
        return frozen_id(len(self.trainer.lanes.frozen_specs))

    def round(self, step: int) -> dict:
        """Freeze the learner, train an exploiter against it, measure it, add it to the pool."""
        t, x, s = self.trainer, self.x, self.state
        cfg = t.cfg
        k = len(s.rounds)
        folder = t.run_dir / FOLDER / f"round-{k}"
        if folder.exists():  # a round cut short: the checkpoint resumed from has none of it
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        c0, w0 = time.process_time(), time.perf_counter()
        learner = t.policy_weights()
        target = folder / "learner.npz"
        save_policy(
            target,
            learner,
            game=cfg.game,
            env=canonical(cfg.game),
            game_config={"num_players": t.n, **cfg.game_options},
            trainer="vector (a league round's frozen learner)",
            extra={"step": step},
        )
        spec = f"ppo:{target.resolve()}:sample"
        start = None
        if x.init == "learner":
            critic = {key: v.detach().clone() for key, v in t.net.critic.state_dict().items()}
            start = InitPolicy(
                "target", spec, target, learner, critic, f"the learner's critic at step {step}"
            )
        br = WarmStartTrainer(self.exploiter_config(folder, spec, k, start), start)
        summary = br.run()
        weights = br.policy_weights()
        cpu = time.process_time() - c0
        s.cpu_seconds += cpu
        s.wall_seconds += time.perf_counter() - w0
        t.rs.train_cpu_seconds += cpu
        c1 = time.process_time()
        agent = PolicyAgent(weights, deterministic=x.deterministic)
        seed = derive_seed(cfg.seed, LEAGUE, k, MEASURE)
        row = evaluate(agent, t.game, spec, x.games, seed, cfg.eval.engine)
        t.rs.eval_cpu_seconds += time.process_time() - c1
        sid = self.first_id() - k
        t.frozen[sid] = FrozenPolicy(weights, x.deterministic)
        s.pool.append(sid)
        del s.pool[: -x.keep]
        t.lanes.exploiter_ids = list(s.pool)
        self.prune()
        record = {
            "round": k,
            "id": sid,
            "step": step,
            "learner_cpu_seconds": self.learner_cpu(),
            "cpu_seconds": cpu,
            "train_cpu_seconds": summary["train_cpu_seconds"],
            "steps": summary["steps"],
            "init": x.init,
            "games": row["games"],
            "win_share": row["win_share"],
            "ci_low": row["ci_low"],
            "ci_high": row["ci_high"],
            "uniform": row["uniform"],
            "abandoned": row["abandoned"],
            "run_cpu_seconds": t.rs.train_cpu_seconds,
            "folder": f"{FOLDER}/round-{k}",
        }
        s.rounds.append(record)
        t.log_scalar("league/exploiter_win_share", row["win_share"], step)
        t.log_scalar("league/exploiter_cpu_seconds", cpu, step)
        t.write_eval_csv()
        return record

    def exploiter_config(self, folder, spec: str, k: int, start):
        """The harness's BR config (``exploit.br_config``) on this run's own config, without the
        loop (an exploiter trains no exploiters of its own) and without its periodic
        evaluations (the round measures it once)."""
        import yaml

        t, x = self.trainer, self.x
        base = config_to_dict(t.cfg)
        base["opponents"]["exploiters"] = None
        base["opponents"]["mix"] = {"random": 1.0}  # (br_config seats the target instead)
        path = folder / "base.yaml"
        path.write_text(yaml.safe_dump(base, sort_keys=False))
        seed = derive_seed(t.cfg.seed, LEAGUE, k, TRAIN)
        cfg = br_config(
            t.cfg.game,
            spec,
            t.n,
            x.cpu_budget,
            seed,
            folder / "run",
            path,
            progress=False,
            init=start,
        )
        data = config_to_dict(cfg)
        data["eval"].update(every=0, every_cpu_seconds=None)
        if x.steps is not None:
            data["total_timesteps"] = x.steps
        return config_from_dict(data)

    def prune(self) -> None:
        """Forget the exploiters neither drawable nor seated in a game in progress."""
        t = self.trainer
        seated = set(np.unique(t.lanes.seat_snapshot).tolist())
        keep = set(self.state.pool) | seated
        for sid in [i for i in t.frozen if i <= self.first_id() and i not in keep]:
            del t.frozen[sid]

    # ---- what the run reports ----
    def eval_rows(self) -> list[dict]:
        """eval.csv's rows of kind ``exploiter``: each exploiter's win share against the learner
        (``opponent``) as it was at that step, and the run's training CPU seconds after it."""
        return [
            {
                "step": r["step"],
                "kind": "exploiter",
                "cpu_seconds": r["run_cpu_seconds"],
                "opponent": "learner",
                **{k: r[k] for k in ("games", "win_share", "ci_low", "ci_high", "uniform")},
                "abandoned": r["abandoned"],
            }
            for r in self.state.rounds
        ]

    def summary(self) -> dict:
        """summary.json's ``exploiters``."""
        s, run_cpu = self.state, self.trainer.rs.train_cpu_seconds
        return {
            "trained": len(s.rounds),
            "cpu_seconds": s.cpu_seconds,
            "share_of_training_cpu": s.cpu_seconds / run_cpu if run_cpu else 0.0,
            "learner_cpu_seconds": self.learner_cpu(),
            "wall_seconds": s.wall_seconds,
            "drawable": [r["round"] for r in s.rounds if r["id"] in s.pool],
            "rounds": s.rounds,
        }

    # ---- checkpoints ----
    def get_state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """``(meta, arrays)``: the bookkeeping, and the weights of every exploiter still known
        (drawable, or seated in a game in progress)."""
        arrays = {}
        ids = sorted(i for i in self.trainer.frozen if i <= self.first_id())
        for sid in ids:
            w = self.trainer.frozen[sid].weights
            for i, (a, b) in enumerate([*w.hidden, w.head]):
                arrays[f"league.{-sid}.{i}.w"], arrays[f"league.{-sid}.{i}.b"] = a, b
        return {**asdict(self.state), "ids": ids}, arrays

    def set_state(self, meta: dict, arrays: dict[str, np.ndarray]) -> None:
        t = self.trainer
        ids = meta.pop("ids")
        self.state = LeagueState(**meta)
        for sid in ids:
            layers = []
            while f"league.{-sid}.{len(layers)}.w" in arrays:
                i = len(layers)
                layers.append((arrays[f"league.{-sid}.{i}.w"], arrays[f"league.{-sid}.{i}.b"]))
            w = PolicyWeights(layers[:-1], layers[-1], t.net.activation, features=t.features)
            t.frozen[sid] = FrozenPolicy(w, self.x.deterministic)
        t.lanes.exploiter_ids = list(self.state.pool)
