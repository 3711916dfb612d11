"""``deckzoo arena GAME --agents a,b,... --games N --players P [--workers 2] [--out DIR]``.

Plays the games (see ``agents/arena.py``), prints the summary table and, with ``--out``, writes
games.csv/json, summary.json/md and win_share.png there. Ctrl-C stops early and keeps what
finished.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError


def parse_option(text: str) -> tuple[str, object]:
    """``key=value`` with the value read as YAML (``3`` -> 3, ``null`` -> None, ``literal`` -> str)."""
    import yaml

    key, eq, value = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"options are key=value, got {text!r}")
    return key, yaml.safe_load(value)


def run(args) -> int:
    from .arena import (
        ArenaConfig,
        parse_agents,
        print_summary,
        run_arena,
        schedule_length,
        write_results,
    )

    agents = [a for a in args.agents.split(",") if a.strip()]
    cfg = ArenaConfig(game=args.game, agents=agents, games=args.games, players=args.players,
                      options=dict(args.option or []), seed=args.seed, workers=args.workers,
                      progress=not args.no_progress, save_games=args.save_games)
    try:
        import deckzoo.envs as E

        players = args.players or E.game_class(args.game).default_players
        cycle = schedule_length(len(parse_agents(agents)), players)
        if args.games % cycle:
            print(f"note: {cycle} games make one full seat rotation; {args.games} is not a multiple, "
                  "so seats are not perfectly balanced", file=sys.stderr)
        result = run_arena(cfg)
    except ConfigError as e:
        print(f"deckzoo arena: {e}", file=sys.stderr)
        return 2
    if result.interrupted:
        print(f"interrupted: keeping {len(result.records)} finished games", file=sys.stderr)
    if not result.records:
        print("no game finished", file=sys.stderr)
        return 1
    if args.save_games:
        from .replay import write_arena_replays

        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = (Path(args.out) / "replays" if args.out else
                  Path("deckzoo_games") / f"arena-{result.game_name}-{stamp}")
        saved = write_arena_replays(result, folder)
        print(f"{len(saved)} replays written to {folder}/ "
              "(view one: deckzoo replay FILE --html OUT.html)")
    print_summary(result)
    if args.out:
        out = write_results(result, args.out)
        print(f"results written to {out}/ (games.csv, games.json, summary.md, summary.json, win_share.png)")
    return 130 if result.interrupted else 0


def add_parser(sub) -> None:
    p = sub.add_parser("arena", help="play agents against each other and report win shares and ratings",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help=f"game or env name: {', '.join(registry.games())}")
    p.add_argument("--agents", required=True,
                   help="comma-separated agent specs, optionally label=spec: random, heuristic, ismcts, "
                        "ismcts:500, ismcts:0.5s, ismcts:300:rollout=heuristic")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--players", type=int, default=None, help="seats per game (default: the game's default)")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    p.add_argument("--seed", type=int, default=0, help="the seed every game derives from (default 0)")
    p.add_argument("--option", action="append", type=parse_option, metavar="KEY=VALUE",
                   help="a game option, e.g. --option end_rule=literal (repeatable)")
    p.add_argument("--out", default=None, help="directory for games.csv/json, summary.md/json, win_share.png")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--save-games", type=int, default=0, metavar="N",
                   help="keep the first N games of each pairing as replay files, in OUT/replays/ "
                        "(default 0; without --out in deckzoo_games/arena-GAME-TIME/)")
    p.set_defaults(func=run)
