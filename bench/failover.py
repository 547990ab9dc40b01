"""Several upstreams, part of `make bench`, also run alone with `python3 bench/bench.py --only failover`.

dead primary  Larder with two rates upstreams: a dead primary, then the sample upstream's ECB file. Three
              cases, each a fresh Larder on an empty cache: the secondary alone (its own latency, the
              baseline); a primary refusing connections (a closed port); a primary that is a black hole
              (a listening socket whose accept queue is full, so its SYNs are dropped and only the
              connect timeout ends the wait). Each Larder does its start sync, then BURST timed
              `POST /rates/refresh` one after the other; then, once the breaker's first window (30 s)
              has passed, BURST more. Figures: each refresh's time, and how many times the primary was
              asked (`larder_upstream_fetches_by_upstream_total` for it) in each window: the target is once.
updatedAfter  Larder on the sample upstream's ECB data API (`;format=ecb-sdmx`), through a byte-counting
              relay: the bytes of the first sync (the whole history from 1999-01-04) against those of a
              refresh after one new day was published (`updatedAfter=`): the target is ≤ 1 %.

Environment: BENCH_FAILOVER_BURST (refreshes per window, default 10)."""
import datetime
import json
import os
import re
import shutil
import socket
import statistics
import threading
import time
import urllib.request

BURST = int(os.environ.get("BENCH_FAILOVER_BURST", "10"))
TOKEN = "bench-token"
WINDOW_SECONDS = 30  # UpstreamHealth.defaultWindow's first window


class BlackHole:
    """A listening socket whose accept queue is full: further connection attempts are dropped."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(0)
        self.port = self.server.getsockname()[1]
        # Linux queues backlog + 1 connections; fill it so the next SYNs go unanswered.
        self.fillers = []
        for _ in range(2):
            filler = socket.socket()
            filler.setblocking(False)
            try:
                filler.connect(("127.0.0.1", self.port))
            except BlockingIOError:
                pass
            self.fillers.append(filler)
        time.sleep(0.2)

    def close(self):
        for filler in self.fillers:
            filler.close()
        self.server.close()


class CountingRelay:
    """Relays one address to another over loopback and counts the bytes the upstream sends back."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.received = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self.pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self.pipe, args=(upstream, client, True), daemon=True).start()

    def pipe(self, source, sink, counted):
        try:
            while chunk := source.recv(65536):
                if counted:
                    with self.lock:
                        self.received += len(chunk)
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def take(self):
        with self.lock:
            count, self.received = self.received, 0
        return count

    def close(self):
        self.server.close()


def closed_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def primary_fetches(tools, port, primary_url):
    """The primary's fetch count from /metrics, by its label (the URL without credentials)."""
    status, body = tools.request("GET", f"http://127.0.0.1:{port}/metrics")[:2]
    total = 0
    for line in body.decode().splitlines():
        if line.startswith("larder_upstream_fetches_by_upstream_total{") and f'upstream="{primary_url}"' in line:
            total += int(float(line.rsplit(" ", 1)[1]))
    return total


def timed_refresh(tools, port):
    started = time.monotonic()
    status = tools.request("POST", f"http://127.0.0.1:{port}/rates/refresh",
                           headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)[0]
    return time.monotonic() - started, status


def one_case(tools, name, urls):
    cache = os.path.join(tools.work, f"failover-{name}")
    port = tools.ports["larder"]
    argv = [tools.larder, "serve", "--port", str(port), "--cache-dir", cache, "--log-level", "error",
            "--admin-token", TOKEN, "--threads", "1"]
    for url in urls:
        argv += ["--rates-url", url]
    started = time.monotonic()
    tools.processes.start(f"failover-{name}", argv)
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{port}/ready")[0] == 200, 120,
                     f"Larder ({name}) ready")
    start_sync = time.monotonic() - started
    windows = []
    for window in range(2 if len(urls) > 1 else 1):
        if window:
            time.sleep(max(0.0, WINDOW_SECONDS + 1 - (time.monotonic() - window_start)))
        window_start = time.monotonic()
        before = primary_fetches(tools, port, urls[0]) if len(urls) > 1 else 0
        times = [timed_refresh(tools, port) for _ in range(BURST)]
        asked = (primary_fetches(tools, port, urls[0]) - before) if len(urls) > 1 else 0
        windows.append({"times": [seconds for seconds, _ in times],
                        "statuses": sorted({status for _, status in times}), "primary_asked": asked})
    tools.processes.stop(f"failover-{name}")
    return {"start": start_sync, "windows": windows}


def run_dead_primary(tools, secondary):
    blackhole = BlackHole()
    cases = {
        "secondary alone": [secondary],
        "refused primary": [f"http://127.0.0.1:{closed_port()}/rates/eurofxref-hist-90d.xml", secondary],
        "black-hole primary": [f"http://127.0.0.1:{blackhole.port}/rates/eurofxref-hist-90d.xml", secondary],
    }
    results = {name: one_case(tools, name.split()[0], urls) for name, urls in cases.items()}
    blackhole.close()
    return results


def run(tools):
    """Returns the report's lines and SPEC §7-style checks `(name, value, bound)`."""
    upstream_root = os.path.join(tools.work, "failover-upstream")
    shutil.copytree(os.path.join(tools.root, "Examples/upstream/rates"), os.path.join(upstream_root, "rates"))
    # Written before the sample upstream starts: it reads its folder at start.
    days = tools.write_ecb_history(os.path.join(upstream_root, "rates", tools.history_file))
    upstream_port = tools.ports["upstream"]
    tools.processes.start("failover-upstream", [tools.sample_upstream, "--root", upstream_root, "--port",
                                                str(upstream_port), "--log-level", "error"])
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{upstream_port}/_control/faults")[0] == 200, 10,
                     "the sample upstream listening")
    secondary = f"http://127.0.0.1:{upstream_port}/rates/eurofxref-hist-90d.xml"
    results = run_dead_primary(tools, secondary)
    lines = ["### Several upstreams: a refresh with a dead primary (bench/failover.py)", "",
             f"Larder on 1 thread, two rates upstreams: a dead primary, then the sample upstream's 90-day ECB file. "
             f"The start sync, then {BURST} `POST /rates/refresh` one after the other; then, past the breaker's first "
             f"window ({WINDOW_SECONDS} s), {BURST} more. Times in ms.", "",
             "| case | start to ready | window | refreshes: median (max) | statuses | primary asked in the window |",
             "|---|---:|---:|---:|---|---:|"]
    checks = []
    baseline = statistics.median(results["secondary alone"]["windows"][0]["times"])
    for name, result in results.items():
        for index, window in enumerate(result["windows"]):
            times = window["times"]
            lines.append(f"| {name} | {result['start'] * 1000:.0f} | {index + 1} | "
                         f"{statistics.median(times) * 1000:.1f} ({max(times) * 1000:.1f}) | {window['statuses']} | "
                         f"{window['primary_asked'] if name != 'secondary alone' else '–'} |")
        if name == "secondary alone":
            continue
        # Window 1's primary attempt was the start sync (before the count); window 2's is the half-open retry.
        checks.append((f"{name}: the primary asked once per breaker window (window 2)",
                       result["windows"][1]["primary_asked"], "=1"))
        checks.append((f"{name}: refreshes inside a window / the secondary alone's (median, ≤ 1.5)",
                       [statistics.median(window["times"][1:] or window["times"]) / baseline
                        for window in result["windows"]], -1.5))
    lines.append("")
    lines += run_updated_after(tools, upstream_root, upstream_port, days, checks)
    return lines, checks


def next_day(upstream_port, path):
    """Publishes one more day on the sample upstream's ECB data API: the day after the newest (or, past
    tomorrow, a revision of the newest), every currency of the newest day, changed now."""
    with open(path) as feed:
        text = feed.read()
    newest = re.search(r"<Cube time=['\"](\d{4}-\d{2}-\d{2})['\"]>(.*?)</Cube>", text, re.S)
    day = datetime.date.fromisoformat(newest.group(1))
    rates = dict(re.findall(r"currency=['\"]([A-Z]{3})['\"] rate=['\"]([0-9.]+)['\"]", newest.group(2)))
    tomorrow = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=1)
    if day + datetime.timedelta(days=1) <= tomorrow:
        day += datetime.timedelta(days=1)
    else:
        rates = {code: f"{float(value) * 1.0001:.4f}" for code, value in rates.items()}
    body = json.dumps({"day": day.isoformat(), "rates": rates}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{upstream_port}/_control/sdmx/rates/{os.path.basename(path)}",
                                     data=body, method="PUT", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, day


def run_updated_after(tools, upstream_root, upstream_port, days, checks):
    """The ECB data API's incremental refresh against a full history, through a byte-counting relay."""
    history = os.path.join(upstream_root, "rates", tools.history_file)
    relay = CountingRelay(upstream_port)
    port = tools.ports["larder"]
    cache = os.path.join(tools.work, "failover-sdmx")
    tools.processes.start("failover-sdmx", [
        tools.larder, "serve", "--port", str(port), "--cache-dir", cache, "--log-level", "error",
        "--admin-token", TOKEN, "--threads", "1", "--rates-max-bytes", "256m",
        "--rates-url", f"http://127.0.0.1:{relay.port}/sdmx/rates/{tools.history_file};format=ecb-sdmx"])
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{port}/ready")[0] == 200, 300,
                     "Larder (ecb-sdmx) ready")
    full = relay.take()
    # updatedAfter is in whole seconds: the change lands in a later second than the first sync's success.
    time.sleep(1.1)
    published, day = next_day(upstream_port, history)
    status, body = tools.request("POST", f"http://127.0.0.1:{port}/rates/refresh",
                                 headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)[:2]
    incremental = relay.take()
    outcome = json.loads(body or b"{}").get("outcome")
    tools.processes.stop("failover-sdmx")
    relay.close()
    ratio = incremental / full if full else float("nan")
    checks.append(("updatedAfter refresh bytes, % of the full history's (≤ 1 %)", round(ratio * 100, 4), -1.0))
    return [f"ECB data API (`;format=ecb-sdmx`, the generated history of {days:,} days as the API's CSV): the first "
            f"sync took {full:,} bytes from the upstream (headers included, counted by a relay); after {day} was "
            f"published (control answered {published}), `POST /rates/refresh` (`updatedAfter=`, answered {status}, "
            f"outcome `{outcome}`) took {incremental:,} bytes: **{ratio * 100:.3f} %** of the full history.", ""]
