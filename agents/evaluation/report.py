"""The arena's output: the summary table (printed or as markdown), a duplicate run's paired
statistics, the win-share chart and the result files of a run.

Output (``out`` directory): ``games.csv`` and ``games.json`` (one record per game: seed, label
and spec per seat, scores, winners, returns, steps, seconds), ``summary.json``,
``summary.md`` (the table and the configuration) and ``win_share.png`` (win share per agent
with its 95% Wilson interval and the uniform share ``1/P``). ``deckzoo arena`` creates the folder
before the first game (``ResultsWriter``) and appends each game to games.csv as it finishes, so
even a run killed outright keeps its finished games.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

from deckzoo.envs.core.errors import ConfigError

from .boards import MIN_BOARDS, format_interval
from .config import ArenaResult
from .stats import RATING_ORDERS


def summary_markdown(result: ArenaResult) -> str:
    cfg = result.config
    lines = [
        f"# Arena: {result.game_name}, {result.num_players} players",
        "",
        f"- agents: {', '.join(cfg.agents)}",
        (
            f"- games: {len(result.records)} of {cfg.games}"
            f"{' (interrupted)' if result.interrupted else ''}; "
            f"seed {cfg.seed}; options {json.dumps(cfg.options, sort_keys=True)}"
        ),
        (
            f"- uniform win share 1/P = {1 / result.num_players:.3f}; "
            "intervals are 95% Wilson over seat-games"
        ),
        (
            f"- ratings: openskill Plackett-Luce, the mean over {RATING_ORDERS} random orders of "
            "the games; ordinal = mu - 3 sigma"
        ),
        f"- wall time {result.seconds:.1f} s",
        "",
        (
            "| agent | seat-games | win share | 95% CI | vs 1/P | mean score | rating mu | sigma | "
            "ordinal | s/move |"
        ),
        "|---|---:|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in result.summary:
        verdict = (
            "above"
            if r["ci_low"] > r["uniform"]
            else "below"
            if r["ci_high"] < r["uniform"]
            else "-"
        )
        lines.append(
            f"| {r['agent']} | {r['seat_games']} | {r['win_share']:.3f} | [{r['ci_low']:.3f}, "
            f"{r['ci_high']:.3f}] | {verdict} | {r['mean_score']:.2f} | {r['rating_mu']:.2f} | "
            f"{r['rating_sigma']:.2f} | {r['rating_ordinal']:.2f} | {r['sec_per_move']:.4f} |"
        )
    if result.paired is not None:
        lines += paired_markdown(result)
    return "\n".join(lines) + "\n"


def _ci(d: dict, digits: int = 3) -> str:
    return format_interval(d, digits)


def _number(x: float, spec: str, suffix: str = "") -> str:
    """``x`` formatted, or ``n/a`` where it could not be estimated (too few boards, no spread)."""
    return "n/a" if x is None or math.isnan(x) else f"{x:{spec}}{suffix}"


def paired_markdown(result: ArenaResult) -> list[str]:
    """The duplicate run's paired statistics (``agents/evaluation/boards.py``) as markdown lines."""
    p = result.paired
    lines = [
        "",
        "## Paired over boards (duplicate)",
        "",
        (
            f"- {p['boards']} boards, {p['games']} games; each board is one deal in every seating "
            "with the same chance events; intervals are 95% t intervals over board means, none "
            f"from fewer than {MIN_BOARDS} boards, Wilson score intervals where the boards show "
            "no spread"
        ),
        "- ratings: openskill with each board one game (board win share, then board score)",
        "",
        "| agent | boards | win share [95% CI] | mean score [95% CI] | rating mu | sigma |",
        "|---|---:|---|---|---:|---:|",
    ]
    for r in p["agents"]:
        lines.append(
            f"| {r['agent']} | {r['boards']} | {_ci(r['win_share'])} | "
            f"{_ci(r['mean_score'], 2)} | {r['rating_mu']:.2f} | {r['rating_sigma']:.2f} |"
        )
    if p["pairs"]:
        lines += [
            "",
            (
                "| A vs B | boards | games | A ahead of B [95% CI] | score A-B paired [95% CI] | "
                "unpaired half-width | variance reduction |"
            ),
            "|---|---:|---:|---|---|---:|---:|",
        ]
        for q in p["pairs"]:
            lines.append(
                f"| {q['a']} vs {q['b']} | {q['boards']} | {q['games']} | "
                f"{_ci(q['ahead_share'])} | {_ci(q['score_diff'], 2)} | "
                f"{_number(q['score_diff_unpaired']['half_width'], '.2f')} | "
                f"{_number(q['variance_reduction'], '.2f', 'x')} |"
            )
    st = result.stopping
    if st is not None:
        lo, hi = st["ahead_share_sequence"]
        verdict = (
            f"separated after board {st['stopped_at_board']}: {st['leader']} ahead"
            if st["separated"]
            else "not separated within the games allowed"
        )
        lines += [
            "",
            (
                f"- until separated ({st['a']}, {st['b']}): {verdict}; {st['boards_used']} boards "
                f"judged; {st['a']}'s ahead-of share confidence sequence [{lo:.3f}, {hi:.3f}] "
                f"(level {1 - st['alpha']:.0%}: {st['method']})"
            ),
        ]
    return lines


def print_paired(result: ArenaResult) -> None:
    """The paired statistics of a duplicate run, as plain lines."""
    for line in paired_markdown(result)[1:]:
        print(line)


def print_summary(result: ArenaResult, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    title = f"{result.game_name}, {result.num_players} players, {len(result.records)} games"
    if result.interrupted:
        title += " (interrupted)"
    table = Table(title=title)
    for col, just in [
        ("agent", "left"),
        ("seats", "right"),
        ("win share", "right"),
        ("95% CI", "center"),
        ("1/P", "right"),
        ("score", "right"),
        ("rating", "right"),
    ]:
        table.add_column(col, justify=just)
    for r in result.summary:
        table.add_row(
            r["agent"],
            str(r["seat_games"]),
            f"{r['win_share']:.3f}",
            f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
            f"{r['uniform']:.3f}",
            f"{r['mean_score']:.2f}",
            f"{r['rating_mu']:.1f}±{r['rating_sigma']:.1f}",
        )
    console.print(table)


def plot_win_share(summary: list[dict], title: str, path: Path) -> None:
    """The win-share chart. matplotlib is the agents extra's, not the base install's: without it
    the results are written all the same and one line says how to get the chart."""
    try:
        import matplotlib
    except ImportError:
        print(
            f"{path} not drawn: it needs matplotlib (pip install 'deckzoo[agents]')",
            file=sys.stderr,
        )
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [r["agent"] for r in summary]
    share = np.array([r["win_share"] for r in summary])
    lo = np.maximum(share - np.array([r["ci_low"] for r in summary]), 0.0)
    hi = np.maximum(np.array([r["ci_high"] for r in summary]) - share, 0.0)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.5))
    ax.bar(range(len(labels)), share, yerr=[lo, hi], capsize=6, color="#4c72b0")
    if summary:
        ax.axhline(summary[0]["uniform"], color="#c44e52", linestyle="--", label="uniform 1/P")
        ax.legend(loc="upper right")
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win share (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


RESULT_FILES = ("games.csv", "games.json", "summary.json", "summary.md", "win_share.png")


def check_out_dir(out: str | Path, force: bool = False) -> Path:
    """The results folder, if usable: not a file, not holding earlier results unless ``force``."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"arena: --out {str(out)!r} is a file; give a folder for the results")
    earlier = [f for f in RESULT_FILES if (out / f).exists()]
    if earlier and not force:
        raise ConfigError(
            f"arena: --out {str(out)!r} already holds results "
            f"({', '.join(earlier)}); choose another folder or pass --force to "
            "overwrite them"
        )
    return out


def _csv_header(num_players: int) -> list[str]:
    return (
        ["index", "seed"]
        + [f"seat_{s}" for s in range(num_players)]
        + [f"score_{s}" for s in range(num_players)]
        + ["winners", "steps", "seconds"]
    )


def _csv_row(r: dict) -> list:
    return [
        r["index"],
        r["seed"],
        *r["seats"],
        *r["scores"],
        ";".join(map(str, r["winners"])),
        r["steps"],
        f"{r['seconds']:.4f}",
    ]


class ResultsWriter:
    """The ``--out`` folder of a run in progress. Created and written to before the first game
    (``ConfigError`` in one line if it cannot be, instead of a traceback after the last game), and
    ``add`` appends each finished game to games.csv at once (in the order games finish), so a run
    stopped by any means, ``kill -9`` included, leaves its finished games. ``write_results``
    rewrites every file from the run's result at the end, games.csv in game order.

    Earlier results in the folder (allowed by ``force``) are removed first, so that a run that
    dies never leaves its games beside an older run's summary."""

    def __init__(self, out: str | Path, num_players: int, force: bool = False):
        self.out = check_out_dir(out, force)
        self.failed: str | None = None
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            for name in RESULT_FILES:
                (self.out / name).unlink(missing_ok=True)
            self._file = open(self.out / "games.csv", "w", newline="")  # noqa: SIM115 - see close
            self._csv = csv.writer(self._file)
            self._csv.writerow(_csv_header(num_players))
            self._file.flush()
        except OSError as e:
            raise ConfigError(
                f"arena: --out {str(out)!r} cannot be created or written ({_why(e)}); "
                "give a folder you can write to"
            ) from None

    def add(self, record: dict) -> None:
        """Append one finished game. A failure (a full disk) is said once and does not stop the
        run: its games are still in memory, and written at the end if the disk allows."""
        if self.failed is not None:
            return
        try:
            self._csv.writerow(_csv_row(record))
            self._file.flush()
        except OSError as e:
            self.failed = _why(e)
            print(
                f"arena: cannot append to {self.out / 'games.csv'}: {self.failed}", file=sys.stderr
            )

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass  # the final write_results reports what is wrong with the folder


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def _atomic_text(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a run killed while writing its results keeps the
    games.csv appended so far rather than a truncated one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, newline="" if path.suffix == ".csv" else None)
    os.replace(tmp, path)


def write_results(result: ArenaResult, out: str | Path) -> Path:
    """Every result file of ``result`` in ``out`` (created if needed), each replaced whole."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    n = result.num_players
    table = io.StringIO(newline="")
    w = csv.writer(table)
    w.writerow(_csv_header(n))
    for r in result.records:
        w.writerow(_csv_row(r))
    _atomic_text(out / "games.csv", table.getvalue())
    _atomic_text(
        out / "games.json",
        json.dumps({"config": asdict(result.config), "records": result.records}, indent=1),
    )
    _atomic_text(out / "summary.json", json.dumps(result.to_dict(), indent=1))
    _atomic_text(out / "summary.md", summary_markdown(result))
    if result.summary:
        plot_win_share(
            result.summary,
            f"{result.game_name}, {n} players, {len(result.records)} games",
            out / "win_share.png",
        )
    return out


__all__ = [
    "RESULT_FILES",
    "ResultsWriter",
    "check_out_dir",
    "paired_markdown",
    "plot_win_share",
    "print_paired",
    "print_summary",
    "summary_markdown",
    "write_results",
]
