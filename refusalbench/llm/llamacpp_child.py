"""The embedded llama.cpp server process (run as a script, standard library plus ``xllamacpp`` only).

``python -I llamacpp_child.py --model FILE --threads N ...`` builds llama.cpp's ``CommonParams``
and keeps an ``xllamacpp.Server`` (an OpenAI-compatible HTTP server: ``/health``, ``/props``,
``/v1/models``, ``/v1/chat/completions``) running until SIGTERM or SIGINT. Settings: per-request
context ``--ctx-size`` (the KV cache holds ``ctx-size × parallel`` tokens), ``--threads``,
``--parallel`` slots, prompt caching with KV-shift reuse of matching chunks, the model answering to
``--alias``, and ``--poll`` (llama.cpp's busy-wait between work items, 0 to sleep instead: the
polite choice on a machine whose CPUs other processes need). It binds an OS-chosen free port and
publishes its address in ``--address-file``, so no port can be taken in between.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from typing import Optional, Sequence

CACHE_REUSE_TOKENS = 256  # minimum matching chunk reused from the KV cache by shifting


def _params(args: argparse.Namespace):
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}
    params.hostnames = [args.host]
    params.port = args.port
    params.n_parallel = args.parallel
    params.n_ctx = args.ctx_size * args.parallel
    params.kv_unified = False  # each slot gets exactly ctx_size tokens
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.cpuparams.poll = args.poll
    params.cpuparams_batch.poll = args.poll
    params.cache_prompt = True
    params.n_cache_reuse = CACHE_REUSE_TOKENS
    params.ui = False
    return params


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a GGUF model with llama.cpp on an OpenAI-compatible endpoint.")
    parser.add_argument("--model", required=True, help="GGUF file")
    parser.add_argument("--alias", default="local", help="model name the server answers to")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port chosen by the OS")
    parser.add_argument("--address-file", help='write {"base_url": ...} here once listening')
    parser.add_argument("--ctx-size", type=int, default=4096, help="context tokens per request slot")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--poll", type=int, default=50, help="busy-wait level 0-100 between work items (0: sleep)")
    parser.add_argument("--parallel", type=int, default=1, help="parallel request slots")
    args = parser.parse_args(argv)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    import xllamacpp as xlc

    server = xlc.Server(_params(args))  # loads the model and starts listening
    base_url = server.listening_address
    sys.stderr.write(f"embedded: serving {args.model} as {args.alias!r} on {base_url}\n")
    sys.stderr.flush()
    if args.address_file:
        tmp = f"{args.address_file}.tmp"
        with open(tmp, "w") as f:
            json.dump({"base_url": base_url}, f)
        os.replace(tmp, args.address_file)
    while not stop.wait(1.0):
        pass
    del server  # stops the HTTP server and frees the model
    return 0


if __name__ == "__main__":
    sys.exit(main())
