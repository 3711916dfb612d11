"""deckzoo arena GAME --agents A,B,... [--games N] [--players P] [--workers W] [--out DIR]

Plays seeded games between agents on the engine, rotating seats, and prints a table of win
shares (95% intervals) and ratings. With --out it writes games.csv, games.json, summary.json,
summary.md and win_share.png there; games.csv gets each game as it finishes. Ctrl-C (or SIGTERM)
stops early: the games that finished are summarised, printed and written as usual, however many
more signals follow, and the exit status is 130.

With --duplicate the games come in boards: one deal played in every seating of the line-up with
the same chance events, so the luck of the cards is shared, and the summary adds paired
statistics over boards. --until-separated A,B --max-games N plays boards
until an anytime-valid confidence sequence separates A from B, or N games.

With --backend ray the games are Ray tasks: on a local Ray instance of --workers CPUs, or with
--address auto|HOST:PORT on every CPU of that cluster (needs deckzoo[ray]).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError

from ..cli_args import add_backend_arguments, add_option_argument, count_arg, seed_arg
from ..registry import agent_kinds


def run(args) -> int:
    from .arena import stop_signals
    from .config import ArenaConfig
    from .report import check_out_dir

    pair = args.until_separated.split(",") if args.until_separated else None
    if args.max_games is not None and pair is None:
        raise ConfigError("arena: --max-games goes with --until-separated (else use --games)")
    cfg = ArenaConfig(
        game=args.game,
        agents=args.agents.split(","),
        games=args.max_games if pair and args.max_games else args.games,
        players=args.players,
        options=dict(args.option or []),
        seed=args.seed,
        workers=args.workers,
        progress=not args.no_progress,
        save_games=args.save_games,
        backend=args.backend,
        address=args.address,
        seating=args.seating,
        duplicate=args.duplicate or pair is not None,
        until_separated=pair,
        engine=args.engine,
        batch_size=args.batch_size,
    )
    if args.out:
        check_out_dir(args.out, args.force)
    # From here Ctrl-C and SIGTERM stop play once; any further ones are ignored until the
    # finished games are summarised, printed and written (evaluation.arena.StopSignals).
    with stop_signals():
        return _run(args, cfg)


def _run(args, cfg) -> int:
    from .arena import check_arena, run_arena
    from .report import ResultsWriter, print_summary, write_results
    from .tasks import schedule_length

    game = check_arena(cfg)  # every ConfigError is one line and exit status 2 (deckzoo.agents.cli)
    cycle = schedule_length(len(cfg.agents), game.num_players, cfg.seating)
    if cfg.games % cycle:
        what = "seat rotation" if cfg.seating == "rotate" else "cycle of seatings"
        print(
            f"note: {cycle} games make one full {what}; {cfg.games} is not a multiple, "
            "so seats are not perfectly balanced",
            file=sys.stderr,
        )
    writer = ResultsWriter(args.out, game.num_players, args.force) if args.out else None
    try:
        result = run_arena(cfg, on_record=writer.add if writer else None)
    finally:
        if writer is not None:
            writer.close()
    if result.interrupted:
        print(f"interrupted: keeping {len(result.records)} finished games", file=sys.stderr)
    if not result.records:
        print("no game finished", file=sys.stderr)
        return 130 if result.interrupted else 1
    if args.save_games:
        from ..tools.replay import write_arena_replays

        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = (
            Path(args.out) / "replays"
            if args.out
            else Path("deckzoo_games") / f"arena-{result.game_name}-{stamp}"
        )
        saved = write_arena_replays(result, folder)
        print(
            f"{len(saved)} replays written to {folder}/ "
            "(view one: deckzoo replay FILE --html OUT.html)"
        )
    print_summary(result)
    if result.paired is not None:
        from .report import print_paired

        print_paired(result)
    if args.out:
        try:
            out = write_results(result, args.out)
        except OSError as e:
            raise ConfigError(
                f"arena: the results could not be written to {args.out!r} "
                f"({e.strerror or e}); the table above has them"
            ) from None
        names = ("games.csv", "games.json", "summary.md", "summary.json", "win_share.png")
        written = ", ".join(n for n in names if (out / n).exists())
        print(f"results written to {out}/ ({written})")
    return 130 if result.interrupted else 0


def add_parser(sub) -> None:
    kinds = "; ".join(agent_kinds())
    p = sub.add_parser(
        "arena",
        help="play agents against each other and report win shares and ratings",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help=f"game or env name: {', '.join(registry.games())}")
    p.add_argument(
        "--agents",
        required=True,
        metavar="SPEC,SPEC,...",
        help=f"comma-separated agents, each SPEC or LABEL=SPEC (labels must differ), e.g. "
        f"heuristic,fast=ismcts:50,slow=ismcts:500. Kinds: {kinds}",
    )
    p.add_argument("--games", type=count_arg(1), default=100, help="number of games (default 100)")
    p.add_argument(
        "--players",
        type=count_arg(1),
        default=None,
        help="seats per game (default: the game's default)",
    )
    p.add_argument(
        "--workers",
        type=count_arg(1),
        default=min(2, os.cpu_count() or 1),
        help="processes playing games (default 2)",
    )
    p.add_argument(
        "--seed", type=seed_arg, default=0, help="the seed every game derives from (default 0)"
    )
    add_option_argument(p)
    from .tasks import SEATINGS

    p.add_argument(
        "--seating",
        choices=SEATINGS,
        default="rotate",
        help="rotate: each line-up in its rotations, so the order round the table never changes "
        "(default); orders: every order round the table, each rotated, so every agent also "
        "follows every other equally often (24 line-ups at 4 players)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="folder for games.csv/json, summary.md/json, win_share.png (must not hold results)",
    )
    p.add_argument(
        "--force", action="store_true", help="with --out: overwrite earlier results in DIR"
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play boards: each deal in every seating of the line-up, with the same chance "
        "events; paired statistics over boards (--games must be whole boards)",
    )
    p.add_argument(
        "--until-separated",
        default=None,
        metavar="A,B",
        help="with boards (implies --duplicate): stop once an anytime-valid 95%% confidence "
        "sequence on A's ahead-of-B share per board excludes 1/2, or after --max-games",
    )
    p.add_argument(
        "--max-games",
        type=count_arg(1),
        default=None,
        metavar="N",
        help="with --until-separated: the most games to play (default: --games)",
    )
    p.add_argument(
        "--engine",
        choices=("auto", "scalar", "batched"),
        default="auto",
        help="where the games are played: batched (many at once on the game's batched engine, "
        "or on scalar lanes for a game without one; every agent needs a batched form), scalar "
        "(one game at a time), auto (default: batched where the line-up allows, says which)",
    )
    p.add_argument(
        "--batch-size",
        type=count_arg(1),
        default=1024,
        metavar="B",
        help="with the batched engine: games played at once (default 1024)",
    )
    add_backend_arguments(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--save-games",
        type=count_arg(0),
        default=0,
        metavar="N",
        help="keep the first N games of each pairing as replay files, in OUT/replays/ "
        "(default 0; without --out in deckzoo_games/arena-GAME-TIME/)",
    )
    p.set_defaults(func=run)
