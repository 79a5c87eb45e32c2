"""A standard-library stand-in for the ORS clients, written from their sources (neither installs
here): the reference SDK at openrewardstandard/python-sdk@a399408 (src/ors/client/_http.py,
_session.py, session.py, environment.py) and openreward 0.1.112, which TRL's
trl/experimental/openreward (huggingface/trl@f2cd577) imports. What it reproduces:
  * every path is joined to the URL's origin; TRL's adapter sends bare paths, the reference
    client `/{env}/…`;
  * the credential travels as X-API-Key (openreward sends it even empty, with X-Deployment and
    X-Secrets); never Authorization;
  * sessions: POST /create_session answered as SSE (its task_id is the sid), POST /create with
    X-Session-ID, tool calls as SSE, /delete then /delete_session; each discovery call opens an
    ephemeral session of its own;
  * the SSE reader (_parse_sse_events): lines decoded one by one, comments skipped, an event
    without `event:` dropped, every data value lstrip()ed, a line over 128 KiB an error;
    `chunk` data joined with the `end` data and parsed as JSON; `task_id` remembered for the
    re-POST after a broken or silent stream.
"""

import http.client
import json
import time
import urllib.parse

LINE_LIMIT = 128 * 1024


class SseLineTooLong(Exception):
    pass


class OrsClient:
    def __init__(self, url, key=None, style="reference"):
        self.origin = urllib.parse.urlsplit(url)
        self.key = key
        self.style = style  # "reference" (X-API-Key only when set) or "openreward" (always + extras)

    def _headers(self, sid=None, extra=None):
        h = {"User-Agent": "ors-contract-test"}
        if self.style == "openreward":
            h["X-API-Key"] = self.key or ""
            h["X-Deployment"] = ""
            h["X-Secrets"] = ""
        elif self.key is not None:
            h["X-API-Key"] = self.key
        if sid:
            h["X-Session-ID"] = sid
        h.update(extra or {})
        return h

    def _conn(self, timeout=60):
        return http.client.HTTPConnection(self.origin.hostname, self.origin.port, timeout=timeout)

    def request(self, method, path, sid=None, body=None, extra=None):
        conn = self._conn()
        headers = self._headers(sid, extra)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        conn.close()
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw.decode("utf-8", "replace")
        return resp.status, value

    def sse(self, path, sid=None, body=None, stop_after_task_id=False, timeout=60):
        """POST and read the stream: (status, events, gaps, raw_data_lines). `events` are
        (event, data) as the clients' reader yields them; `gaps` the longest silence, seconds."""
        conn = self._conn(timeout)
        headers = self._headers(sid, {"Accept": "text/event-stream"})
        data = json.dumps(body or {}).encode()
        headers["Content-Type"] = "application/json"
        conn.request("POST", path, body=data, headers=headers)
        resp = conn.getresponse()
        if resp.status != 200:
            raw = resp.read()
            conn.close()
            return resp.status, json.loads(raw or b"null"), 0.0, []
        events, raw_lines = [], []
        event, lines = None, []
        last = time.monotonic()
        longest = 0.0
        while True:
            line = resp.readline(LINE_LIMIT + 2)
            now = time.monotonic()
            longest = max(longest, now - last)
            last = now
            if not line:
                break
            if len(line) > LINE_LIMIT and not line.endswith(b"\n"):
                conn.close()
                raise SseLineTooLong(f"an SSE line over {LINE_LIMIT} bytes")
            text = line.decode("utf-8", "ignore").rstrip("\r\n")
            if not text:
                if event:
                    events.append((event, "\n".join(lines)))
                    if stop_after_task_id and event == "task_id":
                        conn.close()  # the client's read timed out: the stream is dropped
                        return 200, events, longest, raw_lines
                event, lines = None, []
                continue
            if text.startswith(":"):
                continue
            field, value = text.split(":", 1)
            if field == "data":
                raw_lines.append(value[1:] if value.startswith(" ") else value)
            value = value.lstrip()
            if field == "event":
                event = value
            elif field == "data":
                lines.append(value)
        conn.close()
        return 200, events, longest, raw_lines

    @staticmethod
    def result(events):
        """The call's result as resumable_sse assembles it (chunks + end), and its task id."""
        task_id, chunks = None, []
        for event, data in events:
            if event == "task_id":
                task_id = data.strip()
            elif event == "chunk":
                chunks.append(data)
            elif event == "end":
                chunks.append(data)
                joined = "".join(chunks)
                return task_id, (json.loads(joined) if joined else None)
            elif event == "error":
                raise RuntimeError(data or "Unknown SSE error")
        raise ConnectionError("Stream ended unexpectedly")

    # ── sessions ──

    def open_session(self):
        status, events, _, _ = self.sse("/create_session")
        assert status == 200, events
        sid = dict(events).get("task_id", "").strip()
        assert sid, events
        return sid

    def discover(self, method, path, body=None):
        """One discovery call inside its own ephemeral session, as `_sid_provider` does."""
        sid = self.open_session()
        try:
            return self.request(method, path, sid=sid, body=body)
        finally:
            self.request("POST", "/delete_session", sid=sid)

    def session(self, prefix="", task_spec=None, split=None, index=None):
        sid = self.open_session()
        body = {"task_spec": task_spec, "env_name": "rubrica"} if task_spec is not None else {"split": split, "index": index}
        status, answer = self.request("POST", "/create", sid=sid, body=body)
        assert status == 200, answer
        return sid

    def close_session(self, sid):
        self.request("POST", "/delete", sid=sid)
        self.request("POST", "/delete_session", sid=sid)

    def call(self, prefix, sid, name, tool_input, task_id=None):
        body = {"name": name, "input": tool_input}
        if task_id:
            body["task_id"] = task_id
        status, events, longest, raw = self.sse(f"{prefix}/call", sid=sid, body=body)
        if status != 200:
            return status, events, longest, raw
        return status, self.result(events)[1], longest, raw
