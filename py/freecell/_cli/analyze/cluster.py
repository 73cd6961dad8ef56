"""The Dask cluster of ``freecell analyze``: one it starts and stops, or a running one, checked.

:func:`cluster` starts a ``LocalCluster`` of one single-threaded worker process a core (the
solver is pure Python), whose workers preload :mod:`freecell._cli.analyze.task` to leave
Ctrl-C to the command, and checks that each can run a task (a tight ``ulimit -u`` starts
processes that cannot); or it connects to a ``--scheduler`` after checking, within Dask's
connect timeout, that a Dask scheduler answers there (Dask's own client waits for ever on a
server that says nothing). What goes wrong is one line: :class:`RefusedError` for the address,
:class:`ClusterError` for the cluster. Dask is the ``analyze`` extra: imported in the functions.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from freecell._cli.analyze.errors import ClusterError, RefusedError, short_reason
from freecell._cli.analyze.task import dask_setup, ready
from freecell._cli.options import usable_cores
from freecell._cli.streams import quoted

if TYPE_CHECKING:
    from distributed import Client

_WORKER_START_TIMEOUT: Final = 20.0
"""Seconds a worker process of the embedded cluster may take to start (Dask's nanny waits for
ever for one that hangs, as under a tight ``ulimit -u``; it starts in 1 to 3 s)."""
_HANDSHAKE_LIMIT: Final = 1 << 20
"""The most bytes a scheduler's first message may announce (Dask's handshake: about 200);
anything larger is no Dask scheduler, and reading it could take all the memory."""
_LOCAL_CONFIG: Final = {
    # Each worker holds only the chunk it runs, so a worker that dies takes no other with it.
    "distributed.scheduler.worker-saturation": 1.0,
    # Worker processes ignore Ctrl-C (the preload's dask_setup); the command stops them.
    "distributed.worker.preload": [dask_setup.__module__],
    # And they keep their log lines to themselves, from the start (the nanny's environment).
    "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "critical",
}


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Keep Dask's log lines (a worker lost, a result fetched again) off stderr for the block."""
    from distributed.utils import silence_logging_cmgr  # noqa: PLC0415 - the extra

    with silence_logging_cmgr(logging.CRITICAL):
        yield


def _host_port(address: str) -> tuple[str, int]:
    """Return the host and port of a ``tcp://HOST:PORT`` address; raise RefusedError if none.

    Dask's other protocols (``tls://``, ``ucx://``, ``ws://``, ``inproc://``) need settings or
    libraries that this command does not set up: they are refused.
    """
    from distributed.comm.addressing import parse_address, parse_host_port  # noqa: PLC0415

    scheme, location = parse_address(address)
    try:
        host, port = parse_host_port(location)
    except ValueError:
        host, port = "", 0
    if scheme != "tcp" or not host or not 0 < port < 1 << 16:
        msg = (
            f"--scheduler {quoted(address)} is no address this command uses: write tcp://HOST:PORT"
        )
        raise RefusedError(msg)
    return host, port


def _first_bytes(host: str, port: int, size: int, timeout: float) -> bytes:
    """Connect to a server and return the first ``size`` bytes it sends (fewer if it stops).

    Raises OSError: ConnectionRefusedError at once where nothing listens, TimeoutError when
    the server sends nothing within the timeout.
    """
    with socket.create_connection((host, port), timeout=timeout) as connection:
        data = b""
        while len(data) < size and (part := connection.recv(size - len(data))):
            data += part
    return data


def _probe(address: str, timeout: float) -> None:
    """Check that a Dask scheduler answers at an address within the timeout; raise if not.

    A Dask server speaks first: its handshake, a message of a few hundred bytes announced by
    its length (8 bytes). The probe reads those 8 bytes itself, so that a port where nothing
    listens is refused at once, and a server that sends other bytes (which Dask's client
    would take for a length of gigabytes) is refused without reading further; then it asks
    the scheduler who it is, as Dask's client does, within the timeout. Dask's own client
    waits for ever on a server that takes the connection and says nothing.
    """
    import asyncio  # noqa: PLC0415 - only --scheduler needs it

    from distributed.core import rpc  # noqa: PLC0415 - the extra

    host, port = _host_port(address)
    silent = f"no Dask scheduler answered at {quoted(address)} within {timeout:g} s"
    stranger = f"{quoted(address)} is no Dask scheduler"
    try:
        first = _first_bytes(host, port, 8, timeout)
    except ConnectionRefusedError:
        msg = f"nothing listens at {quoted(address)} (connection refused)"
        raise RefusedError(msg) from None
    except socket.gaierror:
        msg = f"--scheduler {quoted(address)}: no host {quoted(host)} is known"
        raise RefusedError(msg) from None
    except OSError:  # TimeoutError among them
        raise RefusedError(silent) from None
    if len(first) < 8:
        raise RefusedError(silent if not first else stranger)
    if struct.unpack("<Q", first)[0] > _HANDSHAKE_LIMIT:
        raise RefusedError(stranger)

    async def identity() -> Any:
        async with rpc(address, timeout=timeout) as scheduler:
            return await scheduler.identity()

    # In a thread of its own: asyncio.run refuses a thread whose event loop runs (a notebook's,
    # or Playwright's in a test process), and that refusal would read as a stranger's bytes.
    with ThreadPoolExecutor(1) as thread:
        asked = thread.submit(asyncio.run, asyncio.wait_for(identity(), timeout))
    try:
        answer = asked.result()
    except (OSError, TimeoutError):
        raise RefusedError(silent) from None
    except Exception:  # noqa: BLE001 - whatever the bytes were, they were no scheduler's
        raise RefusedError(stranger) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise RefusedError(stranger)


@contextmanager
def cluster(scheduler: str | None, workers: int) -> Iterator[Client]:
    """Connect to a ``scheduler``, or start an embedded cluster of ``workers``; close it all."""
    import dask  # noqa: PLC0415 - the extra
    from distributed import Client, LocalCluster  # noqa: PLC0415 - the extra

    with _quiet_logs():
        if scheduler is not None:
            timeout = dask.utils.parse_timedelta(
                dask.config.get("distributed.comm.timeouts.connect")
            )
            _probe(scheduler, timeout)
            with Client(scheduler, timeout=timeout, set_as_default=False) as client:
                yield client
            return
        with dask.config.set(_LOCAL_CONFIG):
            try:
                with _children_quiet():
                    local = LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address="127.0.0.1:0",  # its web server, on loopback
                        silence_logs=logging.CRITICAL,
                        death_timeout=_WORKER_START_TIMEOUT,
                    )
            except Exception as error:  # noqa: BLE001 - Dask's, of any kind (an AssertionError)
                # Its processes that did start are reaped at exit: not a line about them.
                logging.getLogger("distributed").setLevel(logging.CRITICAL)
                msg = (
                    f"could not start {workers} worker process{'es' if workers > 1 else ''} "
                    f"({short_reason(error)}): the system's limit of processes (ulimit -u) or "
                    "memory is too low"
                )
                raise ClusterError(msg) from None
            with local, Client(local, set_as_default=False) as client:
                _check_workers(client, workers)
                yield client


def _check_workers(client: Client, workers: int) -> None:
    """Check that each worker of the embedded cluster runs a task; raise ClusterError if not.

    A worker process can start and still be unable to run a task: under a tight
    ``ulimit -u``, the thread that would run it cannot start, and the task would wait for ever.
    """
    import time  # noqa: PLC0415 - only the embedded cluster needs it

    addresses = list(client.scheduler_info()["workers"])
    futures = [client.submit(ready, pure=False, workers=[a]) for a in addresses]
    deadline = time.monotonic() + _WORKER_START_TIMEOUT
    try:
        for future in futures:
            future.result(timeout=max(0.1, deadline - time.monotonic()))
    except (TimeoutError, RuntimeError) as error:  # RuntimeError: can't start new thread
        why = short_reason(error)
        if isinstance(error, TimeoutError):
            why = f"none within {_WORKER_START_TIMEOUT:g} s"
        msg = (
            f"the {workers} worker process{'es' if workers > 1 else ''} cannot run a task "
            f"({why}): the system's limit of processes (ulimit -u) or memory is too low"
        )
        raise ClusterError(msg) from None


@contextmanager
def _children_quiet() -> Iterator[None]:
    """Give the processes started in the block a standard error that goes nowhere.

    A worker process that cannot start (too many processes, ``ulimit -u``) prints its
    traceback before Dask's logging is set up in it: the command says it in one line instead.
    """
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all: nothing to keep quiet
        yield
        return
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, 2)
        os.close(nowhere)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def worker_count(wanted: int | None, tasks: int) -> int:
    """Return the embedded cluster's size: ``wanted``, at most a worker a core and one a task.

    The default is a worker a core. The solver is pure Python, one core a process: more
    workers than cores only share them (each costing memory and processes), and more than the
    tasks wait for nothing.

    >>> cores = usable_cores()
    >>> worker_count(None, 1000) == cores, worker_count(1000, 1000) == cores, worker_count(30, 1)
    (True, True, 1)
    """
    cores = usable_cores()
    return max(1, min(wanted or cores, cores, tasks))
