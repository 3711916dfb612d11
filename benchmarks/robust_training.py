"""Robust training: the shipped vector config against high entropy, exploiters in the pool, both.

Why. A policy can beat the heuristic and still be easy to exploit: it learned to beat the
opponents it met. Two remedies are compared here, each against today's shipped config, on the
same training CPU budget per run (whatever a run spends on exploiters comes out of it):

* ``entropy``: the shipped config with ``ppo.ent_coef`` 0.05 and ``ppo.clip_range`` 0.05. With
  exact exploitability in five two-player games, tuned PPO was as hard to exploit as NFSP, PSRO,
  ESCHER and R-NaD, and its least exploitable settings used far more entropy than usual (entropy
  coefficient 0.05-0.1, clip 0.025-0.1; Rudolph et al. 2026, arXiv 2502.08938). Those are other
  games: this measures whether it holds here.
* ``exploiters``: the shipped config with exploiters in the pool (``opponents.exploiters``,
  training/league.py): every ``every_share`` of the budget in the learner's own CPU seconds a best
  response is trained against the learner for ``cpu_share`` of the budget, from the learner's
  weights, and the mix key ``exploiter`` gets ``exploiter_share`` of the seats, taken from the
  self-play keys (``learner``, ``pool``, ``latest``) in proportion.
* ``both``: the two together; ``shipped``: neither.

Each run is judged twice, by the same yardsticks for every arm:

1. **Strength**: its win share against three heuristics in duplicate boards (the arena,
   ``strength_games`` games; greedy, as the trainers evaluate, and sampled).
2. **Exploitability**: the gap a best response (BR) finds against it in ``br_cpu_budget``
   training CPU seconds (``deckzoo.training.exploit``, the protocol of docs/exploitability.md:
   warm, from the target's own network and its run's critic; one BR; selection and fresh
   games), against the policy played greedy and sampled. The BR's base config is the game's
   shipped config for every arm, so no arm's BR trains with another arm's settings.

The plan (``PLAN``) is fixed here before any run. Each finished run is merged into
``results/robust_training.json`` and the page and chart are rewritten; a run's folder
(``runs/robust/<game>/<arm>-s<seed>``, not committed) keeps its training and BRs, so an
interrupted comparison resumes where it stopped (a training cut short resumes from its
checkpoint). ``--report`` only rebuilds the page from the JSON.

    .venv/bin/python benchmarks/robust_training.py --game gobig          # the comparison
    .venv/bin/python benchmarks/robust_training.py --game gobig --trial --out /tmp/robust-trial
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import results_page  # the sibling module: the layout of every results page
from peers import cpu_model

RESULTS = ROOT / "benchmarks" / "results"
NAME = "robust_training"
ARMS = ("shipped", "entropy", "exploiters", "both")
MODE_WORDS = {"greedy": "greedy", "sample": "sampled"}
SELF_PLAY_KEYS = ("learner", "pool", "latest")

PLAN = {
    "games": ["gobig"],  # the games the page lists (a run of another game adds it)
    "players": 4,
    "seeds": [0, 1],  # each arm's training seeds
    # training CPU seconds of each run, exploiters included: the shipped configs' own budgets
    # (their total_timesteps, at this machine's speed, as their comments say)
    "cpu_budget": {
        "gobig": 400.0,
        "bignumber": 1600.0,
        "wizard": 1650.0,
        "bigwig": 1500.0,
        "midgard": 1800.0,
    },
    "entropy": {"ent_coef": 0.05, "clip_range": 0.05},
    "exploiters": {
        "every_share": 0.15,  # a round every 15% of the budget of the learner's own CPU
        "cpu_share": 0.075,  # each exploiter's training CPU, as a share of the budget
        "keep": 4,
        "init": "learner",
        "games": 200,
    },
    "exploiter_share": 0.15,  # the mix weight of 'exploiter', taken from the self-play keys
    "strength_games": 400,
    "br_cpu_budget": 120.0,
    "br_init": "target",
    "br_modes": ["greedy", "sample"],  # how the judged policy plays against its BR
    "br_games": 400,  # selection games, and as many fresh ones for the value
    "br_curve_points": 4,
    "seed": 58,  # the evaluations' and BRs' seed
    "configs": {
        "gobig": "configs/gobig-vector.yaml",
        "bignumber": "configs/bignumber-vector.yaml",
        "wizard": "configs/wizard-vector-features.yaml",
        "bigwig": "configs/bigwig-vector.yaml",
        "midgard": "configs/midgard-vector.yaml",
    },
}
# a run of the pipeline end to end in a few CPU minutes: proves that it works, measures nothing
TRIAL = {
    "seeds": [0],
    "cpu_budget": {g: 16.0 for g in PLAN["cpu_budget"]},
    "exploiters": {**PLAN["exploiters"], "every_share": 0.25, "cpu_share": 0.15, "games": 24},
    "strength_games": 40,
    "br_cpu_budget": 4.0,
    "br_games": 24,
    "br_curve_points": 1,
}


# ---- one run ------------------------------------------------------------------------------------
def mix_with_exploiters(mix: dict, share: float) -> dict:
    """``mix`` with the key ``exploiter`` at ``share`` of the total weight, taken from the
    self-play keys in proportion (from every key where the mix has none)."""
    total = sum(mix.values())
    takers = [k for k in mix if k in SELF_PLAY_KEYS and mix[k] > 0] or list(mix)
    pot = sum(mix[k] for k in takers)
    out = {k: (w - share * total * w / pot if k in takers else w) for k, w in mix.items()}
    if min(out.values()) < 0:
        raise SystemExit(f"exploiter_share {share} is more than the self-play keys' {pot / total}")
    return {**out, "exploiter": share * total}


def overrides(game: str, arm: str, seed: int, plan: dict, run_dir: Path) -> dict:
    """The dotted config keys that make an arm's run of the shipped config."""
    from deckzoo.training.config import load_config

    budget = plan["cpu_budget"][game]
    out = {
        "num_players": plan["players"],
        "seed": seed,
        "cpu_budget": budget,
        "total_timesteps": 10**12,  # the CPU budget ends the run
        "run_dir": str(run_dir),
        "progress_bar": False,
        "eval.every": 0,  # judged afterwards, the same way for every arm
        "eval.final_games": 0,
    }
    if arm in ("entropy", "both"):
        out.update({f"ppo.{k}": v for k, v in plan["entropy"].items()})
    if arm in ("exploiters", "both"):
        x = plan["exploiters"]
        out["opponents.exploiters"] = {
            "every_cpu_seconds": x["every_share"] * budget,
            "cpu_budget": x["cpu_share"] * budget,
            "keep": x["keep"],
            "init": x["init"],
            "games": x["games"],
        }
        mix = load_config(ROOT / plan["configs"][game]).opponents.mix
        out["opponents.mix"] = mix_with_exploiters(mix, plan["exploiter_share"])
    return out


def train_run(game: str, arm: str, seed: int, plan: dict, folder: Path) -> dict:
    """The arm's training run (its summary; a finished run is not trained again, one cut short
    resumes from its checkpoint)."""
    from deckzoo.training.config import load_config
    from deckzoo.training.train import train

    run = folder / "run"
    if (run / "summary.json").exists():
        return json.loads((run / "summary.json").read_text())
    cfg = load_config(ROOT / plan["configs"][game], overrides(game, arm, seed, plan, run))
    return train(cfg, resume=(run / "checkpoint.ckpt").exists())


def strength(game: str, policy: Path, plan: dict, options: dict) -> dict:
    """The policy against three heuristics, greedy and sampled, in duplicate boards."""
    from deckzoo.envs import registry
    from deckzoo.training.exploit import Evaluation
    from deckzoo.training.opponents import derive_seed

    game_cls = registry.game_class(game)
    n = plan["players"]
    ev = Evaluation(game, "heuristic", n, 1, options, game_cls.score_sign)
    games = -(-plan["strength_games"] // n) * n
    seed = derive_seed(plan["seed"], 1)
    self_play = ev.self_play(games, seed)
    return {mode: ev.br(policy, mode, games, seed, self_play) for mode in ("greedy", "sample")}


def exploitability(game: str, policy: Path, plan: dict, folder: Path) -> dict:
    """A best response to the policy, played each way ``br_modes`` says."""
    from deckzoo.training.exploit import exploit

    out = {}
    for mode in plan["br_modes"]:
        where = folder / f"exploit-{mode}"
        done = where / "exploit.json"
        target = f"ppo:{policy}" + (":sample" if mode == "sample" else "")
        if done.exists():
            r = json.loads(done.read_text())
        else:
            shutil.rmtree(where, ignore_errors=True)  # seed folders resume; the rest is redone
            r = exploit(
                game,
                target,
                players=plan["players"],
                cpu_budget=plan["br_cpu_budget"],
                seed=plan["seed"],
                out=where,
                config=ROOT / plan["configs"][game],
                games=plan["br_games"],
                curve_points=plan["br_curve_points"],
                progress=False,
                init=plan["br_init"],
                seeds=1,
                fresh_games=plan["br_games"],
            )
        (run,) = r["runs"]
        out[mode] = {
            "value": r["value"],
            "best_mode": r["best"]["mode"],
            "br_steps": run["steps"],
            "br_cpu_seconds": run["train_cpu_seconds"],
            "critic": r["init"].get("critic"),
        }
    return out


def run_one(game: str, arm: str, seed: int, plan: dict, runs: Path) -> dict:
    """Train, then judge, one arm's run; returns its row for the JSON."""
    folder = runs / game / f"{arm}-s{seed}"
    summary = train_run(game, arm, seed, plan, folder)
    policy = (folder / "run" / "policy.npz").resolve()
    from deckzoo.training.config import load_config

    cfg = load_config(folder / "run" / "config.yaml")
    league = summary.get("exploiters")
    return {
        "game": game,
        "arm": arm,
        "seed": seed,
        "cpu_budget": plan["cpu_budget"][game],
        "ent_coef": cfg.ppo.ent_coef,
        "clip_range": cfg.ppo.clip_range,
        "mix": cfg.opponents.mix,
        "steps": summary["steps"],
        "train_cpu_seconds": summary["train_cpu_seconds"],
        "exploiters": None
        if league is None
        else {
            "trained": league["trained"],
            "cpu_seconds": league["cpu_seconds"],
            "win_shares": [r["win_share"] for r in league["rounds"]],
            "steps": [r["step"] for r in league["rounds"]],
        },
        "strength": strength(game, policy, plan, cfg.game_options),
        "exploit": exploitability(game, policy, plan, folder),
        "processor": cpu_model(),
        "python": platform.python_version(),
        "load_average": list(os.getloadavg()),
    }


# ---- the page -----------------------------------------------------------------------------------
def update(results: Path, plan: dict, key: str, row: dict) -> None:
    """Merge one run into the JSON and rewrite the page and chart, under a lock."""

    def write(data: dict) -> None:
        plot(data, results / f"{NAME}.png")
        (results / f"{NAME}.md").write_text(report(data))

    results_page.merge_entry(results, NAME, plan, "runs", key, row, write)


def gap_text(stats: dict) -> str:
    from deckzoo.training.exploit_report import gap_text as text

    return text(stats)


def share_text(stats: dict) -> str:
    return f"{stats['win_share']:.3f} [{stats['ci'][0]:.3f}, {stats['ci'][1]:.3f}]"


def games_of(data: dict) -> list[str]:
    plan = data["plan"]
    ran = [r["game"] for r in data["runs"].values()]
    return list(dict.fromkeys([*plan["games"], *ran]))


def report(data: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): one row a run, the chart, then
    how it was made."""
    plan, runs = data["plan"], data["runs"]
    modes = plan["br_modes"]
    head = "| game | arm | seed | steps | exploiters: n, CPU s | vs 3 heuristics: win share [95%] |"
    head += "".join(f" BR gap vs {MODE_WORDS[m]} [95%] |" for m in modes)
    rows = [head, "|---|---|---:|---:|---|---|" + "---|" * len(modes)]
    rounds = []
    for game in games_of(data):
        for arm in ARMS:
            for seed in plan["seeds"]:
                r = runs.get(f"{game}/{arm}/{seed}")
                if r is None:
                    rows.append(f"| {game} | {arm} | {seed} | (not run) | | |" + " |" * len(modes))
                    continue
                x = r["exploiters"]
                league = "-" if x is None else f"{x['trained']}, {x['cpu_seconds']:.0f}"
                gaps = "".join(f" {gap_text(r['exploit'][m]['value'])} |" for m in modes)
                rows.append(
                    f"| {game} | {arm} | {seed} | {r['steps']:,} | {league} "
                    f"| {share_text(r['strength']['greedy'])} |{gaps}"
                )
                if x and x["win_shares"]:
                    shares = ", ".join(f"{w:.2f}" for w in x["win_shares"])
                    rounds.append(f"| {game} | {arm} | {seed} | {shares} |")
    e, x = plan["entropy"], plan["exploiters"]
    results = [
        *rows,
        "",
        (
            "Every run trains for the same CPU budget (exploiters included). **shipped**: the "
            "game's shipped vector config; **entropy**: with `ppo.ent_coef` "
            f"{e['ent_coef']} and `ppo.clip_range` {e['clip_range']}; **exploiters**: with an "
            f"exploiter trained every {x['every_share']:.0%} of the budget (the learner's own CPU) "
            f"for {x['cpu_share']:.1%} of it, the newest {x['keep']} in the pool, "
            f"{plan['exploiter_share']:.0%} of the seats; **both**: the two."
        ),
        "",
        (
            "Win share: greedy, against three heuristics, duplicate boards (1/P = "
            f"{1 / plan['players']:.2f}). BR gap: the win share a best response reaches against "
            f"the policy (played greedy or sampled) in {plan['br_cpu_budget']:.0f} training CPU "
            "seconds, minus 1/P, on fresh games; a lower bound on what the policy gives away. "
            "**not reached**: the BR ended below 1/P."
        ),
    ]
    if rounds:
        results += [
            "",
            "Each exploiter's win share against the learner it was trained against, in order:",
            "",
            "| game | arm | seed | exploiters' win shares |",
            "|---|---|---:|---|",
            *rounds,
        ]
    if runs:
        results += ["", *results_page.charts([f"{NAME}.png"], lambda n: "strength and gap")]
    how = [
        (
            "`python benchmarks/robust_training.py --game GAME` ("
            + (
                "a trial, the plan cut"
                if plan.get("trial")
                else "plan fixed in the script before the runs"
            )
            + f": seeds {', '.join(map(str, plan['seeds']))} of each arm, "
            f"{plan['players']} players; training CPU seconds a run: "
            + ", ".join(f"{g} {plan['cpu_budget'][g]:.0f}" for g in games_of(data))
            + ")."
        ),
        (
            "Each run is the game's shipped vector config (below) with its arm's changes, stopped "
            "by its CPU budget (`cpu_budget`; an exploiter's CPU counts against it). Strength: "
            f"{plan['strength_games']} games against three heuristics in duplicate boards "
            "(greedy and sampled; the table shows greedy). Exploitability: `deckzoo.training."
            f"exploit` with one BR of {plan['br_cpu_budget']:.0f} training CPU seconds a target, "
            f"starting from the target's own network and its run's critic (`--init "
            f"{plan['br_init']}`), on the game's shipped config for every arm, "
            f"{plan['br_games']} selection and {plan['br_games']} fresh games (the protocol of "
            "docs/exploitability.md)."
        ),
        "",
        "| game | shipped config | CPU s a run |",
        "|---|---|---:|",
        *[f"| {g} | {plan['configs'][g]} | {plan['cpu_budget'][g]:.0f} |" for g in games_of(data)],
        "",
        "Machine: "
        + (", ".join(sorted({r["processor"] for r in runs.values()})) or "-")
        + "; the 1-minute load average at the end of each run: "
        + (", ".join(f"{k} {r['load_average'][0]:.1f}" for k, r in runs.items()) or "no run yet")
        + ".",
    ]
    if plan.get("trial"):
        results.insert(0, "**A trial of the pipeline at tiny budgets, not the measurement.**\n")
    notes = [f"- Note: {n}" for n in data.get("notes", [])]
    return results_page.page(
        "Robust training: entropy and exploiters against the shipped config", results, how, notes
    )


def plot(data: dict, path: Path) -> None:
    """Strength (x) against the BR gap (y) of every run, one panel a game and BR mode."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plan, runs = data["plan"], data["runs"]
    games = [g for g in games_of(data) if any(r["game"] == g for r in runs.values())]
    modes = plan["br_modes"]
    fig, axes = plt.subplots(
        len(games), len(modes), figsize=(4.2 * len(modes), 3.6 * len(games)), squeeze=False
    )
    colours = dict(zip(ARMS, ("tab:grey", "tab:blue", "tab:orange", "tab:green")))
    for i, game in enumerate(games):
        for j, mode in enumerate(modes):
            ax = axes[i][j]
            for arm in ARMS:
                pts = [r for r in runs.values() if r["game"] == game and r["arm"] == arm]
                if not pts:
                    continue
                xs = [r["strength"]["greedy"]["win_share"] for r in pts]
                ys = [r["exploit"][mode]["value"]["gap"] for r in pts]
                xerr = [
                    [x - r["strength"]["greedy"]["ci"][0] for x, r in zip(xs, pts)],
                    [r["strength"]["greedy"]["ci"][1] - x for x, r in zip(xs, pts)],
                ]
                yerr = [
                    [y - r["exploit"][mode]["value"]["gap_ci"][0] for y, r in zip(ys, pts)],
                    [r["exploit"][mode]["value"]["gap_ci"][1] - y for y, r in zip(ys, pts)],
                ]
                ax.errorbar(
                    xs, ys, xerr=xerr, yerr=yerr, fmt="o", color=colours[arm], label=arm, capsize=2
                )
            ax.axvline(1 / plan["players"], color="grey", linestyle=":", linewidth=1)
            ax.axhline(0, color="grey", linestyle=":", linewidth=1)
            ax.set_xlabel("win share vs 3 heuristics (greedy)")
            ax.set_ylabel(f"BR gap vs the policy ({MODE_WORDS[mode]})")
            ax.set_title(f"{game}: BR against the {MODE_WORDS[mode]} policy", fontsize=10)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---- the command --------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="gobig", help="the game (default gobig)")
    p.add_argument("--arms", nargs="*", choices=ARMS, help="arms to run (default: all)")
    p.add_argument("--seeds", nargs="*", type=int, help="training seeds (default: the plan's)")
    p.add_argument("--report", action="store_true", help="only rebuild the page from the JSON")
    p.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    p.add_argument("--runs", type=Path, help="the runs' folders (default runs/robust)")
    p.add_argument("--rerun", action="store_true", help="start the chosen runs afresh")
    p.add_argument("--trial", action="store_true", help="tiny budgets to test the pipeline")
    args = p.parse_args(argv)
    if args.trial and args.out == RESULTS:
        p.error("a trial writes next to the measurement: give --out")
    plan = {**PLAN, **TRIAL, "trial": True} if args.trial else PLAN
    if args.seeds:
        plan = {**plan, "seeds": args.seeds}
    if args.report:
        data = json.loads((args.out / f"{NAME}.json").read_text())
        (args.out / f"{NAME}.md").write_text(report(data))
        return 0
    if args.game not in plan["configs"]:
        p.error(f"no shipped config for {args.game!r}; the plan's games: {list(plan['configs'])}")
    import torch

    torch.set_num_threads(1)
    os.chdir(ROOT)
    runs = args.runs or ROOT / "runs" / ("robust-trial" if args.trial else "robust")
    saved = args.out / f"{NAME}.json"
    done = json.loads(saved.read_text())["runs"] if saved.exists() else {}
    for arm in args.arms or ARMS:
        for seed in plan["seeds"]:
            key = f"{args.game}/{arm}/{seed}"
            if args.rerun:
                shutil.rmtree(runs / args.game / f"{arm}-s{seed}", ignore_errors=True)
            elif key in done:
                print(f"== {key}: in {saved} already (--rerun to redo it)", flush=True)
                continue
            print(f"== {key}", flush=True)
            update(args.out, plan, key, run_one(args.game, arm, seed, plan, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
