"""Tiny's cards: values 0-5, three copies each, four dealt to each seat. Every module of the
game takes its constants from here (and its action ids from actions.py, when a game has one), so
no module needs the rules module and none imports it back."""

VALUES, COPIES, HAND = 6, 3, 4
CARD = 0.25  # a card's weight in the encodings: three copies stay below 1
