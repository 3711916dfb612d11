"""Midgard: troops, worlds, challenges, battles. See rules.py."""
