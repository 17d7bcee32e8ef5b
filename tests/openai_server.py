"""An OpenAI-compatible chat-completions server for the LLM tests (127.0.0.1, a free port, a thread).

It speaks the part of the protocol the openai client uses for ``client.chat.completions.create``:
``POST /v1/chat/completions`` with a JSON body ``{"model", "messages", "temperature", "n", ...}``,
answered with ``{"id", "object": "chat.completion", "created", "model", "choices": [{"index",
"message": {"role", "content"}, "finish_reason"}], "usage"}``.

Each test scripts the answers: a queue of items, one consumed per choice or per request:

- a ``str``: the content of one choice (a request with ``n > 1`` takes up to ``n`` queued strings);
- :class:`Status` (or a bare ``int``): an HTTP error, e.g. ``Status(429, retry_after="0.01")``;
- :class:`Raw`: a raw body served as is (malformed JSON, a JSON object without choices, ...);
- :class:`Choices`: the exact list of choice contents of one answer (``Choices([])``: no choices);
- :data:`DROP`: close the connection without an answer.

``always`` serves an item on every request once the queue is empty; with neither, the server
answers 503 ``no scripted response`` (so a test that asks more than it scripted fails loudly).
Every request is recorded (:class:`Seen`: path, parsed body, headers).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from local_http import LocalHTTPServer


@dataclass(frozen=True)
class Status:
    """An HTTP error answer; ``retry_after`` (seconds, may be fractional) sets Retry-After."""

    code: int
    retry_after: str | None = None
    body: str = '{"error": {"message": "scripted error", "type": "server_error"}}'


@dataclass(frozen=True)
class Raw:
    """A body served verbatim with HTTP 200 and ``content_type``."""

    body: bytes
    content_type: str = "application/json"


@dataclass(frozen=True)
class Choices:
    """One answer with exactly these choice contents (``None``: a choice without content)."""

    contents: list[str | None]
    finish_reason: str = "stop"


class _Drop:
    def __repr__(self) -> str:
        return "DROP"


DROP = _Drop()

Item = str | int | Status | Raw | Choices | _Drop


@dataclass
class Seen:
    path: str
    body: Any  # the parsed JSON body (None when it was not JSON)
    headers: dict[str, str]
    status: int  # what the server answered (0: connection dropped)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages") or [])


@dataclass
class OpenAIServer(LocalHTTPServer):
    model_name: str | None = None  # echoed in answers; None: the request's model
    queue_items: list[Item] = field(default_factory=list)
    sticky: Item | None = None
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._counter = 0

    # -- lifecycle --------------------------------------------------------------------------

    def handler(self) -> type[_Handler]:
        server = self

        class Handler(_Handler):
            owner = server

        return Handler

    @property
    def url(self) -> str:
        """The base URL for the openai client (``.../v1``)."""
        return self.base_url + "/v1"

    # -- scripting --------------------------------------------------------------------------

    def queue(self, *items: Item) -> None:
        with self._lock:
            self.queue_items.extend(items)

    def always(self, item: Item | None) -> None:
        with self._lock:
            self.sticky = item

    def requests(self, path: str = "/v1/chat/completions") -> list[Seen]:
        with self._lock:
            return [s for s in self.seen if s.path == path]

    @property
    def count(self) -> int:
        return len(self.requests())

    def reset(self) -> None:
        with self._lock:
            self.seen.clear()
            self.queue_items.clear()
            self.sticky = None

    # -- serving ----------------------------------------------------------------------------

    def _next(self, n: int) -> Item | list[str] | None:
        """The next scripted answer: an item, or up to ``n`` queued contents."""
        with self._lock:
            if self.queue_items:
                first = self.queue_items.pop(0)
                if not isinstance(first, str):
                    return first
                contents = [first]
                while (
                    len(contents) < n and self.queue_items and isinstance(self.queue_items[0], str)
                ):
                    contents.append(self.queue_items.pop(0))  # type: ignore[arg-type]
                return contents
            if self.sticky is not None:
                return [self.sticky] * n if isinstance(self.sticky, str) else self.sticky
            return None

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def completion(self, model: str, contents: list[str | None], finish: str) -> dict[str, Any]:
        with self._lock:
            self._counter += 1
            n = self._counter
        return {
            "id": f"chatcmpl-test-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model_name or model,
            "choices": [
                {
                    "index": i,
                    "message": {"role": "assistant", "content": c},
                    "finish_reason": finish,
                    "logprobs": None,
                }
                for i, c in enumerate(contents)
            ],
            "usage": {
                "prompt_tokens": 100,
                "completion_tokens": 10 * len(contents),
                "total_tokens": 100 + 10 * len(contents),
            },
        }


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet

    def _send(
        self,
        status: int,
        body: bytes,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        owner = self.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}

        def seen(status: int) -> None:
            owner._record(Seen(self.path, body, headers, status))

        if self.path.rstrip("/") != "/v1/chat/completions":
            seen(404)
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        if not isinstance(body, dict) or "messages" not in body or "model" not in body:
            seen(400)
            self._send(400, b'{"error": {"message": "model and messages are required"}}')
            return
        n = int(body.get("n") or 1)
        item = owner._next(n)
        if item is None:
            seen(503)
            self._send(503, b'{"error": {"message": "no scripted response"}}')
            return
        if isinstance(item, _Drop):
            seen(0)
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if isinstance(item, int):
            item = Status(item)
        if isinstance(item, Status):
            seen(item.code)
            extra = {"Retry-After": item.retry_after} if item.retry_after is not None else {}
            self._send(item.code, item.body.encode(), headers=extra)
            return
        if isinstance(item, Raw):
            seen(200)
            self._send(200, item.body, item.content_type)
            return
        if isinstance(item, Choices):
            contents, finish = item.contents, item.finish_reason
        else:
            contents, finish = list(item), "stop"
        seen(200)
        answer = owner.completion(str(body["model"]), contents, finish)
        self._send(200, json.dumps(answer).encode())
