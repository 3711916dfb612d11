"""Go Big: bank, play a set, beat the nearest higher sets, draw. See rules.py."""
