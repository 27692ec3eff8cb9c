"""A stand-in for `vllm serve NAME --host H --port P ...`: an OpenAI-compatible server whose chat
completions are slow, which writes its PID and each request to files named by FAKE_VLLM_DIR."""

from __future__ import annotations

import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

STATE = Path(os.environ["FAKE_VLLM_DIR"])


class Handler(BaseHTTPRequestHandler):
    def _json(self, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._json({"data": [{"id": sys.argv[2]}]} if self.path.endswith("/models") else {})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with (STATE / "requests").open("a") as f:
            f.write("1\n")
        time.sleep(30)
        self._json({"choices": [{"message": {"content": "late"}, "finish_reason": "stop"}]})

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port = int(sys.argv[sys.argv.index("--port") + 1])
    (STATE / "pid").write_text(str(os.getpid()))
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
