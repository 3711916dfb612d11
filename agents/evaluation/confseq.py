"""An anytime-valid confidence sequence for the mean of bounded observations, and the stopping
rule of ``deckzoo arena --until-separated``.

The arena's separation question is whether agent A finishes ahead of agent B more or less often
than half the time. Each duplicate board gives one observation in ``[0, 1]``: A's "ahead of B"
share over the board's games (1 ahead, 1/2 level, 0 behind, averaged). Boards are independent
and identically distributed, so the question is the mean ``m`` of a bounded i.i.d. sequence.

A fixed-sample interval may not be looked at after every board: stopping the first time it
excludes 1/2 raises the error rate far above its level. A *confidence sequence* stays valid under
continuous monitoring: with probability at least ``1 - alpha`` it contains the true mean at every
board at once, so "stop as soon as it excludes 1/2" is wrong at most ``alpha`` of the time
whatever the stopping time.

Method: the hedged-capital betting confidence sequence of Waudby-Smith and Ramdas ("Estimating
means of bounded random variables by betting", JRSS B 2024, Theorem 3 with the predictable
plug-in bets of their section 5). For each candidate mean ``m`` two gamblers bet that the mean is
above and below ``m``; their average wealth

    K_t(m) = 1/2 prod_i (1 + l+_i (x_i - m)) + 1/2 prod_i (1 - l-_i (x_i - m))

is a non-negative martingale with ``K_0 = 1`` when ``m`` is the true mean, so by Ville's
inequality it ever reaches ``1 / alpha`` with probability at most ``alpha``. The confidence
sequence is every ``m`` whose wealth has never reached ``1/alpha``. The bets are predictable
(they use only earlier boards): ``l_t = sqrt(2 log(2/alpha) / (s2_{t-1} t log(1 + t)))`` from
the running variance ``s2`` (started at 1/4 with a prior mean of 1/2), truncated to
``3/4 / m`` and ``3/4 / (1 - m)`` so that no wealth can go negative.
"""

from __future__ import annotations

import math

import numpy as np

ALPHA = 0.05  # the error rate of --until-separated: a false "separated" at most 5% of the time
TRUNCATION = 0.75  # the most of its wealth a gambler may stake (c in Waudby-Smith and Ramdas)
GRID = np.linspace(0.0, 1.0, 2001)  # candidate means for the reported interval (0.0005 apart)


class BettingCS:
    """The confidence sequence above for observations in ``[0, 1]``, over ``grid`` candidate
    means (``grid=[0.5]`` is the bare test of "mean 1/2", what the stopping rule needs)."""

    def __init__(self, alpha: float = ALPHA, grid=GRID):
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
        self.alpha = alpha
        self.grid = np.asarray(grid, dtype=np.float64)
        self.log_up = np.zeros_like(self.grid)  # log wealth of the gambler betting "above m"
        self.log_down = np.zeros_like(self.grid)
        self.excluded = np.zeros(self.grid.shape, dtype=bool)  # wealth has reached 1/alpha
        self.n = 0
        self.mean_hat, self.var_sum = 0.5, 0.25  # the plug-in's prior: mean 1/2, variance 1/4

    def _bet(self) -> float:
        t = self.n + 1
        var = self.var_sum / t  # s2_{t-1}
        return math.sqrt(2.0 * math.log(2.0 / self.alpha) / (var * t * math.log(1.0 + t)))

    def update(self, x: float) -> None:
        """Add one observation (must be within [0, 1])."""
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"observations must be within [0, 1], got {x!r}")
        lam = self._bet()
        g = self.grid
        with np.errstate(divide="ignore"):
            up = np.minimum(lam, TRUNCATION / np.maximum(g, 1e-12))
            down = np.minimum(lam, TRUNCATION / np.maximum(1.0 - g, 1e-12))
        self.log_up += np.log1p(up * (x - g))
        self.log_down += np.log1p(-down * (x - g))
        self.excluded |= self.log_wealth() >= math.log(1.0 / self.alpha)
        self.n += 1
        self.mean_hat = (self.mean_hat * self.n + x) / (self.n + 1)  # (1/2 + sum x) / (n + 1)
        self.var_sum += (x - self.mean_hat) ** 2

    def log_wealth(self) -> np.ndarray:
        """log K_t(m) for each candidate mean."""
        return np.logaddexp(self.log_up, self.log_down) - math.log(2.0)

    def excludes(self, m: float) -> bool:
        """Whether ``m`` (a grid point) has left the confidence sequence."""
        i = np.flatnonzero(np.isclose(self.grid, m))
        if not len(i):
            raise ValueError(f"{m} is not one of the grid's candidate means")
        return bool(self.excluded[i[0]])

    def interval(self) -> tuple[float, float]:
        """The smallest and largest candidate mean still in the sequence (the running
        intersection); ``(nan, nan)`` if every candidate has left it (possible only by chance)."""
        kept = self.grid[~self.excluded]
        if not len(kept):
            return math.nan, math.nan
        return float(kept.min()), float(kept.max())


__all__ = ["ALPHA", "GRID", "TRUNCATION", "BettingCS"]
