"""The site server of FreeCell Deals: a built site as a static host or a CDN would serve it.

`build.py serve`, the browser tests and the benches all serve through `serve()`: a
`SiteHandler` on a thread, plainly (the types a browser needs for modules and WebAssembly, any
headers, a URL prefix) or as a CDN over one shaped link (`Cdn`, `Link`, `NETWORKS`). Standard
library only.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import http.server
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any


class Link:
    """One network link that every connection of a server shares, as a CDN's visitor has.

    Bytes leave at `rate` bytes per second in all, whichever connection sends them (each chunk
    waits for the link to be free, so parallel downloads share it), and every request waits
    `delay` seconds before its answer starts (a round trip and the server's time). A token
    bucket of BURST bytes absorbs a sending thread that wakes up late, so the link's rate holds.
    """

    CHUNK = 16 * 1024
    BURST = 64 * 1024

    def __init__(self, rate: float, delay: float) -> None:
        self.rate = rate
        self.delay = delay
        self._lock = threading.Lock()
        self._free_at = 0.0

    def send(self, write: Any, data: bytes) -> None:
        """Write data in chunks, each when the link has carried everything queued before it."""
        for start in range(0, len(data), self.CHUNK):
            chunk = data[start : start + self.CHUNK]
            with self._lock:
                begin = max(time.monotonic() - self.BURST / self.rate, self._free_at)
                self._free_at = begin + len(chunk) / self.rate
                done = self._free_at
            time.sleep(max(0.0, done - time.monotonic()))
            write(chunk)


NETWORKS = {
    "fast": (10e6 / 8, 0.040),  # 10 Mbit/s, 40 ms per request
    "slow": (1.6e6 / 8, 0.150),  # 1.6 Mbit/s, 150 ms per request
}
"""Shaped links for `build.py serve --network` and the bench: bytes per second, delay in s."""
NETWORK_NAMES = {
    name: f"{rate * 8 / 1e6:g} Mbit/s, {delay * 1000:.0f} ms a request"
    for name, (rate, delay) in NETWORKS.items()
}

COMPRESSED_TYPES = {"text/html", "text/css", "text/javascript", "application/json",
                    "application/wasm", "image/svg+xml"}  # fmt: skip
"""What a CDN gzips on the fly (GitHub Pages does the same); zip files and wheels stay as they
are."""


@dataclass
class Served:
    """One response the server sent: path, status, bytes on the wire, start and end (epoch s)."""

    path: str
    status: int
    size: int
    start: float
    end: float


@dataclass
class Cdn:
    """How a CDN serves: gzip for text and WebAssembly, ETags, a cache lifetime, a shared link.

    `max_age` None sends `Cache-Control: no-cache` (every use revalidates: an expired cache);
    a `log`, if given, receives every response.
    """

    max_age: int | None = 600
    link: Link | None = None
    log: list[Served] | None = None
    _bodies: dict[tuple[str, float, bool], tuple[bytes, str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def prepare(self, root: Path) -> None:
        """Compress every file under root now, so that no answer waits for it."""
        for path in root.rglob("*"):
            if path.is_file():
                gzipped = SiteHandler.extensions_map.get(path.suffix) in COMPRESSED_TYPES
                self.body(path, gzipped)

    def body(self, path: Path, gzipped: bool) -> tuple[bytes, str]:
        """Return the file's bytes (gzipped, as a CDN's level 6) and its ETag, computed once."""
        key = (str(path), path.stat().st_mtime, gzipped)
        with self._lock:
            if key not in self._bodies:
                data = path.read_bytes()
                tag = f'"{hashlib.sha256(data).hexdigest()[:20]}{"-gz" if gzipped else ""}"'
                if gzipped:
                    data = gzip.compress(data, compresslevel=6, mtime=0)
                self._bodies[key] = (data, tag)
            return self._bodies[key]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serve a built site with the types a browser needs for modules and WebAssembly.

    `build.py serve`, the browser tests and the bench all serve with it. With a `prefix`, only
    paths under it exist (the prefix is stripped), others are 404; `quiet` logs nothing;
    `headers` go with every response; a `cdn` serves as a CDN would, over HTTP/1.1 (see Cdn).
    """

    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".zip": "application/zip",
        ".gz": "application/gzip",  # the stdlib's zips (build.py's gzipped), as GitHub Pages has it
        ".whl": "application/zip",
    }

    def __init__(
        self,
        *args: Any,
        directory: str,
        prefix: str = "/",
        quiet: bool = False,
        headers: dict[str, str] | None = None,
        cdn: Cdn | None = None,
    ) -> None:
        self.prefix = prefix
        self.quiet = quiet
        self.extra_headers = headers or {}
        self.cdn = cdn
        if cdn is not None:
            self.protocol_version = "HTTP/1.1"  # keep-alive, as browsers and CDNs talk
        super().__init__(*args, directory=directory)

    def end_headers(self) -> None:
        """Send the extra headers (such as a Content-Security-Policy) with every response."""
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def handle_one_request(self) -> None:
        """Answer one request; a browser that goes away meanwhile (a page closed) ends it."""
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _strip_prefix(self) -> bool:
        """Map the request path into the site; answer 404 and return False if it is outside."""
        if not self.path.startswith(self.prefix):
            self.send_error(HTTPStatus.NOT_FOUND, "outside the served prefix")
            return False
        self.path = "/" + self.path.removeprefix(self.prefix)
        return True

    def do_GET(self) -> None:
        """Serve a file under the prefix."""
        if self.cdn is not None:
            self._serve_cdn(self.cdn, head=False)
        elif self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        """Answer a HEAD request for a file under the prefix."""
        if self.cdn is not None:
            self._serve_cdn(self.cdn, head=True)
        elif self._strip_prefix():
            super().do_HEAD()

    def _serve_cdn(self, cdn: Cdn, head: bool) -> None:
        """Answer as a CDN: after the link's delay, 304, 404 or the (gzipped) file."""
        start = time.time()
        if cdn.link is not None:
            time.sleep(cdn.link.delay)
        status, headers, body = self._cdn_answer(cdn)
        lines = [f"{self.protocol_version} {status.value} {status.phrase}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        wire = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        if not head:
            wire += body
        if cdn.link is None:
            self.wfile.write(wire)
        else:
            cdn.link.send(self.wfile.write, wire)
        self.wfile.flush()
        if cdn.log is not None:
            cdn.log.append(Served(self.path, status.value, len(wire), start, time.time()))
        self.log_request(status.value, len(wire))

    def _cdn_answer(self, cdn: Cdn) -> tuple[HTTPStatus, dict[str, str], bytes]:
        """Return the status, headers and body a CDN answers this request with."""
        path = Path(self.translate_path(self.path.removeprefix(self.prefix.rstrip("/"))))
        if path.is_dir():
            path /= "index.html"
        if not self.path.startswith(self.prefix) or not path.is_file():
            body = b"not found"
            return HTTPStatus.NOT_FOUND, {"Content-Length": str(len(body))}, body
        kind = self.guess_type(path)
        gzipped = kind in COMPRESSED_TYPES and "gzip" in self.headers.get("Accept-Encoding", "")
        body, tag = cdn.body(path, gzipped)
        headers = {
            "Content-Type": kind,
            "ETag": tag,
            "Cache-Control": "no-cache" if cdn.max_age is None else f"max-age={cdn.max_age}",
        }
        if kind in COMPRESSED_TYPES:
            headers["Vary"] = "Accept-Encoding"
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        if tag in self.headers.get("If-None-Match", ""):
            return HTTPStatus.NOT_MODIFIED, headers, b""
        return HTTPStatus.OK, {**headers, "Content-Length": str(len(body))}, body

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Log a request, unless quiet."""
        if not self.quiet:
            super().log_message(format, *args)


@contextlib.contextmanager
def serve(
    directory: Path,
    *,
    port: int = 0,
    prefix: str = "/",
    headers: dict[str, str] | None = None,
    cdn: Cdn | None = None,
    quiet: bool = True,
) -> Iterator[str]:
    """Serve a site on 127.0.0.1 from a thread while the block runs; yield its URL.

    `build.py serve`, the browser tests and the benches all serve through it: `port` 0 picks a
    free one; with a `prefix` only paths under it exist; `headers` go with every response; a
    `cdn` serves as a CDN would (its files compressed before the first request).
    """
    if cdn is not None:
        cdn.prepare(directory)
    handler = functools.partial(
        SiteHandler, directory=str(directory), prefix=prefix, quiet=quiet, headers=headers, cdn=cdn
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"serve {directory}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
