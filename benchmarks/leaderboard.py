"""Leaderboard: per game, a round robin of the reference ladder random, heuristic, ISMCTS, zoo.

Every game of a game type seats the four agents at a 4-player table (one each). A new run goes
through every order round the table, each rotated (``--seating orders``, ``evaluation.tasks``: 24
line-ups; every agent sits in every seat once in each block of 4 games, and follows every other
agent equally often over 24). Runs recorded before that rotate one line-up by a seat a game
(``rotate``), which keeps the order round the table fixed: in Go Big, where the next seat has the
first shot at a display, swapping the search and the heuristic round the table took the search
from level with the heuristic to far ahead of it (64-game probes). A run keeps its seating when
continued. Every game is seeded from ``--seed`` (its deal and the agents' seeds come from the
arena's ``SeedSequence`` child of that game; all are recorded). The ladder:

* ``random``: uniform over the legal moves;
* ``heuristic``: the game's rule-of-thumb agent;
* ``ismcts``: the strongest ISMCTS setting found within a second a move
  (``deckzoo.agents.ladder.ismcts_spec``: the game's entry in ``agents/strongest.py``, as in
  the strength benchmark);
* ``zoo``: the reference policy shipped in the package (``zoo:<game>``, ``agents/zoo.py``).

Reported per game (``benchmarks/results/leaderboard.md``, ``.json`` with every game record, and
``leaderboard.png``): openskill Plackett-Luce ratings (``agents/evaluation/stats.py``: the mean over
``RATING_ORDERS`` random orders of the games, as the online update depends on the order; ranks
from the winners then points, ``tau = 0`` since the agents do not learn) with the interval
``mu +- 1.96 sigma``; each agent's win share with its 95% Wilson interval; pairwise win shares
(the share of games in which the row agent finished ahead of the column agent, ties counting a
half) with Wilson intervals; seconds a move (wall clock on this shared machine, and CPU time of the
playing process). "Separated" says whether the rating
intervals of random, heuristic and the better of ISMCTS and zoo are disjoint in that order.

With ``--duplicate`` a new run plays duplicate boards (``agents/evaluation/tasks.py``: one deal in
every line-up of its seating, 24 or 4 games, with the same chance events; batches are whole
boards), keeps that when continued, and its summary adds the paired statistics over boards
(``paired``, ``agents/evaluation/boards.py``).

Games are played in batches of ``--batch`` and saved after each batch; running again with a larger
``--games`` continues the recorded games (same agents and seed), so a long run can be spread out.
A run records the sha256 of every policy file its agents read (``files``: the zoo policy, also
as a search's prior or rollout, and any ``ppo:PATH``) and is continued only while they are
unchanged: ``zoo:GAME`` names a policy by game, and the zoo replaces policies.
A run's count can be fixed in advance and played over sittings (``--minutes``), closed short of
it (``--stop``) or checked for futility (``--futility``): that bookkeeping is
``benchmarks/sequential.py``, which says how each works.

    .venv/bin/python benchmarks/leaderboard.py --games 40 --workers 2
    .venv/bin/python benchmarks/leaderboard.py --envs wizard_v0 --games 80     # continue one game
    .venv/bin/python benchmarks/leaderboard.py --envs bigwig_v1 --games 3000 --minutes 120
    .venv/bin/python benchmarks/leaderboard.py --envs midgard --futility 1000 --resample-seed 7
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import re
import shlex
import sys
import time
from pathlib import Path

import deckzoo.envs as E
from deckzoo.agents import zoo
from deckzoo.agents.cli_args import add_backend_arguments
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.boards import paired_summary
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.stats import (
    RATING_ORDERS,
    Z95,
    ranks_from_result,
    summarize,
    wilson_interval,
)
from deckzoo.agents.evaluation.tasks import SEATINGS, board_size
from deckzoo.agents.ladder import LABELS as LADDER
from deckzoo.agents.ladder import ladder

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page
import sequential  # the sibling module: fixed counts, sittings, stops, futility checks
from strength import parse_keyed  # the sibling script's ENV=VALUE option parser

RESULTS = Path(__file__).resolve().parent / "results"
PLAYERS = 4


def pairwise(records: list[dict], score_sign: int) -> dict[str, dict[str, dict]]:
    """``out[a][b]``: games in which ``a`` finished ahead of ``b`` (ties a half), with the Wilson
    interval, over the games where both played."""
    acc: dict[tuple[str, str], list[float]] = {}
    for rec in records:
        ranks = ranks_from_result(rec["scores"], rec["winners"], score_sign)
        for i, j in itertools.permutations(range(len(rec["seats"])), 2):
            a, b = rec["seats"][i], rec["seats"][j]
            if a == b:
                continue
            won = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            cell = acc.setdefault((a, b), [0.0, 0])
            cell[0] += won
            cell[1] += 1
    out: dict[str, dict[str, dict]] = {}
    for (a, b), (wins, n) in acc.items():
        lo, hi = wilson_interval(wins, n)
        out.setdefault(a, {})[b] = {"share": wins / n, "ci_low": lo, "ci_high": hi, "games": n}
    return out


def table(records: list[dict], score_sign: int, orders: int = RATING_ORDERS) -> list[dict]:
    """The summary rows (``evaluation.stats.summarize``) with the rating interval, best rated
    first."""
    rows = summarize(records, PLAYERS, score_sign, orders=orders)
    for r in rows:
        r["rating_low"] = r["rating_mu"] - Z95 * r["rating_sigma"]
        r["rating_high"] = r["rating_mu"] + Z95 * r["rating_sigma"]
    rows.sort(key=lambda r: -r["rating_mu"])
    return rows


def separated(rows: list[dict]) -> dict:
    """Whether random < heuristic < best of (ismcts, zoo), rating intervals disjoint."""
    by = {r["agent"]: r for r in rows}
    if not {"random", "heuristic"} <= set(by):
        return {"best": None, "separated": False}
    best = max(
        (by[a] for a in ("ismcts", "zoo") if a in by), key=lambda r: r["rating_mu"], default=None
    )
    if best is None:
        return {"best": None, "separated": False}
    ok = (
        by["random"]["rating_high"] < by["heuristic"]["rating_low"]
        and by["heuristic"]["rating_high"] < best["rating_low"]
    )
    return {"best": best["agent"], "separated": bool(ok)}


def futility(
    records: list[dict],
    score_sign: int,
    games: int,
    resamples: int = 40,
    seed: int = 0,
    orders: int = 8,
    progress: bool = False,
) -> dict:
    """How often ``games`` games drawn with replacement from ``records`` separate
    (``sequential.futility`` with this leaderboard's verdict, rated over ``orders`` orders)."""

    def separates(sample: list[dict], orders: int) -> bool:
        return separated(table(sample, score_sign, orders))["separated"]

    return sequential.futility(records, games, separates, resamples, seed, orders, progress)


def play(
    env: str,
    specs: list[tuple[str, str]],
    games: int,
    seed: int,
    batch: int,
    workers: int,
    records: list[dict],
    save,
    arena: dict | None = None,
    deadline: float | None = None,
) -> list[dict]:
    """Play games ``len(records) .. games - 1`` in batches, saving after each; ``arena``: more
    ArenaConfig fields (``backend="ray", address=...``). No batch starts after ``deadline`` (a
    ``time.monotonic()`` value), so a long run can be cut into sittings without losing a game."""
    agents = [f"{label}={spec}" for label, spec in specs]
    sign = E.game_class(env).score_sign
    while len(records) < games:
        if deadline is not None and time.monotonic() >= deadline:
            break
        n = min(batch, games - len(records))
        if (arena or {}).get("duplicate"):  # whole boards
            size = board_size(len(agents), PLAYERS, arena.get("seating", "rotate"))
            n = max(size, n - n % size)
        res = run_arena(
            ArenaConfig(
                env,
                agents,
                games=n,
                players=PLAYERS,
                seed=seed,
                workers=workers,
                first_game=len(records),
                **(arena or {}),
            )
        )
        done = finished_in_order(res.records, len(records))
        if (arena or {}).get("duplicate"):  # a board cut short is played again, whole
            done = done[: len(done) - len(done) % size]
        records += done
        save()
        rows = table(records, sign)
        print(
            f"  {env}: {len(records)} games; "
            + ", ".join(
                f"{r['agent']} {r['rating_mu']:.1f} [{r['rating_low']:.1f}, {r['rating_high']:.1f}]"
                for r in rows
            ),
            flush=True,
        )
        if res.interrupted:
            raise KeyboardInterrupt
    return records


def finished_in_order(batch: list[dict], start: int) -> list[dict]:
    """The games of a batch from index ``start`` up to the first one missing. A batch cut short
    (Ctrl-C, SIGTERM) by a pool of workers can have finished game ``start + 1`` but not ``start``;
    a run continues at game ``len(records)``, so keeping the later game would play it twice and
    never play the missing one."""
    out = []
    for rec in sorted(batch, key=lambda r: r["index"]):
        if rec["index"] != start + len(out):
            break
        out.append(rec)
    return out


def _ms(x) -> str:
    return "-" if x is None else f"{1000 * x:.0f}"


def _rating(row: dict) -> str:
    return f"{row['rating_mu']:.1f} [{row['rating_low']:.1f}, {row['rating_high']:.1f}]"


def markdown(data: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the summary and its chart, each
    game's tables, then how it was made and the lab notes."""
    meta = data["meta"]
    envs = results_page.EnvLabels()
    results = [
        (
            "| game | games | seating | random | heuristic | ismcts | zoo "
            "| separated (random < heuristic < best) | zoo ahead of heuristic [95%] |"
        ),
        "|---|---:|---|---|---|---|---|---|---|",
    ]
    for env, res in data["envs"].items():
        rows = {r["agent"]: r for r in res["rows"]}
        cells = [_rating(rows[a]) if a in rows else "-" for a in LADDER]
        sep = res["separation"]
        verdict = f"yes (best: {sep['best']})" if sep["separated"] else f"no (best: {sep['best']})"
        games, verdict = sequential.summary_cells(res, verdict)
        ahead = res["pairwise"].get("zoo", {}).get("heuristic")
        ahead = (
            "-"
            if ahead is None
            else f"{ahead['share']:.3f} [{ahead['ci_low']:.3f}, {ahead['ci_high']:.3f}]"
        )
        results.append(
            f"| {envs.label(env)} | {games} | {seating_of(res)} | "
            + " | ".join(cells)
            + f" | {verdict} | {ahead} |"
        )
    results += [
        *envs.note(),
        "",
        (
            "Ratings: openskill mu with its interval mu +- 1.96 sigma. Zoo ahead of heuristic: the "
            "share of games in which the zoo policy finished ahead of the heuristic (ties a half), "
            "with its Wilson interval."
        ),
        "",
        *results_page.charts(["leaderboard.png"], lambda _: "ratings of every game"),
    ]
    for env, res in data["envs"].items():
        results += [
            "",
            f"## {envs.label(env)}",
            "",
            (
                "| agent | rating mu [interval] | sigma | sd over orders | win share [95% CI] "
                "| mean score | ms/move wall / CPU / max CPU |"
            ),
            "|---|---|---:|---:|---|---:|---:|",
        ]
        for r in res["rows"]:
            results.append(
                f"| {r['agent']} | {r['rating_mu']:.2f} [{r['rating_low']:.2f}, "
                f"{r['rating_high']:.2f}] | {r['rating_sigma']:.2f} | {r['rating_order_sd']:.2f} "
                f"| {r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
                f"| {r['mean_score']:.1f} | {_ms(r['sec_per_move'])} / "
                f"{_ms(r.get('cpu_sec_per_move'))} / {_ms(r.get('max_cpu_sec_per_move'))} |"
            )
        order = [r["agent"] for r in res["rows"]]
        results += [
            "",
            "Pairwise (row ahead of column):",
            "",
            "| | " + " | ".join(order) + " |",
            "|---|" + "---|" * len(order),
        ]
        for a in order:
            cells = []
            for b in order:
                c = res["pairwise"].get(a, {}).get(b)
                cells.append(
                    "-"
                    if c is None
                    else f"{c['share']:.2f} [{c['ci_low']:.2f}, {c['ci_high']:.2f}]"
                )
            results.append(f"| {a} | " + " | ".join(cells) + " |")
        agents = ", ".join(f"{label} = `{spec}`" for label, spec in res["specs"])
        files = "".join(
            f"; `{name}` file sha256 {sha[:12]}" for name, sha in res.get("files", {}).items()
        )
        results += ["", f"Agents: {agents}{files}; arena seed {res['seed']}."]
        results += sequential.futility_lines(res)
    commands = meta["commands"]
    how = [
        (
            f"`benchmarks/leaderboard.py`, last run {meta['date']}, {meta['machine']}; "
            + (
                f"the command: {results_page.code_span(commands[0])}."
                if len(commands) == 1
                else f"{len(commands)} commands, the games of each game type continued from "
                "run to run (all under Lab notes), the last: "
                f"{results_page.code_span(commands[-1])}."
            )
        ),
        "",
        (
            f"{PLAYERS} players, every game seats random, heuristic, ISMCTS and the zoo policy "
            "once; seating (per game): `orders`, every order round the table, each rotated by one "
            "seat a game (24 line-ups: every agent follows every other equally often), or "
            "`rotate`, one line-up rotated by one seat a game, so the order round the table "
            "(random, heuristic, ISMCTS, zoo) never changes; each game's deal and agent seeds come "
            "from the game's arena seed (all recorded in leaderboard.json)."
        ),
        "",
        (
            "Rating: openskill Plackett-Luce (ranks: the winners, then points; no dynamics term, "
            "tau = 0, as the agents are fixed programs), the mean over "
            f"{RATING_ORDERS} random orders of the games (openskill's game-by-game update depends "
            "on the order, which means nothing here; the sd of mu over the orders is shown), "
            "interval mu +- 1.96 sigma. Win share: a win counts 1, a shared win 1/w; 95% "
            f"Wilson interval; 1/P = {1 / PLAYERS:.2f}. Pairwise: share of games in which the row "
            "agent finished ahead of the column agent (ties a half). Wall ms/move is wall-clock "
            "time inside `act` on a shared 2-core machine (its load average is given above); CPU "
            "ms/move is the playing process's CPU time, what an otherwise idle core would take."
        ),
    ]
    notes = [f"- {n}" for n in meta.get("notes", [])] + results_page.command_history(commands)
    return results_page.page("Leaderboard", results, how, notes)


def plot(data: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    envs = list(data["envs"])
    fig, axes = plt.subplots(1, len(envs), figsize=(3.2 * len(envs), 3.4), squeeze=False)
    colours = {"random": "#999999", "heuristic": "#4c72b0", "ismcts": "#c44e52", "zoo": "#55a868"}
    for ax, env in zip(axes[0], envs):
        rows = {r["agent"]: r for r in data["envs"][env]["rows"]}
        labels = [a for a in LADDER if a in rows]
        mu = [rows[a]["rating_mu"] for a in labels]
        err = [Z95 * rows[a]["rating_sigma"] for a in labels]
        ax.errorbar(range(len(labels)), mu, yerr=err, fmt="none", ecolor="black", capsize=5)
        ax.scatter(range(len(labels)), mu, c=[colours.get(a, "#333333") for a in labels], zorder=3)
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
        ax.set_title(f"{env} ({len(data['envs'][env]['records'])} games)", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("openskill rating, mu +- 1.96 sigma")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summarise_env(res: dict, env: str) -> None:
    sign = E.game_class(env).score_sign
    res["rows"] = table(res["records"], sign)
    res["pairwise"] = pairwise(res["records"], sign)
    res["separation"] = separated(res["rows"])
    res["separation"]["complete"] = sequential.complete(res)
    if duplicate_of(res):
        res["paired"] = paired_summary(res["records"], sign)


def duplicate_of(res: dict) -> bool:
    """Whether a run plays duplicate boards (runs recorded before boards existed did not)."""
    return res.get("duplicate", False)


def seating_of(res: dict) -> str:
    """A run's seating; runs recorded before seatings were chosen rotated one line-up."""
    return res.get("seating", "rotate")


def canonical(env: str) -> str:
    game_cls = E.game_class(env)
    return next(k for k, m in E.ENVS.items() if m.Game is game_cls)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--envs", default=",".join(E.ENVS), help="comma-separated envs (default: all)")
    p.add_argument(
        "--games",
        type=int,
        default=40,
        help="games per env (a multiple of 24 balances the orders round the table, of 4 the seats)",
    )
    p.add_argument("--games-for", action="append", metavar="ENV=N", help="games for one env")
    p.add_argument(
        "--spec-for",
        action="append",
        metavar="ENV=LABEL:SPEC",
        help="replace one ladder agent's spec for one env (e.g. wizard_v0=ismcts:ismcts:100)",
    )
    sequential.add_arguments(p)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    add_backend_arguments(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--seating",
        choices=SEATINGS,
        default=None,
        help="how a new run seats the agents (default orders: every order round the table, "
        "24 line-ups; rotate: one line-up rotated, the order round the table fixed); a recorded "
        "run keeps its own",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="a new run plays duplicate boards (one deal in every line-up, the same chance "
        "events; whole boards per batch); a recorded run keeps its own",
    )
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument(
        "--fresh", action="store_true", help="discard the recorded games of the envs played"
    )
    p.add_argument(
        "--note", action="append", default=[], help="a note printed under the tables (kept)"
    )
    return p


def load(path: Path, argv, notes: list[str]) -> dict:
    """The recorded results, with this command and its notes added to their metadata."""
    data = (
        json.loads(path.read_text())
        if path.exists()
        else {"meta": {"commands": [], "notes": []}, "envs": {}}
    )
    command = "python benchmarks/leaderboard.py " + shlex.join(
        argv if argv is not None else sys.argv[1:]
    )
    meta = data["meta"]
    if command not in meta["commands"]:
        meta["commands"].append(command)
    meta["notes"] += [n for n in notes if n not in meta["notes"]]
    return data


def parse_spec_for(items: list[str] | None) -> dict[str, dict[str, str]]:
    """``--spec-for ENV=LABEL:SPEC`` options as ``{env: {label: spec}}``."""
    spec_for: dict[str, dict[str, str]] = {}
    for item in items or []:
        env, eq, rest = item.partition("=")
        label, colon, spec = rest.partition(":")
        if not (eq and colon and label in LADDER):
            raise SystemExit(
                f"--spec-for takes ENV=LABEL:SPEC with LABEL one of {', '.join(LADDER)}, "
                f"got {item!r}"
            )
        spec_for.setdefault(canonical(env), {})[label] = spec
    return spec_for


def save(data: dict, out: Path) -> None:
    """Summarise every run and write leaderboard.json (atomically), .md and .png."""
    meta = data["meta"]
    meta["date"] = sequential.now()
    meta["machine"] = (
        f"{platform.machine()}, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for env, res in data["envs"].items():
        # a run of an earlier version of a game keeps the summary made when it was played: the
        # registry knows only the current version, and nothing can be added to such a run
        if res["records"] and env in E.ENVS:
            summarise_env(res, env)
    path = out / "leaderboard.json"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"meta": meta, "envs": data["envs"]}, indent=1))
    os.replace(tmp, path)
    shown = {"meta": meta, "envs": {e: r for e, r in data["envs"].items() if r["records"]}}
    (out / "leaderboard.md").write_text(markdown(shown))
    if shown["envs"]:
        plot(shown, out / "leaderboard.png")


def policy_files(specs: list[tuple[str, str]], game: str) -> dict[str, str]:
    """``{name: sha256}`` of the policy files the agents read: a spec names ``zoo:GAME`` by name
    only, so a run continued after the zoo replaced that policy would mix two agents under one
    label; the recorded hashes let a continuation refuse that. ``zoo`` anywhere in a spec (the
    agent, or a search's prior or rollout) reads the game's zoo file, ``ppo:PATH`` reads PATH."""
    files = {}
    for _, spec in specs:
        if re.search(r"(^|[:=/])zoo($|[:/])", spec):
            files[f"zoo:{game}"] = zoo.sha256(game)
        for m in re.findall(r"(?:^|[:=])ppo:([^:]+)", spec):
            p = Path(m)
            files[m] = hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else "missing"
    return dict(sorted(files.items()))


def changed_files(res: dict, files: dict[str, str]) -> list[str]:
    """The recorded policy files whose content differs now (runs recorded before the hashes
    were kept have none to compare)."""
    old = res.get("files")
    if old is None:
        return []
    return [p for p in sorted(set(old) | set(files)) if old.get(p) != files.get(p)]


def open_run(data: dict, env: str, specs: list[tuple[str, str]], args) -> dict:
    """The env's recorded run if it used these agents (and policy files), seed and seating; else a
    new one (which discards recorded games only with ``--fresh``)."""
    res = data["envs"].get(env)
    files = policy_files(specs, E.ENVS[env].Game.name)
    changed = [] if res is None else changed_files(res, files)
    if not (
        args.fresh
        or res is None
        or res["specs"] != [list(s) for s in specs]
        or changed
        or res["seed"] != args.seed
        or (args.seating is not None and seating_of(res) != args.seating)
        or (args.duplicate and not duplicate_of(res))
    ):
        return res
    if res is not None and res["records"] and not args.fresh:
        if changed:
            raise SystemExit(
                f"{env}: the recorded games' agents read {', '.join(changed)}, which has "
                "changed since (another policy under the same name); pass --fresh to start again"
            )
        raise SystemExit(
            f"{env}: the recorded games used other agents, another seed, another "
            "seating or no duplicate boards; pass --fresh to start again"
        )
    res = data["envs"][env] = {
        "specs": [list(s) for s in specs],
        "files": files,
        "seed": args.seed,
        "seating": args.seating or "orders",
        "duplicate": bool(args.duplicate),
        "records": [],
        "load_average": [],
    }
    return res


def check_futility(res: dict, env: str, args) -> None:
    """``--futility N``: resample the recorded games to N and keep the check with the run."""
    if not res["records"]:
        raise SystemExit(f"{env}: no games recorded, nothing to resample")
    try:
        check = futility(
            res["records"],
            E.game_class(env).score_sign,
            args.futility,
            args.resamples,
            args.resample_seed,
            args.resample_orders,
            progress=True,
        )
    except ValueError as exc:
        raise SystemExit(f"--futility: {exc}") from None
    res.setdefault("futility", []).append(check)
    print(
        f"{env}: from {check['games_recorded']} games, resampled to {args.futility}: "
        f"separated in {check['separated']} of {check['resamples']} ({check['share']:.3g})",
        flush=True,
    )


def play_sitting(env, res, specs, games, args, save_all, deadline) -> None:
    """Play the env's run towards ``games`` until done or past ``deadline``."""
    sequential.start_sitting(res, env, games)
    print(f"{env}: {len(res['records'])} of {games} games recorded", flush=True)
    res["load_average"].append(list(os.getloadavg()))
    arena = {
        "backend": args.backend,
        "address": args.address,
        "seating": seating_of(res),
        "duplicate": duplicate_of(res),
    }
    play(
        env,
        specs,
        games,
        args.seed,
        max(1, args.batch),
        args.workers,
        res["records"],
        save_all,
        arena,
        deadline,
    )
    if len(res["records"]) < games:
        print(
            f"{env}: stopped at {len(res['records'])} of {games} games "
            f"(--minutes {args.minutes:g}); run the same command again to continue",
            flush=True,
        )
    res["load_average"].append(list(os.getloadavg()))
    save_all()


def main(argv=None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.futility is not None and args.stop is not None:
        p.error("pass --futility or --stop, not both (one resamples the games, one closes the run)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = load(out / "leaderboard.json", argv, args.note)
    games_for = {
        canonical(k): int(v) for k, v in parse_keyed(args.games_for, "--games-for").items()
    }
    spec_for = parse_spec_for(args.spec_for)

    def save_all() -> None:
        save(data, out)

    deadline = sequential.deadline(args.minutes)
    try:
        for env in [canonical(e.strip()) for e in args.envs.split(",") if e.strip()]:
            specs = [
                (label, spec_for.get(env, {}).get(label, spec))
                for label, spec in ladder(E.ENVS[env].Game.name)
            ]
            res = open_run(data, env, specs, args)
            if args.futility is not None:
                check_futility(res, env, args)
            elif args.stop is not None:
                sequential.stop(res, env, args.stop)
            else:
                games = games_for.get(env, args.games)
                play_sitting(env, res, specs, games, args, save_all, deadline)
    except KeyboardInterrupt:
        print(
            "interrupted: the games finished in order are saved; run again to continue",
            file=sys.stderr,
        )
        save_all()
        return 130
    save_all()
    print((out / "leaderboard.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
