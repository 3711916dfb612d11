"""Big Number: the climbing game (an adaptation of Odin). See rules.py."""
