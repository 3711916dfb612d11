"""Agents: the Agent protocol, baselines, search, the arena and the CLI."""
