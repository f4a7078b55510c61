"""pardon: the board game Sorry!, every edition, played exactly by the rules."""

__version__ = "0.1.0"
