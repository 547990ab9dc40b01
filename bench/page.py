"""The status page's cost to the hot path, in `make bench` and alone with
`python3 bench/bench.py --only page`: `GET /rates` with wrk against one Larder, with no browser and
with a headless chromium tab open on its status page (which fetches the page again every 5 s with
If-None-Match and ticks its ages every second), the two alternating in each round; reported side by
side and as the ratio of the medians. The Larder holds what makes the page heaviest here: the whole
generated ECB history (a chart of every stored day) and 1,001 documents (a table of 500 rows).

Needs Debian's chromium and chromium-driver, and Selenium (tools/requirements.txt), as `make test`'s
browser test does. Environment: BENCH_PAGE_POLL (seconds between the tab's extra page loads on top of
its own polling; default 0: none, the tab as a person leaves it)."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request

MODES = ["no browser", "a tab on the status page"]
SETTLE = 3.0  # seconds after the tab opens before wrk starts: the first render and layout are done by then


def open_tab(address):
    """A headless chromium tab on the page, once its script runs (the Refresh buttons show)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(60)
    driver.get(address)
    deadline = time.monotonic() + 30
    while not driver.execute_script("return !document.querySelector('[data-refresh]').closest('[hidden]')"):
        if time.monotonic() > deadline:
            driver.quit()
            sys.exit("bench: the status page's script did not run within 30 s")
        time.sleep(0.1)
    return driver


def page_requests(port):
    """Requests Larder answered on `/` (200s and 304s), from its /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return sum(float(value) for value in re.findall(r'^larder_http_requests_total\{route="/",status="\d+"\} (\S+)$', text, re.M))


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def run(port, pids, wrk, connections, rounds):
    """`wrk(address, pids)` runs one timed wrk against Larder (whose `pids` it samples). Returns the report's lines."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        sys.exit("bench: the page scenario needs Debian's chromium: apt-get install -y chromium chromium-driver")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([sys.executable, os.path.join(root, "tools/check/python-tools.py")], check=True)
    page = f"http://127.0.0.1:{port}/"
    with urllib.request.urlopen(page, timeout=60) as answer:
        size = len(answer.read())
    poll = float(os.environ.get("BENCH_PAGE_POLL", "0"))
    print(f"bench: GET /rates with and without a chromium tab on the status page ({size:,} bytes)", flush=True)
    results = {mode: [] for mode in MODES}
    for round_number in range(rounds):
        for mode in MODES:
            driver = open_tab(page) if mode != MODES[0] else None
            if driver:
                if poll:
                    driver.execute_script(f"setInterval(() => fetch('/', {{cache: 'no-cache', headers: {{Accept: 'text/html'}}}}), {int(poll * 1000)})")
                time.sleep(SETTLE)
            before = page_requests(port)
            figures = wrk(f"http://127.0.0.1:{port}/rates", pids)
            figures["page"] = page_requests(port) - before
            if driver:
                driver.quit()
            results[mode].append(figures)
            print(f"  round {round_number + 1} {mode:26} {figures['rate']:>10,.0f} req/s  p99 {figures['p99']:.2f} ms"
                  f"  page requests {figures['page']:.0f}", flush=True)
            time.sleep(0.5)
    rates = {mode: median([figures["rate"] for figures in results[mode]]) for mode in MODES}
    lines = [f"### GET /rates (wrk -c{connections}) with a browser tab on the status page", "",
             f"The page: {size:,} bytes (the whole generated history charted, 500 of 1,001 documents listed); "
             f"the tab refetches it every 5 s (a 304 while nothing changes)"
             + (f", and every {poll:g} s more" if poll else "") + ".", "",
             "| | req/s | p50 ms | p99 ms | page requests during a run |", "|---|---:|---:|---:|---:|"]
    for mode in MODES:
        runs = results[mode]
        lines.append(f"| {mode} | {rates[mode]:,.0f} | {median([r['p50'] for r in runs]):.2f} | "
                     f"{median([r['p99'] for r in runs]):.2f} | {median([r['page'] for r in runs]):.0f} |")
    ratio = rates[MODES[1]] / rates[MODES[0]]
    lines += ["", f"With the tab / without: **{ratio:.2f}** (the target: `/rates` unchanged with the page open).", ""]
    print(json.dumps({"page_ratio": round(ratio, 3)}), flush=True)
    return lines
