"""The learning-curve chart of a run: win share against each evaluation opponent, by step."""

from __future__ import annotations

from pathlib import Path


def plot_learning_curve(
    rows: list[dict],
    num_players: int,
    path: str | Path,
    title: str,
    final_step: float | None = None,
) -> Path:
    """Draw ``rows`` (eval.csv's rows: step, opponent, games, win_share, ci_low, ci_high) with
    their 95% intervals and the uniform share 1/P; returns ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for opp in sorted({r["opponent"] for r in rows}):
        # the final evaluation repeats the last step with more games: keep the larger sample
        by_step = {}
        for r in rows:
            if r["opponent"] == opp and (
                r["step"] not in by_step or r["games"] >= by_step[r["step"]]["games"]
            ):
                by_step[r["step"]] = r
        pts = [by_step[k] for k in sorted(by_step)]
        x = [r["step"] for r in pts]
        ax.plot(x, [r["win_share"] for r in pts], marker="o", label=f"vs {opp}")
        ax.fill_between(x, [r["ci_low"] for r in pts], [r["ci_high"] for r in pts], alpha=0.2)
    ax.axhline(1 / num_players, color="grey", linestyle="--", label="1/P")
    last = final_step if final_step is not None else max((r["step"] for r in rows), default=0)
    ax.set_xlim(0, max(last, 1) * 1.02)
    ax.set_ylim(0, 1)
    ax.set_xlabel("learner env steps")
    ax.set_ylabel("win share")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
