"""A scripted HTTP server on loopback for the unit tests: records every request, answers from a script."""

import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, Union


@dataclass
class Seen:
    """One request the stub received."""

    method: str
    path: str
    query: List[Tuple[str, str]]
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


@dataclass
class Reply:
    """One scripted answer. ``drop``: read the request, then close the connection without answering."""

    status: int = 200
    body: Union[bytes, Any] = b""
    content_type: str = "application/json"
    drop: bool = False
    delay_seconds: float = 0.0  # wait before answering (a slow server, for timeouts)


DROP = Reply(drop=True)


def error(status: int, code: str, field_name: str, message: str) -> Reply:
    return Reply(status, {"error": {"code": code, "field": field_name, "message": message}})


class Stub:
    """``with Stub() as s``: a server at ``s.url``. ``s.script(r1, r2, ...)`` answers the next requests in order;
    ``s.fallback`` (a function of the request) answers when the script is empty."""

    def __init__(self) -> None:
        self.seen: List[Seen] = []
        self._script: List[Reply] = []
        self.fallback: Optional[Callable[[Seen], Reply]] = None
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urllib.parse.urlsplit(self.path)
                seen = Seen(self.command, parts.path, urllib.parse.parse_qsl(parts.query, keep_blank_values=True),
                            {k.lower(): v for k, v in self.headers.items()}, body)
                with stub._lock:
                    stub.seen.append(seen)
                    reply = stub._script.pop(0) if stub._script else None
                if reply is None:
                    reply = stub.fallback(seen) if stub.fallback else Reply(500, {"error": {"code": "internal", "field": "", "message": "no script"}})
                if reply.delay_seconds:
                    time.sleep(reply.delay_seconds)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode("utf-8")
                self.send_response(reply.status)
                if data or reply.status != 204:
                    self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def __enter__(self) -> "Stub":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


MEMORY = {
    "id": "m_abc", "namespace": "team-a", "intentId": "i_x", "intent": "restart nginx", "experience": "systemctl restart nginx",
    "parts": ["systemctl restart nginx"], "outcome": "success", "q": 0.25, "visits": 2,
    "createdAt": "2025-01-31T12:00:00.123456789Z", "updatedAt": "2025-01-31T12:00:01Z",
}


def memory(**changes: Any) -> Dict[str, Any]:
    m = dict(MEMORY)
    m.update(changes)
    return m
