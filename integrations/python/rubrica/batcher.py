"""Micro-batching: per-sample calls that arrive together leave as one POST /v1/rewards.

verl's reward loop and slime call a reward function once per sample, from many coroutines
(or threads) at nearly the same moment. Sent one by one, a GRPO group would reach the service
as G separate requests: G round trips, and the server's group statistics (used to impute a
grader fault's value) would see groups of one. The batcher holds calls for a short window
(RUBRICA_WINDOW_MS, default 5 ms, counted from the first call waiting) or until RUBRICA_BATCH
calls wait, then sends them as one request on a pool thread and resolves each caller's future
with its own result.

It is thread-based (concurrent.futures), so it serves every caller of the process at once:
coroutines of any event loop await it through asyncio.wrap_future, sync callers block on the
future. One batcher per (client, reward kind) per process.
"""

import concurrent.futures
import os
import threading

from rubrica.client import on_reset_default_client
from rubrica.errors import RubricaError
from rubrica.errors import env_number as _env_number
from rubrica.records import impute_faults

__all__ = ["MicroBatcher", "batcher_for", "reset"]


class MicroBatcher:
    """Collects rollout items for `window` seconds (or `max_items`), then posts them together."""

    def __init__(self, client, kind, reward=None, window=None, max_items=None):
        self.client = client
        self.kind = kind
        self.reward = reward
        self.window = window if window is not None else _env_number("RUBRICA_WINDOW_MS", 5.0, float) / 1000.0
        self.max_items = max(1, max_items if max_items is not None else client.batch)
        self._lock = threading.Lock()
        self._pending = []
        self._timer = None
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=client.connection.size, thread_name_prefix="rubrica-send"
        )
        self.calls = 0  # items submitted
        self.sent = 0  # batches sent (before the client's retries)

    def submit(self, item):
        """Queue one rollout item; returns a concurrent.futures.Future of its result dict."""
        fut = concurrent.futures.Future()
        batch = None
        with self._lock:
            self.calls += 1
            self._pending.append((item, fut))
            if len(self._pending) >= self.max_items:
                batch = self._take()
            elif self._timer is None:
                self._timer = threading.Timer(self.window, self._flush)
                self._timer.daemon = True
                self._timer.start()
        if batch:
            self._pool.submit(self._send, batch)
        return fut

    def submit_many(self, items):
        """Queue several items at once (a whole group): they share a request when they fit."""
        return [self.submit(item) for item in items]

    def _take(self):
        batch, self._pending = self._pending, []
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        return batch

    def _flush(self):
        with self._lock:
            self._timer = None
            batch, self._pending = self._pending, []
        if batch:
            self._pool.submit(self._send, batch)

    def _send(self, batch):
        self.sent += 1
        items = [item for item, _ in batch]
        try:
            results = impute_faults(self.client.score_items(items, reward=self.reward), self.kind)
        except BaseException as err:  # every caller of the batch learns why
            for _, fut in batch:
                fut.set_exception(err)
            return
        if len(results) != len(batch):
            err = RubricaError(f"rubrica answered {len(results)} results for {len(batch)} items")
            for _, fut in batch:
                fut.set_exception(err)
            return
        for (_, fut), result in zip(batch, results):
            fut.set_result(result)


_batchers = {}
_batchers_lock = threading.Lock()
_batchers_pid = os.getpid()


def batcher_for(client, kind, reward=None):
    """The process's batcher for this client and reward kind (created on first use).

    `kind` is the kind the caller expects (its component keys); `reward` is sent as the
    request's `reward` field (None: the server's default, checked against `kind`).
    """
    global _batchers_pid
    with _batchers_lock:
        if _batchers_pid != os.getpid():  # forked: timers and threads did not come along
            _batchers.clear()
            _batchers_pid = os.getpid()
        key = (id(client), kind, reward)
        b = _batchers.get(key)
        if b is None or b.client is not client:
            b = _batchers[key] = MicroBatcher(client, kind, reward=reward)
        return b


def reset():
    with _batchers_lock:
        _batchers.clear()


# A batcher posts with the client it was made for: a reset default client means new batchers.
on_reset_default_client(reset)
