"""One heuristic agent per game: module name = the game name, exposing HeuristicAgent."""
