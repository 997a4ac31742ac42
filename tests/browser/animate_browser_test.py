"""`stickslip animate`'s page in a real browser (Debian's headless Chromium, started here).

For belt (event-driven) and zheng-torque (three methods overlaid) the page must load with no
console message and no script error; at given instants the DOM's contact modes must be those
of the run's events (belt: stick before the closed form's break-away at 7.3575 s, slip after);
a screenshot is taken. The spatial page (three.js, WebGL) the same on a box launched down a
slope (slip until the closed form's stop, stick after) and on the spatial slider-crank with a
clearance joint by two methods overlaid; its screenshots must show the drawing (coloured
pixels), not a blank canvas. The browser resolves no host name, so a page that needed the
network would fail. A browser that cannot be started is a failure, never a skip.

Environment: STICKSLIP_CLI (the executable), CHROMIUM (default: chromium on PATH),
STICKSLIP_ARTIFACTS (where the pages and screenshots are kept; default a temporary directory).
"""
import base64
import fcntl
import json
import math
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile

CLI = os.environ.get("STICKSLIP_CLI", "stickslip")
# WebGL without a GPU is SwiftShader's, which Chromium takes only when asked.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--enable-unsafe-swiftshader", "--host-resolver-rules=MAP * ~NOTFOUND"]
BELT_BREAKAWAY = 7.3575  # k x = mu_s m g (thesis Table 3.1; DESIGN 7)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(ROOT, "mechanisms", "scenarios")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAILED:", message)


def chromium():
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        sys.exit("cannot start a browser: chromium was not found (Debian: apt-get install chromium; "
                 "scripts/setup.sh --tests installs it)")
    return path


class Browser:
    """One headless Chromium for the whole test, driven over the DevTools protocol on a pipe
    (--remote-debugging-pipe: it reads fd 3 and writes fd 4, JSON messages each ended by NUL).
    A page is loaded afresh for each instant: its script reads #t= once, as it loads."""

    TIMEOUT = 120  # seconds for any one reply

    def __init__(self):
        self.profile = tempfile.TemporaryDirectory()
        to_browser, self.to_browser = os.pipe()
        self.from_browser, from_browser = os.pipe()

        def pipes():  # fds 3 and 4 in the browser; copied above them first, so that dup2 clears close-on-exec
            ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)]
            for fd, end in zip((3, 4), ends):
                os.dup2(end, fd)

        self.log = tempfile.TemporaryFile()  # its stderr: a pipe nobody reads while it runs could fill and stall it
        try:
            self.process = subprocess.Popen([chromium(), *FLAGS, "--user-data-dir=" + self.profile.name,
                                             "--remote-debugging-pipe", "about:blank"],
                                            preexec_fn=pipes, close_fds=False, stdout=subprocess.DEVNULL,
                                            stderr=self.log)
        except OSError as e:
            sys.exit("cannot start a browser: %s: %s" % (chromium(), e))
        os.close(to_browser)
        os.close(from_browser)
        self.buffer, self.count, self.events, self.loads = b"", 0, [], 0
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=1100, height=800, deviceScaleFactor=1,
                  mobile=False)

    def fail(self, why):
        self.process.kill()
        self.log.seek(0)
        log = self.log.read().decode(errors="replace")
        sys.exit("cannot start a browser: %s %s:\n%s" % (chromium(), why, log[-2000:]))

    def message(self):
        while b"\0" not in self.buffer:
            ready, _, _ = select.select([self.from_browser], [], [], self.TIMEOUT)
            chunk = os.read(self.from_browser, 1 << 16) if ready else b""
            if not chunk:
                self.fail("exited" if ready else "stopped answering")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)

    def call(self, method, session=False, **params):
        self.count += 1
        request = {"id": self.count, "method": method, "params": params}
        if session:
            request["sessionId"] = self.session
        try:
            os.write(self.to_browser, json.dumps(request).encode() + b"\0")
        except BrokenPipeError:
            self.fail("exited")
        while True:
            reply = self.message()
            if reply.get("id") == self.count:
                if "error" in reply:
                    sys.exit("the browser refused %s: %s" % (method, reply["error"]))
                return reply["result"]
            self.events.append(reply)

    def open(self, page, instant):
        """Loads page#t=instant; returns the page's console messages and uncaught errors."""
        self.events, self.loads = [], self.loads + 1
        url = "file://%s?load=%d#t=%s" % (os.path.abspath(page), self.loads, instant)  # the query: a new load
        self.call("Page.navigate", session=True, url=url)
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self.message())
        messages = []
        for e in self.events:
            p = e.get("params", {})
            if e.get("method") == "Runtime.consoleAPICalled":
                messages.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                                       for a in p["args"])))
            elif e.get("method") == "Runtime.exceptionThrown":
                messages.append("Uncaught: " + p["exceptionDetails"].get("exception", {}).get("description", ""))
            elif e.get("method") == "Log.entryAdded" and "GL Driver Message" not in p["entry"]["text"]:
                messages.append("%s: %s" % (p["entry"]["level"], p["entry"]["text"]))  # not the software GL's notes
        return messages

    def dom(self):
        html = self.call("Runtime.evaluate", session=True, expression="document.documentElement.outerHTML")
        return html["result"]["value"]

    def screenshot(self, png):
        with open(png, "wb") as f:
            f.write(base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png")["data"]))

    def close(self):
        self.call("Browser.close")
        self.process.wait(timeout=self.TIMEOUT)
        self.profile.cleanup()


def modes_at(browser, page, instant, runs, contacts):
    console = browser.open(page, instant)
    dom = browser.dom()
    check(not console, "%s at t = %g: console messages:\n%s" % (page, instant, "\n".join(console)))
    errors = re.search(r'<pre id="errors">(.*?)</pre>', dom, re.S)
    check(errors is not None and errors.group(1).strip() == "",
          "%s at t = %g: script errors: %s" % (page, instant, errors.group(1) if errors else "no errors element"))
    clock = re.search(r'id="clock" data-t="([^"]*)"', dom)
    check(clock is not None and abs(float(clock.group(1)) - instant) < 1e-9,
          "%s: the page did not go to t = %g (clock %s)" % (page, instant, clock.group(1) if clock else None))
    modes = {}
    for r in range(runs):
        for k in range(contacts):
            m = re.search(r'id="mode-%d-%d" data-mode="([^"]*)"' % (r, k), dom)
            modes[(r, k)] = m.group(1) if m else None
    return modes


def animate(out_dir, name, *args):
    page = os.path.join(out_dir, os.path.splitext(os.path.basename(name))[0] + ".html")
    p = subprocess.run([CLI, "animate", name, "--out", page, "--force", *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("stickslip animate %s failed (%d): %s" % (name, p.returncode, p.stderr))
    html = open(page, encoding="utf-8").read()
    # The markup outside the scripts (three.js's text names web addresses it never loads).
    markup = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    check(not re.search(r"https?:|src=|href=|url\(", markup), page + ": refers to something outside the file")
    return page


def screenshot(browser, page, instant, png, drawn=0):
    """A screenshot of page#t=instant; with drawn > 0, at least that many coloured pixels in it
    (the bodies, contacts and arrows: the page's grey and white are not)."""
    browser.open(page, instant)
    browser.screenshot(png)
    check(os.path.isfile(png) and os.path.getsize(png) > 5000, png + ": no screenshot")
    if drawn and os.path.isfile(png):
        from PIL import Image  # Debian's python3-pil, which python3-matplotlib brings
        pixels = Image.open(png).convert("RGB").getdata()
        coloured = sum(1 for p in pixels if max(p) - min(p) > 60)
        check(coloured >= drawn, "%s: %d coloured pixels, expected at least %d (a blank view?)" % (png, coloured, drawn))
        print("%s: %d coloured pixels" % (os.path.basename(png), coloured))


def mode_after(events, contact, instant, initial):
    """The mode a contact is in at `instant` by the run's events (stick/slip/open)."""
    mode = initial
    for e in events:
        if e["contact"] == contact and e["t"] <= instant and e["kind"] in ("stick", "slip+", "slip-", "open"):
            mode = e["kind"]
    return mode


def spatial(browser, out_dir):
    """The three.js page: a box launched down a slope, then the slider-crank with clearance."""
    box = os.path.join(SCENARIOS, "box_on_slope.yaml")
    settings = ["--set", "parameters.speed=0.5", "--set", "parameters.mu_static=0.4", "--set",
                "parameters.mu_kinetic=0.4", "--t-end", "1"]
    stop = 0.5 / (9.81 * (0.4 * math.cos(0.3) - math.sin(0.3)))  # v0 / (g (mu cos a - sin a))
    run = subprocess.run([CLI, "run", box, "--method", "event-driven", "--json", *settings],
                         capture_output=True, text=True, check=True)
    events = json.loads(run.stdout)["events"]
    corners = ["corner-%d" % i for i in range(1, 5)]
    check(sorted(e["contact"] for e in events) == corners and all(e["kind"] == "stick" for e in events)
          and all(abs(e["t"] - stop) < 1e-7 for e in events),
          "box_on_slope: expected its four corners to stick at %.9f s, events: %s" % (stop, events))
    page = animate(out_dir, box, "--methods", "event-driven", *settings)
    for t in (0.0, 0.3, stop - 0.01, stop + 0.01, 0.9):
        modes = modes_at(browser, page, t, 1, 4)
        for k, corner in enumerate(corners):
            expected = mode_after(events, corner, t, "slip+")
            check(modes[(0, k)] == expected,
                  "box_on_slope at t = %g: %s shows %s, the run's events %s" % (t, corner, modes[(0, k)], expected))
    screenshot(browser, page, 0.3, os.path.join(out_dir, "box_on_slope.png"), drawn=5000)

    crank = os.path.join(SCENARIOS, "spatial-slider-crank-clearance.yaml")
    methods = ["event-driven", "penalty"]
    page = animate(out_dir, crank, "--methods", ",".join(methods), "--t-end", "0.1", "--impact-law",
                   "newton-tangential", "--set", "parameters.mu_static=0.2", "--set", "parameters.mu_kinetic=0.1")
    for t in (0.005, 0.05, 0.1):
        modes = modes_at(browser, page, t, len(methods), 4)
        check(all(m in ("open", "stick", "slip+", "impact") for m in modes.values()),
              "spatial-slider-crank-clearance at t = %g: modes %s" % (t, modes))
    screenshot(browser, page, 0.05, os.path.join(out_dir, "spatial-slider-crank-clearance.png"), drawn=1000)
    # The cost of a 3D frame (software WebGL here): reported, not bounded, as it depends on the machine.
    browser.open(page, "0.05&bench")
    dom = browser.dom()
    cost = re.search(r'data-render-ms="([^"]*)"', dom)
    check(cost is not None and float(cost.group(1)) > 0.0, "spatial-slider-crank-clearance: no frame cost measured")
    print("spatial-slider-crank-clearance, two methods: %s ms per frame" % (cost and cost.group(1)))


def main():
    out_dir = os.environ.get("STICKSLIP_ARTIFACTS") or tempfile.mkdtemp(prefix="stickslip-browser-")
    os.makedirs(out_dir, exist_ok=True)
    browser = Browser()

    # belt, event-driven: its events, then the page at instants around each.
    run = subprocess.run([CLI, "run", "belt", "--method", "event-driven", "--t-end", "20", "--json"],
                         capture_output=True, text=True, check=True)
    events = json.loads(run.stdout)["events"]
    check(abs(events[0]["t"] - BELT_BREAKAWAY) < 1e-6 and events[0]["kind"].startswith("slip"),
          "belt: the first event is not the break-away at 7.3575 s: %s" % events[0])
    page = animate(out_dir, "belt", "--methods", "event-driven", "--t-end", "20")
    instants = [0.0, BELT_BREAKAWAY - 0.01, BELT_BREAKAWAY + 0.01]
    for e in events[1:]:
        instants += [e["t"] - 0.01, e["t"] + 0.01]
    for t in instants:
        expected = mode_after(events, "block-belt", t, "stick")
        got = modes_at(browser, page, t, 1, 1)[(0, 0)]
        check(got == expected, "belt at t = %g: the page shows %s, the run's events %s" % (t, got, expected))
    check(modes_at(browser, page, BELT_BREAKAWAY - 0.01, 1, 1)[(0, 0)] == "stick",
          "belt: not sticking before 7.3575 s")
    check(modes_at(browser, page, BELT_BREAKAWAY + 0.01, 1, 1)[(0, 0)].startswith("slip"),
          "belt: not slipping after 7.3575 s")
    screenshot(browser, page, 8.0, os.path.join(out_dir, "belt.png"))
    # Smooth: a frame of the 20 s run (thousands of frames) drawn far within 1/60 s.
    browser.open(page, "1&bench")
    dom = browser.dom()
    cost = re.search(r'data-render-ms="([^"]*)"', dom)
    check(cost is not None and float(cost.group(1)) < 16.0, "belt: drawing a frame takes %s ms" % (cost and cost.group(1)))
    print("belt, 20 s: %s ms per frame" % (cost and cost.group(1)))

    # zheng-torque, three methods overlaid: the event-driven run's modes as its events say.
    methods = ["event-driven", "penalty:ambrosio", "moreau-jean"]
    run = subprocess.run([CLI, "run", "zheng-torque", "--method", "event-driven", "--t-end", "2", "--json"],
                         capture_output=True, text=True, check=True)
    events = json.loads(run.stdout)["events"]
    page = animate(out_dir, "zheng-torque", "--methods", ",".join(methods), "--t-end", "2")
    changes = [e for e in events if e["kind"] in ("stick", "slip+", "slip-")]
    check(len(changes) >= 2, "zheng-torque: expected stick-slip in 2 s, events: %s" % events)
    for i, e in enumerate(changes[:4]):
        for t in ((e["t"] - 1e-4, e["t"] + 1e-4) if i else (e["t"] + 1e-4,)):
            modes = modes_at(browser, page, t, len(methods), 1)
            expected = mode_after(events, "clearance-A", t, None)
            check(modes[(0, 0)] == expected,
                  "zheng-torque at t = %g: the page shows %s, the run's events %s" % (t, modes[(0, 0)], expected))
            check(all(modes[(r, 0)] in ("open", "stick", "slip+", "slip-", "impact") for r in range(len(methods))),
                  "zheng-torque at t = %g: modes %s" % (t, modes))
    screenshot(browser, page, 0.6, os.path.join(out_dir, "zheng-torque.png"))

    spatial(browser, out_dir)
    browser.close()
    print("pages and screenshots in", out_dir)
    if failures:
        sys.exit("%d check(s) failed" % len(failures))
    print("ok")


if __name__ == "__main__":
    main()
