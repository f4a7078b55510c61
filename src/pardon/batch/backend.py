"""The array namespace a function runs on: NumPy, or JAX's when its arrays are JAX's.

The engine's functions are written once against the operations NumPy and ``jax.numpy``
share, without writing into an array (JAX arrays cannot be written), and each finds its
namespace from its arguments.  A few operations are spelt differently here for NumPy's
sake: NumPy's ``where`` and small-axis ``cumsum`` are an order of magnitude slower than
plain arithmetic on the small integer arrays the engine uses, so :func:`select` and
:func:`cumsum0` avoid them there.

JAX is optional (``pip install 'pardon[jax]'``): nothing here imports it unless given
JAX arrays.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Final

import numpy as np

from pardon.core.errors import InvalidError

Array = Any  # a NumPy array or a JAX array (JAX is optional, so not named in the types)


_NUMPY_TYPES = (np.ndarray, np.generic)


def namespace(*arrays: Array) -> ModuleType:
    """``numpy`` if every array is NumPy's, else ``jax.numpy``."""
    for array in arrays:  # (a loop, not all(): this runs a few hundred times a step)
        if not isinstance(array, _NUMPY_TYPES):
            break
    else:
        return np
    try:
        import jax.numpy as jnp
    except ImportError:  # a list, or a JAX array's stand-in without JAX: say what is wanted
        raise InvalidError(
            f"the batch engine takes NumPy arrays (or JAX arrays, with JAX installed), not {type(array).__name__}"
        ) from None

    module: ModuleType = jnp  # typed the same whether or not JAX (untyped when absent) is installed
    return module


def is_numpy(xp: ModuleType) -> bool:
    return xp is np


def settled(tree: Any) -> Any:
    """``tree`` (arrays, or a tuple of them) as it is; under JAX worked out before what reads
    it (``lax.optimization_barrier``): a long chain of small steps that each read the one
    before (dealing hands of five card by card) is otherwise fused by XLA into expressions
    that repeat each other, and compiling them took minutes."""
    leaves = tree if isinstance(tree, tuple) else (tree,)
    if is_numpy(namespace(*leaves)):
        return tree
    import jax

    return jax.lax.optimization_barrier(tree)  # type: ignore[no-untyped-call, unused-ignore]


def select(condition: Array, when_true: Array, when_false: Array) -> Array:
    """``where(condition, when_true, when_false)`` of two arrays of one dtype.

    On NumPy, by arithmetic (integers wrap, so ``b + (a - b) * c`` is exact) or by masks
    (booleans)."""
    xp = namespace(condition, when_true, when_false)
    if not is_numpy(xp):
        return xp.where(condition, when_true, when_false)
    a, b = np.asarray(when_true), np.asarray(when_false)
    if a.dtype == np.bool_:
        return (condition & a) | (b & ~condition)
    if b.dtype == np.int8 and a.dtype == np.int8:
        return b + (a - b) * as_int8(condition)
    return b + (a - b) * condition.astype(b.dtype)


def as_int8(mask: Array) -> Array:
    """Booleans as 0 and 1 of int8 (on NumPy a view, not a copy)."""
    if isinstance(mask, np.ndarray) and mask.dtype == np.bool_:
        return mask.view(np.int8)
    xp = namespace(mask)
    return xp.asarray(mask).astype(xp.int8)


def as_uint8(values: Array) -> Array:
    """int8 values (or booleans) as uint8, whose arithmetic wraps round (on NumPy a view)."""
    if isinstance(values, np.ndarray) and values.dtype in (np.int8, np.bool_):
        return values.view(np.uint8)
    xp = namespace(values)
    return xp.asarray(values).astype(xp.uint8)


def cumsum0(array: Array) -> Array:
    """The running sum along the first axis (a short one), in the array's dtype: row by
    row, which NumPy runs faster than its ``cumsum`` along a first axis, and which XLA
    compiles faster than its (a window reduction it may try to fold into a constant)."""
    xp = namespace(array)
    if not is_numpy(xp):
        rows = [array[0]]
        for index in range(1, array.shape[0]):
            rows.append(rows[-1] + array[index])
        return xp.stack(rows)
    out = np.empty_like(array)
    total = np.zeros_like(array[0])
    for index in range(array.shape[0]):
        total = total + array[index]
        out[index] = total
    return out


#: From how many rows NumPy's own reduction along the first axis beats a row-by-row loop.
LONG_AXIS: Final = 64


def any0(array: Array) -> Array:
    """Whether any entry along the first axis is true (none, along an empty one: the
    opponents of the solo challenge)."""
    xp = namespace(array)
    if not is_numpy(xp) or not array.shape[0] or array.shape[0] > LONG_AXIS:
        return xp.any(array, axis=0)
    found = array[0]
    for index in range(1, array.shape[0]):
        found = found | array[index]
    return found


def all0(array: Array) -> Array:
    """Whether every entry along the first axis is true (each, along an empty one)."""
    xp = namespace(array)
    if not is_numpy(xp) or not array.shape[0]:
        return xp.all(array, axis=0)
    found = array[0]
    for index in range(1, array.shape[0]):
        found = found & array[index]
    return found


def column(values: Any, batch_dims: int, dtype: Any = np.int8) -> Array:
    """A constant vector shaped to broadcast along the first axis of a batch:
    ``(len, 1, ..., 1)`` with ``batch_dims`` ones."""
    array = np.asarray(values, dtype=dtype)
    return array.reshape(array.shape + (1,) * batch_dims)
