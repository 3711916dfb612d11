"""An arena run's configuration (``ArenaConfig``), its result (``ArenaResult``) and its agents'
labels (``parse_agents``): what the task builders (``evaluation.tasks``), the play loop
(``evaluation.arena``) and the output writers (``evaluation.report``) share.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from deckzoo.envs.core.errors import ConfigError


@dataclass
class ArenaConfig:
    """One arena run.

    Attributes:
        game: env or game name (``gobig``, ``gobig_v0``).
        agents: agent specs, optionally ``label=spec``.
        games: number of games.
        players: seats per game (None: the game's default).
        options: game options (besides ``num_players``).
        seed: the one seed every game's deal and agents derive from.
        workers: processes (1 plays in this process).
        progress: show a progress bar.
        first_game: index of the first game; runs of games ``0..k-1`` then ``k..m-1`` play exactly
            the games of one run of ``0..m-1`` (for sequential benchmarks that add batches).
        backend: ``local`` (this process or a process pool) or ``ray`` (Ray tasks).
        address: with ``ray``, the cluster to join (``auto``, ``HOST:PORT``); None starts a local
            Ray instance of ``workers`` CPUs.
        save_games: keep the actions of the first ``save_games`` games of each pairing (a set of
            agents at one table, whatever its seating; ``schedule``) for replay files: their
            records gain ``actions`` and ``agent_seeds`` (``agents/tools/replay.py``).
        seating: ``rotate`` (each table in its P rotations) or ``orders`` (each table in every
            order round it, each in its P rotations); see ``evaluation.tasks``.
        duplicate: play boards (one deal in every line-up of a table, with the same chance
            outcomes); see ``evaluation.tasks``.
        until_separated: two agent labels ``(A, B)``: with ``duplicate``, stop once they are
            separated (``games`` is then the most games played).
    """

    game: str
    agents: list[str]
    games: int = 100
    players: int | None = None
    options: dict = field(default_factory=dict)
    seed: int = 0
    workers: int = 1
    progress: bool = False
    first_game: int = 0
    backend: str = "local"
    address: str | None = None
    save_games: int = 0
    seating: str = "rotate"
    duplicate: bool = False
    until_separated: tuple[str, str] | list[str] | None = None
    engine: str = "auto"
    batch_size: int = 1024


@dataclass
class ArenaResult:
    config: ArenaConfig
    game_name: str
    num_players: int
    records: list[dict]
    summary: list[dict]
    interrupted: bool
    seconds: float
    paired: dict | None = None  # duplicate runs: evaluation.boards.paired_summary
    stopping: dict | None = None  # until_separated: evaluation.boards.SeparationMonitor.report
    engine: str = "scalar"  # where the games were played: "scalar" or "batched"
    engine_reason: str = ""

    def to_dict(self) -> dict:
        out = {
            "config": asdict(self.config),
            "game": self.game_name,
            "num_players": self.num_players,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "games_played": len(self.records),
            "engine": self.engine,
            "engine_reason": self.engine_reason,
            "summary": self.summary,
        }
        if self.paired is not None:
            out["paired"] = self.paired
        if self.stopping is not None:
            out["stopping"] = self.stopping
        return out


def parse_agents(specs: list[str]) -> list[tuple[str, str]]:
    """``["heuristic", "fast=ismcts:50"]`` ->
    ``[("heuristic", "heuristic"), ("fast", "ismcts:50")]``.

    Labels name the rows of the results, so each must be non-empty and used once (an unlabelled
    spec is its own label: ``random,random`` needs labels, ``a=random,b=random``)."""
    out = []
    for spec in specs:
        spec = spec.strip()
        if not spec:
            raise ConfigError("an agent spec is empty (two commas in a row, or a comma at an end?)")
        head, eq, rest = spec.partition("=")
        if eq and ":" not in head:
            label, rest = head.strip(), rest.strip()
            if not label:
                raise ConfigError(
                    f"agent {spec!r} has an empty label; write LABEL=SPEC, "
                    f"e.g. a={rest or 'random'}"
                )
            if not rest:
                raise ConfigError(f"agent label {label!r} has no spec after '='")
            out.append((label, rest))
        else:
            out.append((spec, spec))
    labels = [label for label, _ in out]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ConfigError(
            f"agent label(s) {', '.join(map(repr, twice))} used more than once; "
            "give each agent its own label, e.g. a=random,b=random"
        )
    return out


__all__ = ["ArenaConfig", "ArenaResult", "parse_agents"]
