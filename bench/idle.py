"""The idle and churn scenarios of `make bench`, also run alone with
`python3 bench/bench.py --only idle,churn`, once per worker count (bench.py starts Larder with
`--threads N` and nginx with `worker_processes N` for each N of BENCH_WORKERS).

idle:  GET /rates with wrk while 0 and 3,000 idle keep-alive connections are open to the
       same server (each opened, used for one request, then left alone), Larder against nginx
       static serving the same bytes, in alternating rounds; every round's figure is printed, and
       the ratios are taken round by round (Larder's round against nginx's next to it), so the
       report gives their median, their worst round and their spread.
churn: waves of 300 new connections (one request each, answered within 3 s or counted lost) while
       wrk runs against the same server; lost connections counted over WAVES waves, RUNS runs,
       the targets alternating run by run.
Environment: BENCH_IDLE_LEVELS (default 0,3000), BENCH_CHURN_WAVES (100), BENCH_CHURN_RUNS (5)."""
import os
import socket
import statistics
import subprocess
import time

IDLE_LEVELS = [int(level) for level in os.environ.get("BENCH_IDLE_LEVELS", "0,3000").split(",")]
CHURN_WAVES = int(os.environ.get("BENCH_CHURN_WAVES", "100"))
CHURN_RUNS = int(os.environ.get("BENCH_CHURN_RUNS", "5"))

WAVE = 300
REQUEST_TIMEOUT = 3.0


def read_answer(connection):
    """Reads one whole answer (head and Content-Length body); False if it does not come."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return False
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            return False
        body += chunk
    return head.startswith(b"HTTP/1.1 200")


def request_bytes(path):
    return f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()


def open_idle(port, path, count):
    """`count` keep-alive connections, each used once and then left idle (open, no request)."""
    connections, failed = [], 0
    for _ in range(count):
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(request_bytes(path))
            if read_answer(connection):
                connections.append(connection)
                continue
            connection.close()
        except OSError:
            pass
        failed += 1
    return connections, failed


def still_open(connections):
    """How many idle connections the server has not closed (a closed one reads as end of stream)."""
    alive = 0
    for connection in connections:
        connection.setblocking(False)
        try:
            alive += connection.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


def churn_run(port, path, waves):
    """Lost connections over `waves` waves of WAVE new connections, one request each, the slowest
    wave and the new connections answered per second."""
    lost, slowest, began = 0, 0.0, time.monotonic()
    for _ in range(waves):
        started = time.monotonic()
        wave = []
        for _ in range(WAVE):
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=REQUEST_TIMEOUT)
                connection.sendall(request_bytes(path))
                wave.append(connection)
            except OSError:
                lost += 1
        for connection in wave:
            try:
                lost += not read_answer(connection)
            except OSError:
                lost += 1
            connection.close()
        slowest = max(slowest, time.monotonic() - started)
    return lost, slowest, waves * WAVE / (time.monotonic() - began)


def spread(values):
    """`median (worst … best)` of per-round figures, lowest first."""
    return f"{statistics.median(values):.2f} ({min(values):.2f} … {max(values):.2f})"


def load_average():
    with open("/proc/loadavg") as loadavg:
        return loadavg.read().split()[0]


def run(targets, wrk, connections, rounds, scenarios, workers):
    """`targets`: name → (port, path, pids), Larder first, then "nginx static"; `wrk(address, pids)` runs
    one timed wrk; `scenarios`: which of "idle" and "churn" to run; `workers`: Larder's threads and
    nginx's worker processes, for the titles. Returns the report's lines and SPEC §7's checks, each
    `(name, [per-round values], bound)`: met only when the median and the worst round both meet it."""
    lines, checks = [], []
    names = list(targets)
    larder_name, nginx_name = names[0], "nginx static"
    label = f"{workers} worker{'s' if workers > 1 else ''}"
    if "idle" in scenarios:
        results = {}
        print(f"bench: {label}: GET /rates with {', '.join(f'{level:,}' for level in IDLE_LEVELS)} idle keep-alive "
              "connections", flush=True)
        # Levels alternate inside each round like the targets, so drift on a shared machine hits all alike.
        for round_number in range(rounds):
            for level in IDLE_LEVELS:
                for name, (port, path, pids) in targets.items():
                    held, failed = open_idle(port, path, level)
                    figures = wrk(f"http://127.0.0.1:{port}{path}", pids)
                    figures["idle_open"] = still_open(held)
                    figures["idle_failed"] = failed
                    figures["load"] = load_average()
                    for connection in held:
                        connection.close()
                    results.setdefault((level, name), []).append(figures)
                    print(f"  {label} round {round_number + 1} {level:>5} idle {name:16} {figures['rate']:>10,.0f} req/s"
                          f"  p99 {figures['p99']:.2f} ms  idle open {figures['idle_open']}/{level} (failed to open {failed})"
                          f"  load {figures['load']}", flush=True)
                    time.sleep(0.5)  # the closed idle connections leave the server's table
        lines += [f"### {label}: GET /rates (wrk -c{connections}) with idle keep-alive connections open", "",
                  "Every round (req/s, p99 ms, load average):", "",
                  "| idle | target | " + " | ".join(f"round {n + 1}" for n in range(rounds)) + " | median | worst | spread |",
                  "|---|---|" + "---:|" * (rounds + 3)]
        for level in IDLE_LEVELS:
            for name in names:
                runs = results[(level, name)]
                rates = [run["rate"] for run in runs]
                lines.append(f"| {level:,} | {name} | " + " | ".join(
                    f"{run['rate']:,.0f} ({run['p99']:.2f} ms, {run['load']})" for run in runs)
                    + f" | {statistics.median(rates):,.0f} | {min(rates):,.0f} | "
                    f"{(max(rates) - min(rates)) / statistics.median(rates) * 100:.0f} % |")

        def per_round(level, name, against_level, against, key="rate"):
            return [mine[key] / theirs[key] for mine, theirs in
                    zip(results[(level, name)], results[(against_level, against)])]
        top, bottom = IDLE_LEVELS[-1], IDLE_LEVELS[0]
        p99 = (f"{label}: GET /rates p99 ≤ nginx static's (Larder p99 / nginx p99)",
               per_round(bottom, larder_name, bottom, nginx_name, "p99"), -1.0)
        own = (f"{label}: {top:,} idle ≥ 0.9 × Larder's own {bottom} idle",
               per_round(top, larder_name, bottom, larder_name), 0.9)
        # Against nginx in req/s: information only (SPEC §7), shown with the others.
        shown = [("GET /rates × nginx static", per_round(bottom, larder_name, bottom, nginx_name)),
                 (f"{top:,} idle × nginx static", per_round(top, larder_name, top, nginx_name))]
        shown += [(name.split(': ', 1)[1], values) for name, values, _ in (p99, own)]
        lines += ["", "Round-by-round ratios, median (worst … best):", ""]
        lines += [f"- {name}: {spread(values)}" for name, values in shown]
        lines.append("")
        # SPEC §7's targets here: the p99 at 1 worker, and the rate with idle connections against its own.
        checks += ([p99] if workers == 1 else []) + [own]
    if "churn" in scenarios:
        lines += [f"### {label}: churn, {CHURN_WAVES} waves of {WAVE} new connections while wrk -c{connections} runs, "
                  f"{CHURN_RUNS} runs per target, alternating", "",
                  "| target | lost per run | slowest wave | new connections/s per run | wrk req/s during churn per run |",
                  "|---|---|---:|---|---|"]
        runs = {name: {"lost": [], "slowest": 0.0, "accepted": [], "rates": []} for name in names}
        print(f"bench: {label}: churn", flush=True)
        for run_number in range(CHURN_RUNS):
            for name, (port, path, pids) in targets.items():
                load = subprocess.Popen(["wrk", "-t1", f"-c{connections}", "-d3600s", f"http://127.0.0.1:{port}{path}"],
                                        stdout=subprocess.PIPE, text=True)
                lost, run_slowest, per_second = churn_run(port, path, CHURN_WAVES)
                load.send_signal(2)  # SIGINT: wrk prints its summary
                out = load.communicate()[0]
                rate = next((float(line.split()[1]) for line in out.splitlines() if line.startswith("Requests/sec")), 0.0)
                figures = runs[name]
                figures["lost"].append(lost)
                figures["rates"].append(rate)
                figures["accepted"].append(per_second)
                figures["slowest"] = max(figures["slowest"], run_slowest)
                print(f"  {label} run {run_number + 1} {name:16} lost {lost}  slowest wave {run_slowest:.2f} s  "
                      f"{per_second:,.0f} new connections/s  wrk {rate:,.0f} req/s  load {load_average()}", flush=True)
        for name in names:
            figures = runs[name]
            lines.append(f"| {name} | {', '.join(map(str, figures['lost']))} | {figures['slowest']:.2f} s | "
                         f"{', '.join(f'{value:,.0f}' for value in figures['accepted'])} | "
                         f"{', '.join(f'{value:,.0f}' for value in figures['rates'])} |")
        churn_ratios = [mine / theirs for mine, theirs in zip(runs[larder_name]["rates"], runs[nginx_name]["rates"]) if theirs]
        lines += ["", f"wrk during churn, Larder / nginx static, run by run: {spread(churn_ratios)}", ""]
        checks.append((f"{label}: churn: no connection lost (lost per run)", runs[larder_name]["lost"], "=0"))
    return lines, checks
