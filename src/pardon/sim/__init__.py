"""Simulations: duplicate tournaments between computer players, and their statistics."""
