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
    .venv/bin/python benchmarks/zoo.py --head-to-head runs/zoo/bigwig-vector/policy.npz bigwig

``--head-to-head POLICY GAME`` plays a candidate against the shipped policy as the rule fixed
before the candidates' runs (commit 61e1540, issue #47) says: ``HEAD_TO_HEAD["games"]`` 4-player
games from ``HEAD_TO_HEAD["seed"]``, seats rotating, line-up new, old, new, old (two seats each),
each side in the shipped policy's mode; the candidate's two seats' win share (a game's win split
among its winners) with its 95% Wilson interval goes into ``zoo_head_to_head.json`` and the
report. The candidate replaces the shipped policy only if that interval is wholly above 0.5.
``--head-to-head RUN_DIR GAME --stopped REASON`` records instead a candidate whose run was stopped
before its end (and so never played), with its steps and last evaluations read from the run's
``eval.csv``: a plan's candidate leaves a row whatever becomes of it.
"""

from __future__ import annotations

import argparse
import hashlib
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
sys.path.insert(0, str(ROOT / "benchmarks"))
import results_page  # the sibling module: the layout of every results page


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


HEAD_TO_HEAD = {"games": 400, "seed": 21, "players": 4}


def head_to_head(policy: Path, game: str) -> dict:
    """The candidate ``policy`` against the shipped ``zoo:<game>`` (see the module docstring)."""
    from deckzoo.agents.evaluation.arena import run_arena
    from deckzoo.agents.evaluation.config import ArenaConfig
    from deckzoo.agents.evaluation.stats import wilson_interval

    shipped = shipped_policy(game)
    mode = shipped["mode"]
    new, old = f"ppo:{policy}:{mode}", f"zoo:{game}"
    cfg = ArenaConfig(
        game=game,
        agents=[f"new_a={new}", f"old_a={old}", f"new_b={new}", f"old_b={old}"],
        games=HEAD_TO_HEAD["games"],
        players=HEAD_TO_HEAD["players"],
        seed=HEAD_TO_HEAD["seed"],
        progress=True,
    )
    c0, t0 = time.process_time(), time.perf_counter()
    result = run_arena(cfg)
    credit = 0.0
    for rec in result.records:
        won = [s for s in rec["winners"] if rec["seats"][s].startswith("new_")]
        credit += len(won) / len(rec["winners"])
    games = len(result.records)
    lo, hi = wilson_interval(credit, games)
    return {
        "game": game,
        "candidate": str(policy),
        "candidate_sha256": hashlib.sha256(Path(policy).read_bytes()).hexdigest(),
        **shipped,
        "line_up": "new, old, new, old (seats rotating)",
        "games": games,
        "seed": HEAD_TO_HEAD["seed"],
        "win_share": credit / games,
        "ci_low": lo,
        "ci_high": hi,
        "replaces": lo > 0.5,
        "seconds": time.perf_counter() - t0,
        "cpu_seconds": time.process_time() - c0,
        "load_average": list(os.getloadavg()),
    }


def shipped_policy(game: str) -> dict:
    """What a candidate is measured against: the shipped file's sha256 and its play mode."""
    from deckzoo.agents import zoo

    return {
        "shipped_sha256": zoo.sha256(game),
        "mode": zoo.metadata(game)["extra"].get("mode", "greedy"),
    }


def stopped_run(run: Path, game: str, reason: str) -> dict:
    """The record of a candidate stopped before its end: the run's last periodic evaluations."""
    import csv

    with open(run / "eval.csv") as f:
        rows = list(csv.DictReader(f))
    last = max(int(r["step"]) for r in rows)
    return {
        "game": game,
        "candidate": str(run),
        **shipped_policy(game),
        "stopped": reason,
        "steps": last,
        "evaluations": [
            {k: r[k] for k in ("step", "opponent", "games", "win_share", "ci_low", "ci_high")}
            for r in rows
        ],
        "replaces": False,
    }


def head_to_head_lines(results: Path = RESULTS) -> list[str]:
    """The candidates' table (none played: no lines)."""
    path = results / "zoo_head_to_head.json"
    if not path.exists():
        return []
    lines = [
        "",
        "## Candidates against the shipped policy",
        "",
        ("| game | candidate | shipped (sha256) | mode | games | win share [95% CI] | replaces |"),
        "|---|---|---|---|---:|---|---|",
    ]
    stopped = []
    for r in json.loads(path.read_text()):
        if r.get("stopped"):
            lines.append(
                f"| {r['game']} | {r['candidate']} | {r['shipped_sha256'][:12]} | {r['mode']} "
                "| 0 | not played | no: stopped |"
            )
            curve = ", ".join(
                f"{float(e['win_share']):.3f} at {int(e['step']) / 1e6:.1f}M"
                for e in r["evaluations"]
                if e["opponent"] == "heuristic"
            )
            stopped.append(
                f"- {r['game']}, `{r['candidate']}`: stopped at {r['steps'] / 1e6:.1f}M steps "
                f"(win share against three heuristics: {curve}). Why: {r['stopped']}."
            )
            continue
        lines.append(
            f"| {r['game']} | {r['candidate']} | {r['shipped_sha256'][:12]} | {r['mode']} "
            f"| {r['games']} | {r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
            f"| {'yes' if r['replaces'] else 'no'} |"
        )
    if stopped:
        lines += ["", "Candidates stopped before their end:", "", *stopped]
    return lines


def report(plan: dict, results: Path = RESULTS) -> str:
    """The results page (benchmarks/results_page.py's layout): the evaluations and the
    candidates, then how they were made; the policies' training notes last."""
    from deckzoo.agents import zoo

    table = [
        "| game | P | mode | opponent | games | win share [95% CI] | cut off | CPU s |",
        "|---|---:|---|---|---:|---|---:|---:|",
    ]
    older, commands, notes = [], [], []
    for game in plan["games"]:
        if game not in zoo.available():
            continue
        meta = zoo.metadata(game)
        label = game
        if not zoo.trained_for_current(game):
            label = f"{game} †"
            played = {r.get("env") for r in meta["extra"].get("evaluation", [])} - {None}
            older.append(
                f"{game} was trained on {meta.get('env') or 'an unrecorded version'}, "
                f"evaluated here on {', '.join(sorted(played)) or 'the current version'}"
            )
        for r in meta["extra"].get("evaluation", []):
            above = " **>1/P**" if r["ci_low"] > r["uniform"] else ""
            table.append(
                f"| {label} | {meta['game_config']['num_players']} | {r['mode']} | "
                f"{r['opponent']} | {r['games']} | {r['win_share']:.3f} "
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]{above} | {r.get('abandoned', 0)} | "
                f"{r['cpu_seconds']:.0f} |"
            )
        extra = meta["extra"]
        commands.append(f"- {game}: `{'`; `'.join(extra['commands'])}`")
        if extra.get("note"):
            notes.append(f"- **{game}**: {extra['note']}")
    if older:
        table += [
            "",
            "† Trained on an earlier version of the game than the one played now: "
            + "; ".join(older)
            + ". Loading such a policy warns (`OtherVersionWarning`).",
        ]
    how = [
        (
            f"`python benchmarks/zoo.py` from the plan `configs/zoo.yaml` (fixed before the "
            f"evaluations ran), seed {plan['seed']}. Each row evaluates the shipped file "
            "`deckzoo/agents/zoo/<game>.npz` in its play mode: the policy in seat g mod P of game "
            "g against P-1 copies of the opponent, all games seeded from the plan's seed; win "
            "share with its 95% Wilson interval; **>1/P** marks an interval wholly above 1/P. "
            "Cut off: games the engine ended at a cap (Midgard's `max_turns` or `max_decisions`), "
            "each counted as a loss whoever led. CPU s: the evaluation's."
        ),
        "",
        "The policies were trained by:",
        "",
        *commands,
    ]
    if (results / "zoo_head_to_head.json").exists():
        how += [
            "",
            (
                "Candidates: `python benchmarks/zoo.py --head-to-head POLICY GAME`, the "
                "candidate's two seats against the shipped policy's two (line-up new, old, new, "
                f"old, seats rotating; both in the shipped policy's mode), seed "
                f"{HEAD_TO_HEAD['seed']}; win share of the candidate's seats with its 95% Wilson "
                "interval. The rule, fixed before the candidates were trained: it replaces the "
                "shipped policy if the interval is wholly above 0.5."
            ),
        ]
    return results_page.page(
        "The zoo: reference policies shipped with deckzoo",
        [*table, *head_to_head_lines(results)],
        how,
        ["How each policy was made:", "", *notes] if notes else [],
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("games", nargs="*", help="games of the plan (default: all)")
    p.add_argument("--install", action="store_true", help="install each policy from its run first")
    p.add_argument("--report", action="store_true", help="only rewrite the report")
    p.add_argument(
        "--head-to-head",
        type=Path,
        metavar="POLICY",
        help="play this candidate against the shipped policy of the one game given",
    )
    p.add_argument(
        "--stopped",
        metavar="REASON",
        help="with --head-to-head RUN_DIR: record the candidate as stopped, unplayed, and why",
    )
    args = p.parse_args(argv)
    if args.head_to_head:
        if len(args.games) != 1:
            raise SystemExit("--head-to-head POLICY takes one game")
        if args.stopped:
            row = stopped_run(args.head_to_head, args.games[0], args.stopped)
        else:
            row = head_to_head(args.head_to_head, args.games[0])
        path = RESULTS / "zoo_head_to_head.json"
        rows = json.loads(path.read_text()) if path.exists() else []
        path.write_text(json.dumps([*rows, row], indent=2))
        print(json.dumps(row, indent=2))
        args.report, args.games = True, []
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
