"""Agents: the Agent protocol, baselines, search, the arena and the CLI.

``load(spec, game=None, seed=None)`` builds any agent from its spec (``registry.make_agent``);
a zoo spec names its game, so ``load("zoo:wizard")`` needs nothing else.
"""


def load(spec: str, game: str | None = None, seed: int | None = None):
    """An agent from a spec: ``load("zoo:wizard")``, ``load("heuristic", "gobig")``,
    ``load("ismcts:300", game="bigwig", seed=1)``. ``game`` is required unless the spec is
    ``zoo:<game>``."""
    from deckzoo.envs.core.errors import ConfigError

    from .registry import make_agent

    name, _, arg = spec.partition(":")
    if game is None:
        if name != "zoo" or not arg:
            raise ConfigError(f"load({spec!r}) needs the game, e.g. load({spec!r}, 'wizard')")
        game = arg.partition(":")[0]
    return make_agent(spec, game, seed)
