"""Running a simulation's games on a Dask cluster (``pardon sim --dask local`` or
``--scheduler tcp://HOST:PORT``).

The work is the same slices of games a local run plays; each is a pure function of the
run's settings, so a cluster gives exactly the rows of a local run.  Results come back
in any order and are released in game order, so the results file is always a prefix of
the full run's and a run can be resumed, locally or on a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

Task = TypeVar("Task")


def play_on_dask(
    work: Callable[[Task], list[dict[str, Any]]], tasks: list[Task], scheduler: str, workers: int
) -> Iterator[list[dict[str, Any]]]:
    """Results of ``work`` over ``tasks`` in their order, computed on the cluster."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - pardon's command line says which extra installs it
        raise ModuleNotFoundError("Dask is not installed: the sim extra installs it", name="distributed") from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler, timeout="30s")
    try:
        window = 4 * max(1, workers)
        for low in range(0, len(tasks), window):
            chunk = tasks[low : low + window]
            futures = client.map(work, chunk, pure=False)
            index = {future.key: position for position, future in enumerate(futures)}
            ready: dict[int, list[dict[str, Any]]] = {}
            following = 0
            for future in as_completed(futures):
                ready[index[future.key]] = future.result()
                while following in ready:
                    yield ready.pop(following)
                    following += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
