"""Many independent jobs, answers in input order, memory flat in the number of jobs: in this
process, in a pool of processes (``--jobs N``), or on a Dask cluster (``--dask [ADDRESS]``, the
``melds[dask]`` extra; a local cluster when no address is given).

At most a small window of jobs is in flight at a time, so a folder of a million logs holds a
few answers in memory, not a million; answers come back in the order the jobs were given.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from solver.core.errors import MeldsError


def ordered_map(
    func: Callable[..., Any],
    items: Iterable[Any],
    *,
    args: tuple[Any, ...] = (),
    jobs: int = 1,
    dask: str | None = None,
) -> Iterator[Any]:
    """``func(item, *args)`` for every item, in order. ``func`` must be importable (a top-level
    function) and its answers picklable."""
    if dask is not None:
        yield from _on_dask(func, items, args, dask, jobs)
    elif jobs <= 1:
        for item in items:
            yield func(item, *args)
    else:
        context = multiprocessing.get_context("spawn")  # no fork of live solvers and threads
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            yield from _windowed(
                lambda item: pool.submit(func, item, *args), items, 4 * jobs, lambda future: future.result()
            )


def _windowed(
    submit: Callable[[Any], Any], items: Iterable[Any], window: int, result: Callable[[Any], Any]
) -> Iterator[Any]:
    pending: deque[Any] = deque()
    for item in items:
        pending.append(submit(item))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())


def _on_dask(
    func: Callable[..., Any], items: Iterable[Any], args: tuple[Any, ...], address: str, jobs: int
) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415 - the optional extra
    except ImportError:
        raise MeldsError("--dask needs Dask: pip install 'melds[dask]'") from None
    cluster = None
    try:
        if address:
            client = Client(address)
        else:
            cluster = LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
    except (OSError, ValueError, TimeoutError) as exc:
        raise MeldsError(f"--dask {address or '(local)'}: cannot reach the scheduler: {exc}") from None
    try:
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        yield from _windowed(
            lambda item: client.submit(func, item, *args, pure=False),
            items,
            4 * workers,
            lambda future: future.result(),
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
