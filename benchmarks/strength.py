"""Strength benchmark: heuristic vs random and ISMCTS vs heuristic in every available game.

For each env (its default player count and options unless overridden) two match-ups are played
in the arena (seats rotated, every game seeded from ``--seed``):

* ``heuristic`` in one seat against ``random`` in all the others;
* ISMCTS (``--ismcts``, per env ``--ismcts-for``) in one seat against ``heuristic`` in the others.

Games are added in batches of ``--batch`` (rounded up to a full seat rotation) until the hero's
95% Wilson interval for its win share no longer contains the uniform share 1/P (the strengths
are separated) and at least ``--min-games`` are played, or ``--max-games`` is reached. Stopping
on separation makes the interval slightly optimistic (a sequential test); ``--min-games`` keeps
that small. The ISMCTS budget is in iterations, so every game is reproducible; its measured
seconds per move are reported next to it (the targets ask for at most one second per move).

With ``--duplicate`` the games come in duplicate boards (``agents/evaluation/tasks.py``: one deal
in every seat rotation, with the same chance events; a batch is whole boards) and each row also
keeps the paired statistics over boards (``agents/evaluation/boards.py``).

Writes ``benchmarks/results/strength.md`` and ``strength.json`` (``--out`` to change).

    .venv/bin/python benchmarks/strength.py                       # everything, defaults
    .venv/bin/python benchmarks/strength.py --envs gobig_v0 --ismcts ismcts:300 --max-games 400
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path

import deckzoo.envs as E
from deckzoo.agents.cli_args import add_backend_arguments
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.boards import paired_summary
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.stats import summarize
from deckzoo.agents.registry import has_heuristic
from deckzoo.agents.strongest import DEFAULT_ISMCTS, strongest_ismcts

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page

RESULTS = Path(__file__).resolve().parent / "results"


def ismcts_for_games() -> dict[str, str]:
    """Each game's own search settings, its entry in ``agents/strongest.py`` (the strongest
    measured within about a second a move), else ``DEFAULT_ISMCTS``; override with --ismcts-for."""
    return {name: strongest_ismcts(name) for name in E.registry.env_names()}


def sequential_matchup(
    env: str,
    hero: str,
    opponent: str,
    players: int,
    options: dict,
    seed: int,
    batch: int,
    min_games: int,
    max_games: int,
    workers: int,
    log=print,
    **arena,
) -> dict:
    """``arena``: more ArenaConfig fields, e.g. ``backend="ray", address="auto"``."""
    """Play ``hero`` against ``opponent`` in batches until separated from 1/P (see module doc)."""
    batch = max(players, math.ceil(batch / players) * players)
    records: list[dict] = []
    t0 = time.perf_counter()
    hero_row = opp_row = None
    while len(records) < max_games:
        n = min(batch, max_games - len(records))
        if arena.get("duplicate"):
            n -= n % players  # whole boards (a board is one deal in every rotation)
            if not n:
                break
        res = run_arena(
            ArenaConfig(
                env,
                [hero, opponent],
                games=n,
                players=players,
                options=options,
                seed=seed,
                workers=workers,
                first_game=len(records),
                **arena,
            )
        )
        records += res.records
        if res.interrupted:
            raise KeyboardInterrupt
        rows = {r["agent"]: r for r in summarize(records, players, E.game_class(env).score_sign)}
        hero_row, opp_row = rows[hero], rows[opponent]
        separated = hero_row["ci_low"] > 1 / players or hero_row["ci_high"] < 1 / players
        log(
            f"  {env} {players}p {hero} vs {opponent}: {len(records)} games, win share "
            f"{hero_row['win_share']:.3f} [{hero_row['ci_low']:.3f}, {hero_row['ci_high']:.3f}]"
        )
        if separated and len(records) >= min_games:
            break
    row = {
        "env": env,
        "players": players,
        "options": options,
        "hero": hero,
        "opponent": opponent,
        "games": len(records),
        "seconds": time.perf_counter() - t0,
        "uniform": 1 / players,
        "hero_row": hero_row,
        "opponent_row": opp_row,
        "verdict": (
            "above"
            if hero_row["ci_low"] > 1 / players
            else "below"
            if hero_row["ci_high"] < 1 / players
            else "not separated"
        ),
    }
    if arena.get("duplicate"):
        row["duplicate"] = True
        row["paired"] = paired_summary(records, E.game_class(env).score_sign)
    return row


def markdown(rows: list[dict], meta: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the table, the targets, then how
    it was made and the lab notes."""
    specs: dict[str, str] = {}  # env -> the hero's spec, where the table shows only its name
    envs = results_page.EnvLabels()
    table = [
        (
            "| game | P | hero | opponents | games | hero win share [95% CI] | verdict "
            "| ms/move mean / max | CPU ms/move mean / max | mean score hero / opp. |"
        ),
        "|---|---:|---|---|---:|---|---|---:|---:|---:|",
    ]
    for r in rows:
        h, o = r["hero_row"], r["opponent_row"]
        hero = r["hero"].split(":")[0]
        if hero != r["hero"]:
            specs[envs.label(r["env"])] = r["hero"]
        table.append(
            f"| {envs.label(r['env'])} | {r['players']} | {hero} | {r['opponent']} | "
            f"{r['games']} | "
            f"{h['win_share']:.3f} [{h['ci_low']:.3f}, {h['ci_high']:.3f}] | {r['verdict']} | "
            f"{1000 * h['sec_per_move']:.1f} / {_ms(h.get('max_sec_per_move'))} | "
            f"{_ms(h.get('cpu_sec_per_move'))} / {_ms(h.get('max_cpu_sec_per_move'))} | "
            f"{h['mean_score']:.1f} / {o['mean_score']:.1f} |"
        )
    table += envs.note()
    if specs:
        table += ["", "The heroes' settings:", ""]
        table += [f"- {env}: `{spec}`" for env, spec in specs.items()]
    heur = [r for r in rows if r["hero"] == "heuristic"]
    srch = [r for r in rows if r["hero"] != "heuristic"]
    results = [
        *table,
        "",
        "## Targets",
        "",
        (
            "- heuristic above 1/P against random: "
            f"{sum(r['verdict'] == 'above' for r in heur)} of {len(heur)} games measured "
            f"({_above(heur, envs)})."
        ),
        (
            "- ISMCTS above 1/P against the heuristic: "
            f"{sum(r['verdict'] == 'above' for r in srch)} of {len(srch)} games measured "
            f"({_above(srch, envs)})"
            "; largest mean s/move "
            f"{max((r['hero_row']['sec_per_move'] for r in srch), default=0):.3f}"
            f"{_slowest(srch)}{_slowest_cpu(srch)}."
        ),
    ]
    if meta.get("skipped"):
        results += ["", "Not measured: " + "; ".join(meta["skipped"]) + "."]
    commands = meta["command"].split("; then ")
    how = [
        (
            f"`benchmarks/strength.py` on {meta['date']}, {meta['machine']}, {meta['workers']} "
            f"worker processes, seed {meta['seed']}; "
            + (
                f"the command: {results_page.code_span(commands[0])}."
                if len(commands) == 1
                else f"the first of its {len(commands)} commands (all under Lab notes): "
                f"{results_page.code_span(commands[0])}."
            )
        ),
        "",
        (
            "Win share: a win counts 1, a win shared by w seats 1/w. The interval is the 95% "
            "Wilson interval over the hero's games; 'above' means its lower end is above the "
            "uniform share 1/P. Games were added in batches until the interval separated from 1/P "
            "(or the cap). ms/move is wall-clock time per decision on this (shared) machine, on "
            "average and for the slowest decision; CPU ms/move is the playing process's CPU time, "
            "what an otherwise idle core would take ('-': not recorded by that run)."
        ),
    ]
    notes = [f"- {n}" for n in meta.get("notes", [])] + results_page.command_history(commands)
    return results_page.page("Strength benchmark", results, how, notes)


def parse_keyed(items, what) -> dict:
    out: dict = {}
    for item in items or []:
        env, eq, value = item.partition("=")
        if not eq:
            raise SystemExit(f"{what} takes ENV=VALUE, got {item!r}")
        out[env] = value
    return out


def main(argv=None) -> int:
    import yaml

    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--envs",
        default=",".join(E.registry.env_names()),
        help="comma-separated envs (default: every game)",
    )
    p.add_argument(
        "--ismcts",
        default=DEFAULT_ISMCTS,
        help="ISMCTS spec for every env (default: each game's entry in agents/strongest.py, else "
        f"{DEFAULT_ISMCTS})",
    )
    p.add_argument(
        "--ismcts-for", action="append", metavar="ENV=SPEC", help="ISMCTS spec for one env"
    )
    p.add_argument(
        "--players-for", action="append", metavar="ENV=P", help="player count for one env"
    )
    p.add_argument(
        "--option", action="append", metavar="ENV:KEY=VALUE", help="game option for one env"
    )
    p.add_argument(
        "--skip", default="", help="match-ups to skip: heuristic, ismcts (comma-separated)"
    )
    p.add_argument("--batch", type=int, default=40)
    p.add_argument("--min-games", type=int, default=40)
    p.add_argument("--max-games", type=int, default=400)
    p.add_argument(
        "--max-games-ismcts", type=int, default=None, help="cap for the ISMCTS match-ups"
    )
    p.add_argument(
        "--ismcts-cap-for",
        action="append",
        metavar="ENV=N",
        help="cap for one env's ISMCTS match-up (long games)",
    )
    p.add_argument("--workers", type=int, default=2)
    add_backend_arguments(p)
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play duplicate boards (one deal in every seat rotation, the same chance events)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument(
        "--append",
        action="store_true",
        help="keep the rows already in OUT/strength.json for match-ups not played now",
    )
    p.add_argument(
        "--note",
        action="append",
        default=[],
        help="a note printed under the table (kept by later --append runs; with --envs '' "
        "--append, only the notes are added)",
    )
    args = p.parse_args(argv)

    ismcts_for = {} if args.ismcts != DEFAULT_ISMCTS else ismcts_for_games()
    ismcts_for.update(parse_keyed(args.ismcts_for, "--ismcts-for"))
    players_for = {k: int(v) for k, v in parse_keyed(args.players_for, "--players-for").items()}
    options_for: dict[str, dict] = {}
    for item in args.option or []:
        env, _, kv = item.partition(":")
        key, eq, value = kv.partition("=")
        if not eq:
            raise SystemExit(f"--option takes ENV:KEY=VALUE, got {item!r}")
        options_for.setdefault(env, {})[key] = yaml.safe_load(value)
    skip = set(filter(None, args.skip.split(",")))
    args.ismcts_caps = {
        k: int(v) for k, v in parse_keyed(args.ismcts_cap_for, "--ismcts-cap-for").items()
    }
    rows, skipped = [], []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "command": "python benchmarks/strength.py "
        + " ".join(argv if argv is not None else __import__("sys").argv[1:]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": (
            f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
        ),
        "workers": args.workers,
        "seed": args.seed,
    }

    command = meta["command"]

    def save():
        # With --append the file is read again at every save, so two runs appending different
        # games at the same time both keep their rows.
        meta["skipped"] = skipped
        kept: list[dict] = []
        meta["command"] = command
        meta["notes"] = list(args.note)
        if args.append and (out / "strength.json").exists():
            old = json.loads((out / "strength.json").read_text())
            kept = old["rows"]
            if (
                not rows or command in old["meta"]["command"]
            ):  # nothing played (notes only), or saved before
                meta.update(
                    {k: old["meta"][k] for k in ("command", "date", "machine", "workers", "seed")}
                )
            else:
                meta["command"] = old["meta"]["command"] + "; then " + command
            meta["notes"] = old["meta"].get("notes", []) + [
                n for n in args.note if n not in old["meta"].get("notes", [])
            ]
        (out / "strength.json").write_text(
            json.dumps({"meta": meta, "rows": merge_rows(kept, rows)}, indent=1)
        )
        (out / "strength.md").write_text(markdown(merge_rows(kept, rows), meta))

    try:
        run_all(args, rows, skipped, ismcts_for, players_for, options_for, skip, save)
    except KeyboardInterrupt:
        print("interrupted: writing the match-ups that finished")
    save()
    print((out / "strength.md").read_text())
    return 0


def _above(rows: list[dict], envs) -> str:
    """The games whose rows are above 1/P, as the page names them."""
    return ", ".join(envs.label(r["env"]) for r in rows if r["verdict"] == "above") or "none"


def _slowest(rows: list[dict]) -> str:
    known = [
        r["hero_row"]["max_sec_per_move"]
        for r in rows
        if r["hero_row"].get("max_sec_per_move") is not None
    ]
    return f", slowest single move {max(known):.3f} s" if known else ""


def _slowest_cpu(rows: list[dict]) -> str:
    mean = [
        r["hero_row"]["cpu_sec_per_move"]
        for r in rows
        if r["hero_row"].get("cpu_sec_per_move") is not None
    ]
    top = [
        r["hero_row"]["max_cpu_sec_per_move"]
        for r in rows
        if r["hero_row"].get("max_cpu_sec_per_move") is not None
    ]
    if not mean:
        return ""
    return (
        f"; in CPU time: largest mean {max(mean):.3f} s/move, slowest single move {max(top):.3f} s"
    )


def _ms(seconds) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.0f}"


def merge_rows(kept: list[dict], rows: list[dict]) -> list[dict]:
    """``kept`` with each match-up in ``rows`` replaced or added, in registry order."""
    new_keys = {(r["env"], r["hero"] == "heuristic") for r in rows}
    all_rows = [r for r in kept if (r["env"], r["hero"] == "heuristic") not in new_keys] + rows
    order = {name: i for i, name in enumerate(E.registry.env_names())}
    all_rows.sort(key=lambda r: (order.get(r["env"], 99), r["hero"] != "heuristic"))
    return all_rows


def run_all(args, rows, skipped, ismcts_for, players_for, options_for, skip, save) -> None:
    arena = {"backend": args.backend, "address": args.address, "duplicate": args.duplicate}
    for env in [e.strip() for e in args.envs.split(",") if e.strip()]:
        game_cls = E.game_class(env)
        env = game_cls.env_name()
        players = players_for.get(env, game_cls.default_players)
        options = options_for.get(env, {})
        if not has_heuristic(game_cls.name):
            skipped.append(f"{env} (no heuristic agent yet)")
            continue
        print(f"{env}: {players} players, options {options}")
        if "heuristic" not in skip:
            rows.append(
                sequential_matchup(
                    env,
                    "heuristic",
                    "random",
                    players,
                    options,
                    args.seed,
                    args.batch,
                    args.min_games,
                    args.max_games,
                    args.workers,
                    **arena,
                )
            )
            save()
        if "ismcts" not in skip:
            spec = ismcts_for.get(env, args.ismcts)
            cap = args.ismcts_caps.get(env, args.max_games_ismcts or args.max_games)
            rows.append(
                sequential_matchup(
                    env,
                    spec,
                    "heuristic",
                    players,
                    options,
                    args.seed,
                    args.batch,
                    min(args.min_games, cap),
                    cap,
                    args.workers,
                    **arena,
                )
            )
            save()


if __name__ == "__main__":
    raise SystemExit(main())
