"""The search page in headless Chromium: the server, the browser and the engine's answers.

The tests start `SearchREPL serve` themselves (the executable of the Web trait's release build,
or $SEARCHREPL), drive the page in Debian's Chromium (or $CHROMIUM) through Playwright, and
compare what the page shows with what `SearchREPL filter` gives for the same query. Each
scenario saves a screenshot under .build/browser-screenshots/.
"""

import json
import os
import re
import subprocess
import threading
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SEARCHREPL = os.environ.get("SEARCHREPL", str(ROOT / ".build" / "release" / "SearchREPL"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = ROOT / ".build" / "browser-screenshots"
# How long a test waits for the page to show something: long, since CI runs it on two cores.
PATIENCE_MS = 30_000


def chromium_args():
    """The flags headless Chromium needs in a container, in one place: as root it refuses to
    start without --no-sandbox (and only then is the sandbox left off), and a container's small
    /dev/shm makes it crash without --disable-dev-shm-usage."""
    args = ["--disable-dev-shm-usage"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return args


class Server:
    """`SearchREPL serve --port 0` over a data set, its URL read from its first line."""

    LINE = re.compile(r"^serving (\d+) (.+) at (http://127\.0\.0\.1:(\d+)/)$")

    def __init__(self, corpus="cities"):
        if not os.access(SEARCHREPL, os.X_OK):
            pytest.fail(
                f"no executable at {SEARCHREPL}: build it with "
                "`swift build -c release --traits Web --product SearchREPL` (or set SEARCHREPL)"
            )
        self.process = subprocess.Popen(
            [SEARCHREPL, "serve", "--port", "0", "--corpus", corpus],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # The first line, read on a thread so that a server that never prints fails in time.
        lines = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()))
        reader.start()
        reader.join(timeout=120)
        match = self.LINE.match(lines[0].strip()) if lines else None
        if not match:
            self.stop()
            raise RuntimeError(
                f"serve printed {lines!r}, not its address; stderr: {self.process.stderr.read()}"
            )
        self.items, self.name, self.url, self.port = (
            int(match[1]),
            match[2],
            match[3],
            int(match[4]),
        )
        # Its further output is drained, so that a full pipe never stops it.
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=stream.read, daemon=True).start()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# The fields of a city its row shows (as "Zürich (CH)"); a match only in others is shown after it.
SHOWN_FIELDS = ("name", "country")


def engine_rows(query, scope=None, corpus="cities"):
    """The rows `SearchREPL filter --rank` gives for `query`, in order, as the page ranks
    them: each a dict of id, item (the display text), marked (the parts of the item's name
    the query matched, which the page highlights) and hidden: when the query matched only
    fields the row does not show (an alternate name), the first such value and its matched
    parts, which the row shows after " · ", else None."""
    command = [SEARCHREPL, "filter", "--corpus", corpus, "--rank", "--format", "jsonl", query]
    if scope is not None:
        command[2:2] = ["--scope", str(scope)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{command}: {result.stderr}")
    rows = []
    for line in result.stdout.splitlines():
        row = json.loads(line)
        marked = []
        hidden = None
        matches = row.get("matches", [])
        for match in matches:
            parts = [match["text"][start:end] for start, end in match["ranges"]]
            if match["field"] == "name" and match["value"] == 0:
                marked = parts
            elif hidden is None and match["field"] not in SHOWN_FIELDS and parts:
                hidden = (match["text"], parts)
        if any(match["field"] in SHOWN_FIELDS and match["ranges"] for match in matches):
            hidden = None
        rows.append({"id": row["id"], "item": row["item"], "marked": marked, "hidden": hidden})
    return rows


@pytest.fixture(scope="session")
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=chromium_args()
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1000, "height": 720})
    page = context.new_page()
    page.set_default_timeout(PATIENCE_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    context.close()
    assert errors == [], f"the page's script failed: {errors}"
