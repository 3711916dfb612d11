"""One heuristic agent per game: module name = the game name, exposing HeuristicAgent; a module
``<game>_batched`` exposing ``decide`` is that heuristic's batched twin (agents/batched.py)."""
