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

Writes ``benchmarks/results/strength.md`` and ``strength.json`` (``--out`` to change).

    .venv/bin/python benchmarks/strength.py                       # everything, defaults
    .venv/bin/python benchmarks/strength.py --envs gobig_v0 --ismcts ismcts:300 --max-games 400
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

import deckzoo.envs as E
from deckzoo.agents.arena import ArenaConfig, run_arena
from deckzoo.agents.registry import has_heuristic
from deckzoo.agents.stats import summarize

RESULTS = Path(__file__).resolve().parent / "results"
# Search with the game's own heuristic as the rollout policy: in Go Big 60 such iterations beat
# the heuristic clearly, while 300 iterations with random rollouts only draw level with it.
DEFAULT_ISMCTS = "ismcts:60:rollout=heuristic"
# Per-game settings chosen from short pilot runs (4-16 games, shared 2-core machine) to stay well
# within a second per move.
# * Go Big: 60 iterations with the heuristic as the rollout policy beat the heuristic clearly,
#   while 300 iterations with random rollouts only draw level with it.
# * Big Number and Wizard are played in scoring rounds (deals, hands), and a rollout to the end of
#   the game (5-15 rounds) is slow and mostly noise: with it, 30-60 iterations a move stayed below
#   or level with the heuristic (0.13 and 0.35). ``horizon=1`` stops every iteration at the end of
#   the current round and values it by the points gained, which buys ~10x the iterations and a
#   cleaner signal: in 16-game pilots Big Number went from 0.13 to 0.38 and Wizard (4 games) won 3.
#   Adding ``bias=1`` (the heuristic's own move first) did not change Big Number (0.31, 16 games).
#   Their first moves of a round roll out whole rounds and take several times the average (Big
#   Number's slowest move took 2.9 s against a 0.36 s mean, load ~3), so ``1s`` caps every search
#   at one second of wall clock as well.
# * BigWig's heuristic (~3 ms a decision) is too slow to roll out with, so its search uses random
#   rollouts; a round there is one trick, too short a horizon for a game of hand management
#   (horizon=2: 0 wins in an 8-game pilot, points level).
# * Midgard: ~570 decisions a game and ~1 ms a heuristic decision: random rollouts cut at 100 moves.
# Override with --ismcts-for.
ISMCTS_FOR = {
    "gobig_v0": "ismcts:60:1s:rollout=heuristic",
    "bignumber_v0": "ismcts:500:1s:rollout=heuristic:horizon=1",
    "wizard_v0": "ismcts:300:1s:rollout=heuristic:horizon=1",
    "bigwig_v0": "ismcts:300:reward=score",
    "midgard_v0": "ismcts:60:reward=score:max_rollout_steps=100",
}


def sequential_matchup(env: str, hero: str, opponent: str, players: int, options: dict, seed: int,
                       batch: int, min_games: int, max_games: int, workers: int, log=print,
                       **arena) -> dict:
    """``arena``: more ArenaConfig fields, e.g. ``backend="ray", address="auto"``."""
    """Play ``hero`` against ``opponent`` in batches until separated from 1/P (see module doc)."""
    batch = max(players, math.ceil(batch / players) * players)
    records: list[dict] = []
    t0 = time.perf_counter()
    hero_row = opp_row = None
    while len(records) < max_games:
        n = min(batch, max_games - len(records))
        res = run_arena(ArenaConfig(env, [hero, opponent], games=n, players=players, options=options, seed=seed,
                                    workers=workers, first_game=len(records), **arena))
        records += res.records
        if res.interrupted:
            raise KeyboardInterrupt
        rows = {r["agent"]: r for r in summarize(records, players, E.game_class(env).score_sign)}
        hero_row, opp_row = rows[hero], rows[opponent]
        separated = hero_row["ci_low"] > 1 / players or hero_row["ci_high"] < 1 / players
        log(f"  {env} {players}p {hero} vs {opponent}: {len(records)} games, win share "
            f"{hero_row['win_share']:.3f} [{hero_row['ci_low']:.3f}, {hero_row['ci_high']:.3f}]")
        if separated and len(records) >= min_games:
            break
    return {
        "env": env, "players": players, "options": options, "hero": hero, "opponent": opponent,
        "games": len(records), "seconds": time.perf_counter() - t0, "uniform": 1 / players,
        "hero_row": hero_row, "opponent_row": opp_row,
        "verdict": ("above" if hero_row["ci_low"] > 1 / players else
                    "below" if hero_row["ci_high"] < 1 / players else "not separated"),
    }


def markdown(rows: list[dict], meta: dict) -> str:
    lines = [
        "# Strength benchmark",
        "",
        (f"Generated by `benchmarks/strength.py` ({meta['command']}) on {meta['date']}, "
        f"{meta['machine']}, {meta['workers']} worker processes, seed {meta['seed']}."),
        "",
        ("Win share: a win counts 1, a win shared by w seats 1/w. The interval is the 95% Wilson interval "
        "over the hero's games; 'above' means its lower end is above the uniform share 1/P. Games were "
        "added in batches until the interval separated from 1/P (or the cap). ms/move is wall-clock "
        "time per decision on this (shared) machine, on average and for the slowest decision ('-': "
        "not recorded by that run)."),
        "",
        ("| game | P | hero | opponents | games | hero win share | 95% CI | 1/P | verdict | hero ms/move | "
        "hero max ms/move | hero mean score | opp. mean score |"),
        "|---|---:|---|---|---:|---:|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        h, o = r["hero_row"], r["opponent_row"]
        lines.append(f"| {r['env']} | {r['players']} | {r['hero']} | {r['opponent']} | {r['games']} | "
                     f"{h['win_share']:.3f} | [{h['ci_low']:.3f}, {h['ci_high']:.3f}] | {r['uniform']:.3f} | "
                     f"{r['verdict']} | {1000 * h['sec_per_move']:.1f} | {_ms(h.get('max_sec_per_move'))} | "
                     f"{h['mean_score']:.1f} | {o['mean_score']:.1f} |")
    heur = [r for r in rows if r["hero"] == "heuristic"]
    srch = [r for r in rows if r["hero"] != "heuristic"]
    lines += [
        "",
        "## Targets (issue 8)",
        "",
        (f"- heuristic above 1/P against random: {sum(r['verdict'] == 'above' for r in heur)} of {len(heur)} "
        f"games measured ({', '.join(r['env'] for r in heur if r['verdict'] == 'above') or 'none'})."),
        (f"- ISMCTS above 1/P against the heuristic: {sum(r['verdict'] == 'above' for r in srch)} of "
        f"{len(srch)} games measured ({', '.join(r['env'] for r in srch if r['verdict'] == 'above') or 'none'});"
        f" largest mean s/move {max((r['hero_row']['sec_per_move'] for r in srch), default=0):.3f}"
        f"{_slowest(srch)}."),
    ]
    if meta.get("skipped"):
        lines += ["", "Not measured: " + "; ".join(meta["skipped"]) + "."]
    if meta.get("notes"):
        lines += ["", "## Notes", ""] + [f"- {n}" for n in meta["notes"]]
    return "\n".join(lines) + "\n"


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

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--envs", default=",".join(E.ENVS), help="comma-separated envs (default: all available)")
    p.add_argument("--ismcts", default=DEFAULT_ISMCTS, help=f"ISMCTS spec for every env (default {DEFAULT_ISMCTS}, or the per-game ISMCTS_FOR)")
    p.add_argument("--ismcts-for", action="append", metavar="ENV=SPEC", help="ISMCTS spec for one env")
    p.add_argument("--players-for", action="append", metavar="ENV=P", help="player count for one env")
    p.add_argument("--option", action="append", metavar="ENV:KEY=VALUE", help="game option for one env")
    p.add_argument("--skip", default="", help="match-ups to skip: heuristic, ismcts (comma-separated)")
    p.add_argument("--batch", type=int, default=40)
    p.add_argument("--min-games", type=int, default=40)
    p.add_argument("--max-games", type=int, default=400)
    p.add_argument("--max-games-ismcts", type=int, default=None, help="cap for the ISMCTS match-ups")
    p.add_argument("--ismcts-cap-for", action="append", metavar="ENV=N",
                   help="cap for one env's ISMCTS match-up (long games)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="play the games in local processes or as Ray tasks (docs/distributed.md)")
    p.add_argument("--address", default=None,
                   help="with --backend ray: the cluster (auto, HOST:PORT)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--append", action="store_true",
                   help="keep the rows already in OUT/strength.json for match-ups not played now")
    p.add_argument("--note", action="append", default=[],
                   help="a note printed under the table (kept by later --append runs; with --envs '' "
                        "--append, only the notes are added)")
    args = p.parse_args(argv)

    ismcts_for = {} if args.ismcts != DEFAULT_ISMCTS else dict(ISMCTS_FOR)
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
    args.ismcts_caps = {k: int(v) for k, v in parse_keyed(args.ismcts_cap_for, "--ismcts-cap-for").items()}
    rows, skipped = [], []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"command": "python benchmarks/strength.py " + " ".join(argv if argv is not None else __import__("sys").argv[1:]),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
            "workers": args.workers, "seed": args.seed}

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
            if not rows or command in old["meta"]["command"]:  # nothing played (notes only), or saved before
                meta.update({k: old["meta"][k] for k in ("command", "date", "machine", "workers", "seed")})
            else:
                meta["command"] = old["meta"]["command"] + "; then " + command
            meta["notes"] = old["meta"].get("notes", []) + [n for n in args.note if n not in old["meta"].get("notes", [])]
        (out / "strength.json").write_text(json.dumps({"meta": meta, "rows": merge_rows(kept, rows)}, indent=1))
        (out / "strength.md").write_text(markdown(merge_rows(kept, rows), meta))

    try:
        run_all(args, rows, skipped, ismcts_for, players_for, options_for, skip, save)
    except KeyboardInterrupt:
        print("interrupted: writing the match-ups that finished")
    save()
    print((out / "strength.md").read_text())
    return 0


def _slowest(rows: list[dict]) -> str:
    known = [r["hero_row"]["max_sec_per_move"] for r in rows if r["hero_row"].get("max_sec_per_move") is not None]
    return f", slowest single move {max(known):.3f} s" if known else ""


def _ms(seconds) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.0f}"


def merge_rows(kept: list[dict], rows: list[dict]) -> list[dict]:
    """``kept`` with each match-up in ``rows`` replaced or added, in registry order."""
    new_keys = {(r["env"], r["hero"] == "heuristic") for r in rows}
    all_rows = [r for r in kept if (r["env"], r["hero"] == "heuristic") not in new_keys] + rows
    order = {name: i for i, name in enumerate(E.ENVS)}
    all_rows.sort(key=lambda r: (order.get(r["env"], 99), r["hero"] != "heuristic"))
    return all_rows


def run_all(args, rows, skipped, ismcts_for, players_for, options_for, skip, save) -> None:
    arena = {"backend": args.backend, "address": args.address}
    for env in [e.strip() for e in args.envs.split(",") if e.strip()]:
        game_cls = E.game_class(env)
        env = next(k for k, m in E.ENVS.items() if m.Game is game_cls)
        players = players_for.get(env, game_cls.default_players)
        options = options_for.get(env, {})
        if not has_heuristic(game_cls.name):
            skipped.append(f"{env} (no heuristic agent yet)")
            continue
        print(f"{env}: {players} players, options {options}")
        if "heuristic" not in skip:
            rows.append(sequential_matchup(env, "heuristic", "random", players, options, args.seed, args.batch,
                                           args.min_games, args.max_games, args.workers, **arena))
            save()
        if "ismcts" not in skip:
            spec = ismcts_for.get(env, args.ismcts)
            cap = args.ismcts_caps.get(env, args.max_games_ismcts or args.max_games)
            rows.append(sequential_matchup(env, spec, "heuristic", players, options, args.seed, args.batch,
                                           min(args.min_games, cap), cap, args.workers, **arena))
            save()


if __name__ == "__main__":
    raise SystemExit(main())
