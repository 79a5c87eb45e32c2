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

`Replicas` spreads requests over several `rubrica serve` replicas (RUBRICA_URL="http://a,http://b")
and fails over on connection errors and on a 503 `draining` (a replica told to stop): a replica
that is down, refuses, dies mid-request or is draining is skipped and the same request goes to
the next one. Resending is safe because scoring is a pure
function of the request: with a shared cache (`--cache redis://…`) the replica that takes over
answers what the dead one had judged from the cache, without asking the judge again.
"""

import http.client
import json
import os
import threading
import time
import urllib.parse

__all__ = ["Connection", "HttpAnswer", "Replicas", "parse_urls"]


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


# Errors that say the replica (not the request) is the problem: nothing usable came back.
FAILOVER_ERRORS = (OSError, http.client.HTTPException)


def _draining(body):
    """Whether an error body is rubrica's {"error": {"code": "draining"}} (a replica told to stop)."""
    try:
        return json.loads(body.decode("utf-8")).get("error", {}).get("code") == "draining"
    except (ValueError, AttributeError, UnicodeDecodeError):
        return False


def parse_urls(url):
    """A list of base URLs from a list, or a comma-separated string ("http://a,http://b")."""
    items = url if isinstance(url, (list, tuple)) else str(url).split(",")
    urls = [u.strip().rstrip("/") for u in items if u and u.strip()]
    if not urls:
        raise ValueError("no rubrica URL given")
    return urls


class Replicas:
    """Connections to several replicas of one service; requests fail over on connection errors.

    Requests start on the replicas in turn (round robin, so a step's requests spread); one
    that hits a connection error or a 503 `draining` is sent to the next replica at once, each
    replica tried at most once per request; the last error (or answer) is returned when every
    replica failed (the client's retries and backoff then apply on top). Other HTTP answers,
    5xx included, are returned as they are: the replica was reached and said something.
    """

    def __init__(self, urls, token=None, timeout=900.0, size=8):
        self.urls = parse_urls(urls)
        self.url = ",".join(self.urls)
        self.connections = [Connection(u, token=token, timeout=timeout, size=size) for u in self.urls]
        self._lock = threading.Lock()
        self._next = 0
        self.failovers = 0  # requests moved to another replica (tests, logs)

    @property
    def opened(self):
        return sum(c.opened for c in self.connections)

    def request(self, method, path, body=None, headers=None):
        with self._lock:
            start = self._next
            self._next = (self._next + 1) % len(self.connections)
        last = None
        for i in range(len(self.connections)):
            conn = self.connections[(start + i) % len(self.connections)]
            try:
                answer = conn.request(method, path, body=body, headers=headers)
            except FAILOVER_ERRORS as err:
                last = err
                if i + 1 < len(self.connections):
                    self.failovers += 1
                continue
            # A replica that is shutting down (SIGTERM) scored nothing and says so: the next
            # replica gets the request at once instead of after the client's backoff.
            if answer.status == 503 and _draining(answer.body) and i + 1 < len(self.connections):
                self.failovers += 1
                continue
            return answer
        raise last  # the last replica's connection error (a last 503 was returned above)

    def close(self):
        for c in self.connections:
            c.close()
