"""Starting uvicorn with several worker processes, with TCP_NODELAY on every connection.

uvicorn's multi-worker path binds the listening socket itself with ``proto`` 0; accepted
sockets inherit it, and asyncio only sets TCP_NODELAY on sockets whose ``proto`` is TCP. So
with ``--workers N`` every keep-alive response after the first waits ~40 ms for the client's
delayed ACK (Nagle; uvicorn issue #3149, measured here: 44 ms per request with 2 workers,
under 1 ms with 1). This module binds the socket with ``IPPROTO_TCP`` and otherwise runs
exactly what ``uvicorn.run`` runs.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile

import uvicorn
from uvicorn.supervisors import Multiprocess


class _TcpConfig(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock


def run(host: str, port: int, workers: int, log_level: str) -> None:
    # the service writes its own access log (JSON, with request IDs: app.observability)
    config = _TcpConfig("app.main:app", host=host, port=port, workers=workers, log_level=log_level,
                        access_log=False)
    server = uvicorn.Server(config)
    if config.workers > 1:
        # metrics summed over the workers: each writes its values to files in one directory
        metrics_dir = tempfile.mkdtemp(prefix="wordsolver-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        atexit.register(shutil.rmtree, metrics_dir, True)
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        server.run()
