"""NumPy's fast path: with one batch axis, the rare kinds of card and action are worked out
only for the games that need them and written back into the batch's arrays (JAX works them
out for every game and selects)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pardon.batch.backend import Array, is_numpy, select


def _is_fast(xp: object, card: Array) -> bool:
    """Whether to work on NumPy's way: each rare kind of card's lanes and moves worked out
    only for the games that hold it (JAX works them out for every game and selects)."""
    return is_numpy(xp) and card.ndim == 1  # type: ignore[arg-type]


def _on_some(
    fast: bool,
    needed: Array,
    kernel: Callable[..., tuple[Array, ...]],
    arrays: tuple[Array, ...],
    kept: tuple[Array, ...],
    rows: Array | None = None,
) -> tuple[Array, ...]:
    """``kernel(*arrays)`` where ``needed``, ``kept`` elsewhere: on NumPy the kernel runs on
    the games needing it only (``rows`` if given), its results written into ``kept`` (the
    caller's own new arrays), on JAX on every game (then selected)."""
    if not fast:
        return tuple(select(needed, new, old) for new, old in zip(kernel(*arrays), kept, strict=True))
    if rows is None:
        rows = np.flatnonzero(needed)
    if not rows.size:
        return kept
    results = kernel(*(np.take(array, rows, axis=-1) for array in arrays))
    for new, old in zip(results, kept, strict=True):
        _scatter(old, rows, new)
    return kept


def _rows_of(values: Array, wanted: tuple[int, ...], among: Array | None = None) -> list[Array]:
    """NumPy: for each of ``wanted``, where ``values`` (one axis) equals it (and ``among``
    holds), found among the games holding any of them: NumPy's nonzero runs several times
    slower through a mask set one time in ten (its branches mispredict) than through a
    denser one."""
    union = values == wanted[0]
    for value in wanted[1:]:
        union = union | (values == value)
    rows = np.flatnonzero(union if among is None else union & among)
    held = np.take(values, rows)
    return [np.take(rows, np.flatnonzero(held == value)) for value in wanted]


def _scatter(array: Array, rows: Array, values: Array) -> None:
    """``array[..., rows] = values`` on NumPy, one leading row at a time (several times
    faster than NumPy's assignment through one index array and leading axes)."""
    if not array.flags.c_contiguous:
        array[..., rows] = values
        return
    flat = array.reshape((-1, array.shape[-1]))
    new = np.broadcast_to(values, (*array.shape[:-1], rows.size)).reshape((-1, rows.size))
    for row in range(flat.shape[0]):
        flat[row][rows] = new[row]
