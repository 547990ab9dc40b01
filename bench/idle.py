"""The idle and churn scenarios of `make bench`, also run alone with
`python3 bench/bench.py --only idle,churn`.

idle:  GET /rates with wrk while 0, 1,000 and 3,000 idle keep-alive connections are open to the
       same server (each opened, used for one request, then left alone), Larder against nginx
       static serving the same bytes, in alternating rounds.
churn: waves of 300 new connections (one request each, answered within 3 s or counted lost) while
       wrk runs against the same server; lost connections counted over WAVES waves, RUNS runs.
Environment: BENCH_IDLE_LEVELS (default 0,1000,3000), BENCH_CHURN_WAVES (200), BENCH_CHURN_RUNS (10)."""
import os
import socket
import subprocess
import time

IDLE_LEVELS = [int(level) for level in os.environ.get("BENCH_IDLE_LEVELS", "0,1000,3000").split(",")]
CHURN_WAVES = int(os.environ.get("BENCH_CHURN_WAVES", "200"))
CHURN_RUNS = int(os.environ.get("BENCH_CHURN_RUNS", "10"))
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


def median(results, key):
    values = sorted(figures[key] for figures in results)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def run(targets, wrk, connections, rounds, scenarios):
    """`targets`: name → (port, path, pids), Larder first; `wrk(address, pids)` runs one timed wrk;
    `scenarios`: which of "idle" and "churn" to run. Returns the report's lines."""
    lines = []
    if "idle" in scenarios:
        results = {}
        print(f"bench: GET /rates with {', '.join(f'{level:,}' for level in IDLE_LEVELS)} idle keep-alive connections", flush=True)
        # Levels alternate inside each round like the targets, so drift on a shared machine hits all alike.
        for round_number in range(rounds):
            for level in IDLE_LEVELS:
                for name, (port, path, pids) in targets.items():
                    held, failed = open_idle(port, path, level)
                    figures = wrk(f"http://127.0.0.1:{port}{path}", pids)
                    figures["idle_open"] = still_open(held)
                    figures["idle_failed"] = failed
                    for connection in held:
                        connection.close()
                    results.setdefault((level, name), []).append(figures)
                    print(f"  round {round_number + 1} {level:>5} idle {name:16} {figures['rate']:>10,.0f} req/s"
                          f"  p99 {figures['p99']:.2f} ms  idle open {figures['idle_open']}/{level} (failed to open {failed})",
                          flush=True)
                    time.sleep(0.5)  # the closed idle connections leave the server's table
        lines += [f"### GET /rates (wrk -c{connections}) with idle keep-alive connections open", "",
                  "| target | " + " | ".join(f"{level:,} idle" for level in IDLE_LEVELS) + " | ratio to own 0 idle |",
                  "|---|" + "---:|" * (len(IDLE_LEVELS) + 1)]
        for name in targets:
            medians = [median(results[(level, name)], "rate") for level in IDLE_LEVELS]
            lines.append(f"| {name} | " + " | ".join(f"{rate:,.0f}" for rate in medians)
                         + f" | {medians[-1] / medians[0]:.2f} |")
        names = list(targets)
        top = IDLE_LEVELS[-1]
        larder, nginx = median(results[(top, names[0])], "rate"), median(results[(top, "nginx static")], "rate")
        own = median(results[(IDLE_LEVELS[0], names[0])], "rate")
        lines += ["", f"Targets at {top:,} idle: Larder ≥ 0.9 × its own 0-idle rate: {larder / own:.2f} "
                  f"({'met' if larder >= 0.9 * own else 'NOT met'}); ≥ 1.2 × nginx static: {larder / nginx:.2f} "
                  f"({'met' if larder >= 1.2 * nginx else 'NOT met'})", ""]
    if "churn" in scenarios:
        lines += [f"### Churn: {CHURN_WAVES} waves of {WAVE} new connections while wrk -c{connections} runs, "
                  f"{CHURN_RUNS} runs (medians of the rates)", "",
                  "| target | lost per run | slowest wave | new connections/s | wrk req/s during churn |",
                  "|---|---|---:|---:|---:|"]
        for name, (port, path, pids) in targets.items():
            print(f"bench: churn against {name}", flush=True)
            losses, slowest, rates, accepted = [], 0.0, [], []
            for run_number in range(CHURN_RUNS):
                load = subprocess.Popen(["wrk", "-t1", f"-c{connections}", "-d3600s", f"http://127.0.0.1:{port}{path}"],
                                        stdout=subprocess.PIPE, text=True)
                lost, run_slowest, per_second = churn_run(port, path, CHURN_WAVES)
                load.send_signal(2)  # SIGINT: wrk prints its summary
                out = load.communicate()[0]
                rate = next((float(line.split()[1]) for line in out.splitlines() if line.startswith("Requests/sec")), 0.0)
                losses.append(lost)
                rates.append(rate)
                accepted.append(per_second)
                slowest = max(slowest, run_slowest)
                print(f"  run {run_number + 1} {name:16} lost {lost}  slowest wave {run_slowest:.2f} s  "
                      f"{per_second:,.0f} new connections/s  wrk {rate:,.0f} req/s", flush=True)
            lines.append(f"| {name} | {', '.join(map(str, losses))} | {slowest:.2f} s | {sorted(accepted)[len(accepted) // 2]:,.0f} | "
                         f"{sorted(rates)[len(rates) // 2]:,.0f} |")
        lines.append("")
    return lines
