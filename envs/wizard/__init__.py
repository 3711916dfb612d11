"""Wizard: trick-taking with predictions. See rules.py."""
