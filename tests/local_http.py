"""The thread-and-port plumbing the tests' protocol servers share (LeetCode, OpenAI, Hub).

A subclass says which request handler serves it (``handler()``, usually a subclass of its handler
class bound to the server object); this class runs it on 127.0.0.1, a free port, in a daemon
thread, and stops it.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class LocalHTTPServer:
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host if isinstance(host, str) else host.decode()}:{port}"

    def start(self) -> Self:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
