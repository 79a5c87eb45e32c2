"""The one place that talks HTTP to a rubrica service: a small pool of keep-alive connections.

Why `http.client` in threads rather than asyncio streams: http.client is the standard library's
complete HTTP/1.1 client (Content-Length and chunked bodies, keep-alive, proxies' quirks), so
nothing here parses HTTP by hand; and a training step makes a handful of requests, not
thousands, so one thread per request in flight costs nothing that matters. The same class
then serves async callers (verl's reward loop, TRL's async functions, slime: they await a
future a thread resolves) and sync ones (TRL, OpenRLHF, `doctor`) alike.

Connections are kept open between requests (HTTP/1.1 keep-alive) and reused LIFO, at most
`size` of them at once per process; a connection that failed is closed, never reused. The
pool notices a fork (Ray and multiprocessing may fork a worker) and starts empty in the child,
so two processes never share one socket.

Issue 26 (replicas and failover) extends this class only: `request()` is the one entry point.
"""

import http.client
import json
import os
import threading
import time
import urllib.parse

__all__ = ["Connection", "HttpAnswer"]


class HttpAnswer:
    """One HTTP answer: status, headers (lower-cased names), raw body and round-trip seconds."""

    __slots__ = ("status", "headers", "body", "seconds")

    def __init__(self, status, headers, body, seconds):
        self.status = status
        self.headers = headers
        self.body = body
        self.seconds = seconds

    def json(self):
        return json.loads(self.body.decode("utf-8"))


class Connection:
    """Keep-alive HTTP/1.1 connections to one base URL, pooled per process (thread-safe)."""

    def __init__(self, url, token=None, timeout=900.0, size=8):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.size = max(1, int(size))
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.size)
        self._idle = []
        self._pid = os.getpid()
        self.opened = 0  # sockets opened so far (tests check that keep-alive reuses them)

    def _new(self):
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        self.opened += 1
        return cls(self._host, self._port, timeout=self.timeout)

    def _take(self):
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's sockets are not ours
                self._idle = []
                self._pid = os.getpid()
            return self._idle.pop() if self._idle else None

    def _give_back(self, conn):
        with self._lock:
            if self._pid == os.getpid() and len(self._idle) < self.size:
                self._idle.append(conn)
                return
        conn.close()

    def request(self, method, path, body=None, headers=None):
        """Send one request and read the whole answer. Raises OSError / http.client errors.

        An idle keep-alive socket the server closed meanwhile fails on first use; that one
        attempt is repeated once on a fresh socket before the error is raised, since the
        request never reached the server.
        """
        hdrs = {"Accept": "application/json", "Connection": "keep-alive"}
        if body is not None:
            hdrs["Content-Type"] = "application/json"
        if self.token:
            hdrs["Authorization"] = "Bearer " + self.token
        if headers:
            hdrs.update(headers)
        with self._slots:
            conn = self._take()
            reused = conn is not None
            for attempt in (0, 1):
                if conn is None:
                    conn = self._new()
                start = time.monotonic()
                try:
                    conn.request(method, self._prefix + path, body=body, headers=hdrs)
                    res = conn.getresponse()
                    data = res.read()
                except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                    conn.close()
                    conn = None
                    if reused and attempt == 0:
                        reused = False
                        continue
                    raise
                except BaseException:
                    conn.close()
                    raise
                answer = HttpAnswer(
                    res.status, {k.lower(): v for k, v in res.getheaders()}, data, time.monotonic() - start
                )
                if res.will_close:
                    conn.close()
                else:
                    self._give_back(conn)
                return answer
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self):
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
