"""A small WebSocket client (RFC 6455) on the standard library, for `rubrica serve --openenv`.

Text messages only, client frames masked, ping answered with pong, fragmented messages joined;
enough for OpenEnv's one-message-one-answer protocol. Every read has a timeout.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import urllib.parse

from rubrica.errors import RubricaError, RubricaUnavailable

__all__ = ["WebSocket", "WebSocketClosed"]

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocketClosed(RubricaUnavailable):
    """The server closed the socket (or it broke)."""


class WebSocket:
    def __init__(self, url, timeout=60.0, connect_timeout=10.0):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("ws", "http"):
            raise RubricaError(f"{url}: only ws:// (or http://) URLs are supported")
        host, port = parts.hostname, parts.port or 80
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        try:
            self.sock = socket.create_connection((host, port), timeout=connect_timeout)
        except OSError as err:
            raise RubricaUnavailable(f"cannot connect to {url}: {err}") from err
        self.sock.settimeout(timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketClosed(f"{url}: the server closed the connection during the handshake")
            head += chunk
        head, self._buf = head.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0].decode("latin-1")
        if " 101 " not in status + " ":
            self.sock.close()
            raise RubricaError(f"{url}: the server refused the WebSocket: {status}")
        accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        if accept.encode() not in head:
            self.sock.close()
            raise RubricaError(f"{url}: bad Sec-WebSocket-Accept")
        self.closed = False

    def _read(self, n):
        while len(self._buf) < n:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout as err:
                raise TimeoutError("no WebSocket message within the timeout") from err
            except OSError as err:
                raise WebSocketClosed(f"the socket broke: {err}") from err
            if not chunk:
                self.closed = True
                raise WebSocketClosed("the server closed the socket")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def _send_frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        try:
            self.sock.sendall(head + mask + masked)
        except OSError as err:
            raise WebSocketClosed(f"the socket broke: {err}") from err

    def send_text(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def send_json(self, value):
        self.send_text(json.dumps(value))

    def recv_text(self):
        """The next text message; answers pings; WebSocketClosed on a close frame."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                self.closed = True
                raise WebSocketClosed("the server closed the socket")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if b0 & 0x80:
                return b"".join(parts).decode("utf-8")

    def recv_json(self):
        return json.loads(self.recv_text())

    def close(self):
        if not self.closed:
            try:
                self._send_frame(0x8, struct.pack("!H", 1000))
            except RubricaError:
                pass
        self.closed = True
        self.sock.close()
