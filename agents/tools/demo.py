"""``deckzoo demo``: a short series of games between the baseline agents, for every game.

For each available env it seats the strongest available baseline (heuristic if the game has
one, else random) against random agents, rotating seats, and prints one results table.
"""

from __future__ import annotations

import time

import numpy as np

import deckzoo.envs as E
from deckzoo.envs.core.errors import ConfigError

from ..cli_args import count_arg, seed_arg
from ..evaluation.match import play_match
from ..registry import has_heuristic, make_agent


def run_demo(games_per_env: int = 40, seed: int = 0, out=print) -> list[dict]:
    if isinstance(games_per_env, bool) or not isinstance(games_per_env, int) or games_per_env < 1:
        raise ConfigError(f"demo: 'games' must be a whole number >= 1, got {games_per_env!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ConfigError(f"demo: 'seed' must be a whole number in 0..2**63-1, got {seed!r}")
    rows = []
    for env_name in E.registry.env_names():
        game_cls = E.game_class(env_name)
        game_name = game_cls.name
        game = game_cls(**E.registry.demo_options(env_name))
        n = game.num_players
        hero = "heuristic" if has_heuristic(game_name) else "random"
        wins = 0.0
        steps = 0
        t0 = time.perf_counter()
        rng = np.random.default_rng(seed)
        for g in range(games_per_env):
            hero_seat = g % n
            specs = ["random"] * n
            specs[hero_seat] = hero
            agents = [make_agent(s, game_name, int(rng.integers(2**31))) for s in specs]
            labels = [f"{s}" for s in specs]
            res = play_match(game, agents, labels, seed=int(rng.integers(2**63)))
            if hero_seat in res.winners:
                wins += 1.0 / len(res.winners)
            steps += res.steps
        dt = time.perf_counter() - t0
        rows.append(
            {
                "env": env_name,
                "players": n,
                "games": games_per_env,
                "agent": hero,
                "vs": "random",
                "win_share": wins / games_per_env,
                "uniform": 1 / n,
                "steps_per_game": steps / games_per_env,
                "seconds": dt,
            }
        )
    header = (
        f"{'env':<14}{'players':>8}{'games':>7}  {'agent':<10}{'vs':<8}"
        f"{'win share':>10}{'1/P':>7}{'steps/game':>12}{'sec':>7}"
    )
    out(header)
    out("-" * len(header))
    for r in rows:
        out(
            f"{r['env']:<14}{r['players']:>8}{r['games']:>7}  {r['agent']:<10}{r['vs']:<8}"
            f"{r['win_share']:>10.2f}"
            f"{r['uniform']:>7.2f}{r['steps_per_game']:>12.1f}{r['seconds']:>7.1f}"
        )
    return rows


def add_parser(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="play a short series of baseline games in every game and print a table",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    p.add_argument("--games", type=count_arg(1), default=40, help="games per env (default 40)")
    p.add_argument(
        "--seed", type=seed_arg, default=0, help="the seed the games derive from (default 0)"
    )
    p.set_defaults(func=lambda args: run_demo(args.games, args.seed))
