"""A real floor for the browser tests and the load test: a throwaway PostgreSQL, stations
playing on threads, the floor server (uvicorn) on a free port of 127.0.0.1, and Debian's
headless Chromium driven through its driver (selenium)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from app.floor.app import FloorSettings, create_app

T = TypeVar("T")
WAIT_S = 60.0  # generous: a loaded machine must not fail a test by being slow
CHROMIUM = ("the floor's browser tests need Debian's Chromium and its driver: install the "
            "'chromium' and 'chromium-driver' packages (`make test` does it)")


@contextmanager
def floor_server(settings: FloorSettings) -> Iterator[str]:
    """The floor server on a thread, on a port of its own; yields its address."""
    # The socket is bound here and handed to the server: a port chosen and then bound later
    # could be taken in between by a test running beside this one.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="floor-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError(f"the floor server did not start on port {port} "
                               f"(its thread {'ended' if not thread.is_alive() else 'runs'})")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def until(look: Callable[[], T], ok: Callable[[T], bool], what: str,
          timeout: float = WAIT_S, every: float = 0.05) -> T:
    """What `look` sees, once `ok` holds; past the deadline, fails saying what it last saw."""
    deadline = time.monotonic() + timeout
    while True:
        seen = look()
        if ok(seen):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}; saw {seen!r}")
        time.sleep(every)


def chromium(downloads: Path) -> Any:
    """Headless Chromium through chromedriver (both from Debian)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        raise FileNotFoundError(CHROMIUM)
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900", "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False})
    return webdriver.Chrome(service=Service(driver), options=options)


def shrink_png(path: Path) -> None:
    """Screenshots for the docs (PAIGOW_FLOOR_SCREENSHOTS), as small as they can be: 128
    colours. A test's own screenshots stay as Chromium wrote them: reducing the colours of
    a whole page took 0.1-0.4 s of CPU, forty-odd times a run, for files nobody publishes."""
    if not os.environ.get("PAIGOW_FLOOR_SCREENSHOTS"):
        return
    from PIL import Image

    with Image.open(path) as img:
        img.convert("RGB").quantize(colors=128).save(path, optimize=True)
