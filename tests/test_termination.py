"""SIGTERM as a clean stop: the `Terminated` exception reaches the entry point from wherever the main thread is."""

from __future__ import annotations

import asyncio

import pytest

from refusalbench import termination


def _terminate() -> None:
    raise termination.Terminated("received signal SIGTERM")


def test_terminated_escapes_an_asyncio_callback():
    # the signal handler raises wherever the main thread is; inside an event-loop callback asyncio logged and
    # swallowed any BaseException but SystemExit and KeyboardInterrupt, and the run went on with SIGTERM ignored
    async def main() -> None:
        asyncio.get_running_loop().call_soon(_terminate)
        await asyncio.sleep(0.2)

    with pytest.raises(termination.Terminated):
        asyncio.run(main())


def test_terminated_escapes_a_task_step():
    async def work() -> None:
        await asyncio.sleep(0)
        _terminate()

    async def main() -> None:
        await asyncio.gather(work(), asyncio.sleep(0.2), return_exceptions=True)

    with pytest.raises(termination.Terminated):
        asyncio.run(main())


def test_terminated_passes_through_except_exception():
    with pytest.raises(termination.Terminated):
        try:
            _terminate()
        except Exception:  # noqa: BLE001 - the point of the test
            pytest.fail("an `except Exception` block caught the termination")


def test_cleanups_all_run_once_even_when_one_fails():
    ran = []
    termination.on_terminate(lambda: ran.append("first"))
    termination.on_terminate(lambda: 1 / 0)
    termination.on_terminate(lambda: ran.append("last"))
    termination.run_cleanups()
    termination.run_cleanups()
    assert ran == ["last", "first"]
