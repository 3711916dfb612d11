"""Perfect-recall information states: what one seat saw, step by step.

A seat's information is what its ``view`` showed after every step of the game (an action with
its chance, or the set-up) and the actions it took itself: two histories are one information
state of a seat exactly when these sequences are equal (as ``deckzoo.envs.variants`` counts
them). ``Step`` is one link of a chain from the set-up to the current position, shared by every
state that descends from it (a clone costs nothing).

The information-state string is ``player_<p>`` and one line per step: ``> <action> |`` for an
own action, then the view's entries that changed as a JSON object (the first step: every entry;
``.``: nothing changed; `` -["key"]``: entries gone from the view). The tensor has a row per
step: ``observe(p)`` after it and the one-hot of the own action taken in it, zero-padded to
``max_game_length + 1`` rows.

Chance nodes are not steps: how many nodes a deal takes depends on the hidden cards (a hand of
two equal cards is one node, of two different cards two), so counting them would leak. The view
after the whole action is what the seat sees.

A state resampled for seat ``p`` (``resample_from_infostate``) links its first step to the real
chain for ``p`` only: ``p`` keeps its real string, while the other seats' strings start at the
resampled position (marked ``resampled``), so that no real hidden card enters them.
"""

from __future__ import annotations

import json

import numpy as np

from deckzoo.envs.core.game import State


def _plain(x):
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON-able in a view: {type(x).__name__}")


def _differs(a, b) -> bool:
    try:
        return bool(a != b)
    except ValueError:  # arrays compare element-wise
        return dumps(a) != dumps(b)


def dumps(value) -> str:
    """Canonical JSON (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


# A step whose depth is a multiple of this keeps each seat's whole text (``Step.text``).
CHECKPOINT = 32


class Step:
    """One step of the chain: the position after it, who acted (None: the set-up) and how.

    ``link``: for the first step of a resampled state, ``(p, step)``: seat ``p``'s history goes
    on from the real chain's ``step``. ``_seen`` caches, per seat, the view and the step's line
    (``_text`` the whole text at checkpoints, ``_rows`` the observations); they are filled on
    demand and the same for every state sharing the step, so sharing them is safe.
    """

    __slots__ = (
        "_rows",
        "_seen",
        "_text",
        "action",
        "actor",
        "depth",
        "engine",
        "link",
        "parent",
    )

    def __init__(self, parent, engine: State, actor, action, link=None):
        self.parent, self.engine, self.actor, self.action = parent, engine, actor, action
        self.link = link
        before = parent if link is None else link[1]
        self.depth = 0 if before is None else before.depth + 1
        self._seen: dict[int, tuple[dict, str | None]] = {}
        self._text: dict[int, str] = {}
        self._rows: dict[int, np.ndarray] = {}

    def observation(self, p: int) -> np.ndarray:
        """``observe(p)`` after this step (cached, read-only)."""
        row = self._rows.get(p)
        if row is None:
            row = self._rows[p] = self.engine.observe(p)
            row.flags.writeable = False
        return row

    def action_name(self) -> str:
        """The action's name, as the position before it names it (the previous step's)."""
        return self.parent.engine.action_name(self.action)

    def _up(self, p: int):
        """The step before this one in ``p``'s history (None: this one starts it)."""
        if self.link is not None:
            seat, step = self.link
            return step if seat == p else None
        return self.parent

    def seen(self, p: int) -> tuple[dict, str | None]:
        """``p``'s view after this step and the step's line (None: the first step of a world
        resampled for ``p``, where ``p``'s history goes on unchanged)."""
        if p in self._seen:
            return self._seen[p]
        chain, step = [], self
        while step is not None and p not in step._seen:  # iterative: games run to 10**4 steps
            chain.append(step)
            step = step._up(p)
        for step in reversed(chain):
            up = step._up(p)
            view = step.engine.view(p)
            before = None if up is None else up._seen[p][0]
            start = "resampled " if step.link is not None and up is None else ""
            if before is None:
                changed, gone = view, []
            else:
                changed = {
                    k: v for k, v in view.items() if k not in before or _differs(before[k], v)
                }
                gone = [k for k in before if k not in view]
            if step.link is not None and up is not None:  # a resampled world, not a step
                step._seen[p] = (view, None)
                continue
            own = step.actor == p and step.action is not None
            line = f"> {step.action_name()} | " if own else ""
            line += dumps(changed) if changed else "."
            if gone:
                line += " -" + dumps(sorted(gone))
            step._seen[p] = (view, start + line)
        return self._seen[p]

    def text(self, p: int) -> str:
        """``p``'s lines from the start to this step, one a line.

        Every ``CHECKPOINT``-th step keeps the text up to it, so a step's text costs at most
        that many lines of walking and one copy, without a whole text kept at every step.
        """
        self.seen(p)
        walk, step = [], self
        while step is not None and p not in step._text:
            walk.append(step)
            step = step._up(p)
        parts = [step._text[p]] if step is not None and step._text[p] else []
        for s in reversed(walk):
            if s._seen[p][1] is not None:
                parts.append(s._seen[p][1])
            if s.depth % CHECKPOINT == 0:
                s._text[p] = "\n".join(parts)
                parts = [s._text[p]] if s._text[p] else []
        return "\n".join(parts)

    def path(self, p: int) -> list[Step]:
        """The steps of ``p``'s history, first to last."""
        self.seen(p)
        out, step = [], self
        while step is not None:
            if step._seen[p][1] is not None:
                out.append(step)
            step = step._up(p)
        return out[::-1]


def info_string(step: Step | None, p: int) -> str:
    if step is None:
        return f"player_{p}"
    return f"player_{p}\n{step.text(p)}"


def info_tensor(step: Step | None, p: int, obs: np.ndarray, acts: np.ndarray) -> None:
    """Fill ``obs`` (rows x observation) and ``acts`` (rows x actions), zeroed first."""
    obs.fill(0)
    acts.fill(0)
    if step is None:
        return
    for row, s in enumerate(step.path(p)):
        if row >= len(obs):
            raise ValueError(f"more steps than the {len(obs)} rows of the tensor")
        obs[row] = s.observation(p)
        if s.actor == p and s.action is not None:
            acts[row, s.action] = 1.0
