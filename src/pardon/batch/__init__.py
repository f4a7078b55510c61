"""Many games of Sorry! at once as arrays (NumPy, or JAX when installed): see
:mod:`pardon.batch.engine` and docs/batch.md."""
