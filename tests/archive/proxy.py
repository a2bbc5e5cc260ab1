"""A TCP proxy on loopback in front of a real server, that the test can make go silent and come back.

Silent, it accepts connections and holds them without a byte forwarded either way, and drops the ones
it was carrying: what an object store that is down behind a balancer, or too slow, looks like to its
clients (each call runs into its timeout, never a quick refusal).
"""

from __future__ import annotations

import socket
import threading


class FlakyProxy:
    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.silent = False
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def go_silent(self) -> None:
        self.silent = True
        with self._lock:
            for conn in self._open:
                _close(conn)
            self._open.clear()

    def come_back(self) -> None:
        self.silent = False

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.silent:
                with self._lock:
                    self._open.append(client)  # held, never answered: the caller's timeout decides
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                if self.silent:
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        _close(source)
        _close(sink)

    def close(self) -> None:
        _close(self.listener)
        self.go_silent()


def _close(conn: socket.socket) -> None:
    try:
        conn.close()
    except OSError:
        pass
