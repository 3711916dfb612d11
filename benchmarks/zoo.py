"""Install and evaluate the zoo's reference policies, as ``configs/zoo.yaml`` fixes them.

For each game of the plan: ``--install`` copies the policy of its training run into the package
(``deckzoo/agents/zoo/<game>.npz``, with the run's config, the commands and the note); then the
shipped file is evaluated in its play mode against each planned opponent, with the planned game
count and seed (the plan was committed before the evaluations ran: a pre-registered evaluation),
and the result goes into the file's metadata (``evaluation``) and into
``benchmarks/results/zoo.md`` and ``zoo.json``. Win share: the policy sits in seat g mod P of game
g against P-1 fresh copies of the opponent; a w-way shared win counts 1/w; 95% Wilson intervals.

    .venv/bin/python benchmarks/zoo.py --install gobig bignumber     # install + evaluate
    .venv/bin/python benchmarks/zoo.py --report                      # only rewrite the report
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import yaml
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "configs" / "zoo.yaml"
RESULTS = ROOT / "benchmarks" / "results"


def install_from_plan(game: str, entry: dict) -> None:
    from deckzoo.agents.zoo.__main__ import install_run

    install_run(
        ROOT / entry["run"],
        game,
        commands=entry["commands"],
        note=entry.get("note"),
        mode=entry.get("mode", "greedy"),
    )


def evaluate_shipped(game: str, entry: dict, seed: int) -> list[dict]:
    """Each planned opponent's evaluation of the shipped file (``training.train.evaluate``)."""
    import deckzoo.envs as E
    from deckzoo.agents import zoo
    from deckzoo.training.train import evaluate

    cfg = zoo.metadata(game)["game_config"]
    out = []
    for opponent, games in tqdm(entry["eval"].items(), desc=game, leave=False):
        agent = zoo.ZooAgent(game)
        t0, c0 = time.perf_counter(), time.process_time()
        row = evaluate(agent, E.game_class(game)(**cfg), opponent, games, seed)
        row.update(
            env=E.GAMES[game].env_name(),  # the version played, which may postdate the training
            seed=seed,
            mode="greedy" if agent.deterministic else "sample",
            seconds=time.perf_counter() - t0,
            cpu_seconds=time.process_time() - c0,
            load_average=list(os.getloadavg()),
        )
        out.append(row)
    return out


def report(plan: dict) -> str:
    from deckzoo.agents import zoo

    lines = [
        "# The zoo: reference policies shipped with deckzoo",
        "",
        (
            "Written by `benchmarks/zoo.py` from the plan `configs/zoo.yaml` (fixed before the "
            "evaluations ran). Each row evaluates the shipped file "
            "`deckzoo/agents/zoo/<game>.npz` "
            "in its play mode: the policy in seat g mod P of game g against P-1 copies of the "
            "opponent, all games seeded from the plan's seed; win share with its 95% Wilson "
            "interval; **>1/P** marks an interval wholly above 1/P. *trained on* is the version "
            "of the game the policy was trained on, *played* the version of these games; a "
            "policy whose game has moved on since its training is marked **older version**."
        ),
        "",
        (
            "| game | trained on | played | P | mode | opponent | games | win share | 95% CI "
            "| 1/P | seed | CPU s |"
        ),
        "|---|---|---|---:|---|---|---:|---:|---|---:|---:|---:|",
    ]
    notes = []
    for game in plan["games"]:
        if game not in zoo.available():
            continue
        meta = zoo.metadata(game)
        trained = meta.get("env") or "?"
        if not zoo.trained_for_current(game):
            trained += " (**older version**)"
        for r in meta["extra"].get("evaluation", []):
            above = " **>1/P**" if r["ci_low"] > r["uniform"] else ""
            lines.append(
                f"| {game} | {trained} | {r.get('env', meta.get('env'))} | "
                f"{meta['game_config']['num_players']} | {r['mode']} | "
                f"{r['opponent']} | {r['games']} | {r['win_share']:.3f}{above} | "
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['uniform']:.3f} | "
                f"{r['seed']} | {r['cpu_seconds']:.0f} |"
            )
        extra = meta["extra"]
        notes.append(
            f"* **{game}**: `{'`; `'.join(extra['commands'])}`"
            + (f". {extra['note']}" if extra.get("note") else "")
        )
    return "\n".join(lines + ["", "## How each policy was made", "", *notes, ""])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("games", nargs="*", help="games of the plan (default: all)")
    p.add_argument("--install", action="store_true", help="install each policy from its run first")
    p.add_argument("--report", action="store_true", help="only rewrite the report")
    args = p.parse_args(argv)
    plan = yaml.safe_load(PLAN.read_text())
    unknown = set(args.games) - set(plan["games"])
    if unknown:
        raise SystemExit(f"not in {PLAN.name}: {', '.join(sorted(unknown))}")
    from deckzoo.agents import zoo

    for game in [] if args.report else args.games or list(plan["games"]):
        entry = plan["games"][game]
        if args.install:
            install_from_plan(game, entry)
        rows = evaluate_shipped(game, entry, plan["seed"])
        zoo.install(zoo.path(game), game, evaluation=rows)  # the file's own record of its strength
        for r in rows:
            print(
                f"{game} vs {r['opponent']}: {r['win_share']:.3f} "
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] over {r['games']} games",
                file=sys.stderr,
            )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "zoo.md").write_text(report(plan))
    (RESULTS / "zoo.json").write_text(
        json.dumps(
            {g: zoo.metadata(g)["extra"] for g in plan["games"] if g in zoo.available()}, indent=2
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
