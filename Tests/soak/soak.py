#!/usr/bin/env python3
"""`make soak`: minutes of mixed load on a release Larder while the upstream changes data and fails
on a schedule. Reports resident memory after warm-up and at the end, non-2xx/304 answers to valid
requests, and whether every refresh eventually landed. Exit 0 only when all three hold."""
import json, os, re, subprocess, sys, tempfile, time, urllib.request

DURATION = int(os.environ.get("SOAK_SECONDS", "600"))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=ROOT,
                     capture_output=True, text=True, check=True).stdout.strip()
PORT, UPSTREAM_PORT = 18580, 18581
BASE, UP = f"http://127.0.0.1:{PORT}", f"http://127.0.0.1:{UPSTREAM_PORT}"


def request(method, url, body=None):
    req = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return 0, b""


def ecb(day, version):
    rates = "".join(f"<Cube currency='{c}' rate='{1 + i / 10:.4f}{version % 10}'/>"
                    for i, c in enumerate(["USD", "JPY", "GBP", "CHF", "SEK", "NOK"]))
    return (f"<?xml version='1.0' encoding='UTF-8'?><gesmes:Envelope xmlns:gesmes='http://www.gesmes.org/xml/2002-08-01' "
            f"xmlns='http://www.ecb.int/vocabulary/2002-08-01/eurofxref'><Cube><Cube time='{day}'>{rates}</Cube></Cube>"
            f"</gesmes:Envelope>").encode()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def wrk(path, seconds):
    out = subprocess.run(["wrk", "-t1", "-c32", f"-d{seconds}s", BASE + path], capture_output=True, text=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return requests, int(bad.group(1)) if bad else 0, sum(map(int, errors.groups())) if errors else 0


def main():
    cache = tempfile.mkdtemp(prefix="larder-soak-")
    upstream = subprocess.Popen([f"{BIN}/sample-upstream", "--root", "Examples/upstream", "--port", str(UPSTREAM_PORT),
                                 "--log-level", "error"], cwd=ROOT, stdout=subprocess.DEVNULL)
    time.sleep(1)
    request("PUT", f"{UP}/_control/files/soak/rates.xml", ecb("2026-01-01", 0))
    larder = subprocess.Popen([f"{BIN}/larder", "serve", "--port", str(PORT), "--cache-dir", cache,
                               "--rates-url", f"{UP}/soak/rates.xml", "--rates-ttl", "5s",
                               "--documents-url", f"{UP}/documents/index.json", "--documents-ttl", "5s",
                               "--log-level", "error"], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if request("GET", BASE + "/ready")[0] == 200:
                break
            time.sleep(0.1)
        paths = ["/rates", "/rates?base=USD&symbols=GBP,JPY", "/documents", "/documents/handbook.txt", "/currencies"]
        served, bad, socket_errors, published, started = 0, 0, 0, 0, time.time()
        rss_warm = None
        step = 0
        while time.time() - started < DURATION:
            step += 1
            # The upstream changes data every step, and fails one step in four.
            if step % 4 == 0:
                request("PUT", f"{UP}/_control/faults", json.dumps({"path": "*", "status": 503, "times": 20}).encode())
            else:
                request("DELETE", f"{UP}/_control/faults")
                published = step
                day = time.strftime("%Y-%m-%d", time.gmtime(1767225600 + step * 86400))
                request("PUT", f"{UP}/_control/files/soak/rates.xml", ecb(day, step))
            request("POST", BASE + "/rates/refresh")
            for path in paths:
                n, b, e = wrk(path, 2)
                served, bad, socket_errors = served + n, bad + b, socket_errors + e
            if rss_warm is None and time.time() - started > min(30, DURATION / 4):
                rss_warm = rss_kib(larder.pid)
        request("DELETE", f"{UP}/_control/faults")
        expected_day = time.strftime("%Y-%m-%d", time.gmtime(1767225600 + published * 86400))
        landed = False
        for _ in range(200):  # the refresh after the last data change must land (TTL 5 s, backoff capped at it)
            status, body = request("GET", BASE + "/rates")
            if status == 200 and json.loads(body)["date"] == expected_day:
                landed = True
                break
            time.sleep(0.1)
        rss_end = rss_kib(larder.pid)
        rss_warm = rss_warm or rss_end
        growth = (rss_end - rss_warm) / rss_warm * 100
        print(f"soak: {DURATION} s, {step} upstream changes/failures, {served} requests, "
              f"{bad} non-2xx/304 answers, {socket_errors} socket errors")
        print(f"soak: resident memory after warm-up {rss_warm / 1024:.1f} MiB, at the end {rss_end / 1024:.1f} MiB "
              f"({growth:+.1f}%)")
        print(f"soak: the last published day {expected_day} {'landed' if landed else 'did NOT land'}")
        ok = bad == 0 and socket_errors == 0 and growth < 5 and landed
        print("soak: PASS" if ok else "soak: FAIL")
        return 0 if ok else 1
    finally:
        larder.terminate()
        upstream.terminate()
        larder.wait(timeout=15)
        upstream.wait(timeout=15)
        subprocess.run(["rm", "-rf", cache])


if __name__ == "__main__":
    sys.exit(main())
