"""Locations as text: ``start``, ``home``, ``S1``–``S5`` or a track square 0–59."""

from __future__ import annotations

from pardon.core.board import FIRST_TRACK, HOME, SQUARE, START, safety_index


def format_location(colour: int, distance: int) -> str:
    """``start``, ``home``, ``S1``–``S5`` or the track square number, for a pawn of ``colour``."""
    if distance == START:
        return "start"
    if distance == HOME:
        return "home"
    if distance < FIRST_TRACK:
        return f"S{safety_index(distance)}"
    return str(SQUARE[colour][distance])
