#!/usr/bin/env python3
"""The status page in a real browser, run by `make test` after the contract check: Debian's chromium,
headless, driven by Selenium (pinned in tools/requirements.txt) through Debian's chromium-driver, against
the debug Larder mirroring the sample upstream (Examples/upstream), both on loopback ports, with an
admin token.

With JavaScript on: no console errors (level SEVERE, CSP violations included); one table row per
currency of `/rates`; a chart with one point per stored day (`/status` and `/rates/{first}..` agree);
the documents of `/documents`, each a link; the base and chart selectors redraw without a reload; a
refresh with a wrong token shows the 401 and changes nothing (the attempt, the rates' ETag, Larder's
upstream fetches and the upstream's own request count stay as they were); after the upstream gains a
day, a refresh with the right token shows the new outcome and the page's data follows; a refresh made
elsewhere shows up by itself; every text has a contrast of at least 4.5:1; the CSP header is there.
With JavaScript off: the tables and the chart are there, and the base form works as a plain GET.
From a page on another origin (a second loopback port): an HTML form POST and a `no-cors` fetch POST to
`/rates/refresh` are both refused as cross-site (Larder's refusal counter counts them) and refresh nothing.

Writes a full-page screenshot to .build/status-page.png (docs/status-page.png is one of
those). Every wait is bounded; nothing leaves 127.0.0.1. Usage: status_page.py (BIN= the folder of the
larder and sample-upstream binaries; default: the debug build)."""
import base64
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PORT = int(os.environ.get("BROWSER_PORT", "18482"))
UPSTREAM_PORT = int(os.environ.get("BROWSER_UPSTREAM_PORT", "18483"))
OTHER_PORT = int(os.environ.get("BROWSER_OTHER_PORT", "18484"))
LARDER = f"http://127.0.0.1:{PORT}"
UPSTREAM = f"http://127.0.0.1:{UPSTREAM_PORT}"
OTHER = f"http://127.0.0.1:{OTHER_PORT}"  # another origin (another port): a page a visitor might open
HISTORY = "/rates/eurofxref-hist-90d.xml"
WAIT = 15  # seconds, for anything the page does
SCREENSHOT = ROOT / ".build" / "status-page.png"


def browser_packages():
    """Debian's chromium and chromium-driver: installed with apt-get when missing and root, else the command."""
    if shutil.which("chromium") and shutil.which("chromedriver"):
        return
    command = ["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"]
    if os.geteuid() != 0:
        sys.exit("status page: the browser test needs Debian's chromium: sudo " + " ".join(command))
    print("status page: installing chromium and chromium-driver with apt-get", flush=True)
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], env=environment, check=True, timeout=600)
    subprocess.run(command, env=environment, check=True, timeout=1200, stdout=subprocess.DEVNULL)


def http(method, url, body=None, headers=None):
    """(status, headers, body) of one request; never raises for an HTTP status."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def get_json(path):
    status, _, body = http("GET", LARDER + path)
    assert status == 200, f"GET {path}: {status}"
    return json.loads(body)


def rates_text(path):
    """code → number text of a `/rates` answer, read from the bytes (keeping the published digits)."""
    body = http("GET", LARDER + path)[2].decode()
    return dict(re.findall(r'"([A-Z]{3})":([0-9.]+)', body.split('"rates":', 1)[1]))


def upstream_fetches():
    """Larder's upstream fetches of the rates (every outcome), from /metrics."""
    text = http("GET", LARDER + "/metrics")[2].decode()
    return sum(float(value) for value in re.findall(
        r'^larder_upstream_fetches_total\{resource="rates",outcome="[^"]+"\} (\S+)$', text, re.M))


def refused(reason):
    """Larder's requests refused before any handler for `reason`, from /metrics."""
    text = http("GET", LARDER + "/metrics")[2].decode()
    found = re.search(r'^larder_requests_refused_total\{reason="%s"\} (\S+)$' % reason, text, re.M)
    assert found, f"no larder_requests_refused_total for {reason}"
    return float(found.group(1))


def upstream_requests(path):
    paths = json.loads(http("GET", UPSTREAM + "/_control/requests")[2])["paths"]
    return paths.get(path, {}).get("requests", 0)


def next_day(daily):
    """The sample's 2026-11-20 as a new day, 2026-11-23: USD at 1.0999, every other rate moved a little
    (by a fixed amount per currency, so the run and its screenshot repeat), its digits kept."""
    def moved(match):
        code, rate = match.group(1), match.group(2)
        if code == "USD":
            return f"currency='USD' rate='1.0999'"
        decimals = len(rate.partition(".")[2])
        factor = 1 + (sum(map(ord, code)) % 41 - 20) / 4000
        return f"currency='{code}' rate='{float(rate) * factor:.{decimals}f}'"
    newer = re.sub(r"currency='([A-Z]{3})' rate='([0-9.]+)'", moved, daily)
    return newer.replace("time='2026-11-20'", "time='2026-11-23'")


def wait_for(check, what, seconds=WAIT):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 — a page mid-update (a stale element) is retried until the deadline
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def browser(script):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not script:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    return driver


def severe(driver, allowed=()):
    """The SEVERE console entries since the last call, but those matching an allowed pattern."""
    entries = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return [entry for entry in entries if not any(re.search(pattern, entry["message"]) for pattern in allowed)]


# Every element with text of its own, its colour against the first opaque background behind it.
CONTRAST = """
function rgb(text) { const m = text.match(/[\\d.]+/g); return m ? m.map(Number) : null; }
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function background(element) {
  for (let e = element; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c && (c.length < 4 || c[3] > 0.99)) return c;
  }
  return [255, 255, 255];
}
let worst = { ratio: 99, what: "" };
for (const element of document.querySelectorAll("body *")) {
  const own = [...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== "");
  if (!own || element.getClientRects().length === 0 || element.closest("[hidden], noscript, title, desc")) continue;
  const style = getComputedStyle(element);
  const fg = rgb(element instanceof SVGElement ? style.fill : style.color);
  const [a, b] = [luminance(fg), luminance(background(element))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst.ratio) worst = { ratio: ratio, what: element.tagName + "." + element.className + ": " + element.textContent.trim().slice(0, 40) };
}
return worst;
"""


def check_with_script(driver, token):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(LARDER + "/")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "button[data-refresh=rates]").is_displayed(),
             "the script to show the Refresh buttons")
    wait_for(lambda: "ago)" in driver.find_element(By.CSS_SELECTOR, "#card-rates dd time + .age").text,
             "live ages after the times")
    assert not severe(driver), f"console errors on load: {severe(driver)}"

    rates = rates_text("/rates")
    rows = driver.find_elements(By.CSS_SELECTOR, "#rates-table tbody tr")
    assert len(rows) == len(rates) == 30, f"{len(rows)} rows for {len(rates)} currencies"
    for row in rows:
        code, rate = row.find_element(By.CSS_SELECTOR, "th").text, row.find_elements(By.CSS_SELECTOR, "td")[1].text
        assert rates[code] == rate, f"{code}: the page says {rate}, /rates {rates[code]}"

    days = get_json("/status")["resources"]["rates"]["counts"]["days"]
    first = get_json("/rates/1999-01-01..")
    assert days == len(first["rates"]) == 5, (days, len(first["rates"]))
    points = driver.find_elements(By.CSS_SELECTOR, "figure.chart svg .points circle")
    assert len(points) == days, f"{len(points)} chart points for {days} stored days"

    listed = [document["name"] for document in get_json("/documents")["documents"]]
    links = driver.find_elements(By.CSS_SELECTOR, "#documents-table tbody th a")
    assert [link.text for link in links] == listed, ([link.text for link in links], listed)
    assert all(link.get_attribute("href") == f"{LARDER}/documents/{link.text}" for link in links)

    _, headers, _ = http("GET", LARDER + "/", headers={"Accept": "text/html"})
    policy = headers.get("Content-Security-Policy", "")
    assert policy.startswith("default-src 'none'; script-src 'sha256-"), policy
    assert headers.get("X-Content-Type-Options") == "nosniff" and headers.get("Access-Control-Allow-Origin") is None

    lowest = 99
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        worst = driver.execute_script(CONTRAST)
        assert worst["ratio"] >= 4.5, f"{scheme}: contrast {worst['ratio']:.2f}:1 at {worst['what']}"
        lowest = min(lowest, worst["ratio"])
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # The selectors redraw the rates without a reload (the page's own variable survives: no navigation).
    driver.execute_script("window.stillHere = true")
    Select(driver.find_element(By.ID, "base")).select_by_value("USD")
    wait_for(lambda: "for 1 USD" in driver.find_element(By.CSS_SELECTOR, "#rates-table caption").text,
             "the table in USD")
    converted = rates_text("/rates?base=USD")
    cells = {row.find_element(By.CSS_SELECTOR, "th").text: row.find_elements(By.CSS_SELECTOR, "td")[1].text
             for row in driver.find_elements(By.CSS_SELECTOR, "#rates-table tbody tr")}
    assert cells == converted, "the USD table is /rates?base=USD"
    Select(driver.find_element(By.ID, "currency")).select_by_value("JPY")
    wait_for(lambda: driver.find_element(By.ID, "chart-title").get_attribute("textContent").startswith("JPY for 1 USD"),
             "the chart of JPY in USD")
    assert driver.execute_script("return window.stillHere") is True, "the selectors reloaded the page"
    assert "base=USD" in driver.current_url and "currency=JPY" in driver.current_url, driver.current_url
    assert not severe(driver), f"console errors while choosing: {severe(driver)}"
    driver.get(LARDER + "/")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "button[data-refresh=rates]").is_displayed(), "the page again")

    # A wrong token: the 401 in words, and nothing changes anywhere.
    before = (get_json("/status")["resources"]["rates"]["last_attempt"], http("HEAD", LARDER + "/rates")[1]["ETag"],
              upstream_fetches(), upstream_requests(HISTORY))
    field = driver.find_element(By.ID, "admin-token")
    assert driver.find_element(By.CSS_SELECTOR, "label[for=admin-token]").is_displayed()
    field.send_keys("not-" + token)
    driver.find_element(By.CSS_SELECTOR, "button[data-refresh=rates]").click()
    outcome = driver.find_element(By.ID, "outcome-rates")
    wait_for(lambda: outcome.text.startswith("Refused (401 Unauthorized)"), "the refusal shown")
    assert "Nothing was refreshed" in outcome.text, outcome.text
    after = (get_json("/status")["resources"]["rates"]["last_attempt"], http("HEAD", LARDER + "/rates")[1]["ETag"],
             upstream_fetches(), upstream_requests(HISTORY))
    assert after == before, f"a refused refresh changed something: {before} → {after}"
    # The browser reports the 401 itself, as a failed resource load; that is the only error allowed.
    refusal = [re.escape(f"{LARDER}/rates/refresh") + r" - Failed to load resource: .* 401"]
    assert not severe(driver, refusal), f"console errors after the refusal: {severe(driver, refusal)}"

    # The upstream gains a day; the right token: the new outcome, and the page's data follows.
    newer = next_day((ROOT / "Examples/upstream/rates/eurofxref-daily.xml").read_text())
    assert http("PUT", UPSTREAM + "/_control/files" + HISTORY, newer.encode())[0] == 200
    field.clear()
    field.send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "button[data-refresh=rates]").click()
    wait_for(lambda: outcome.text.startswith("Updated: 1 day stored; the newest is 2026-11-23."), "the new outcome")
    wait_for(lambda: "Rates of 2026-11-23" in driver.find_element(By.CSS_SELECTOR, "#rates-table caption").text,
             "the table of the new day")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "svg .points circle")) == days + 1, "a sixth chart point")
    usd = driver.find_element(By.XPATH, "//table[@id='rates-table']//tr[th='USD']/td[2]").text
    assert usd == "1.0999", usd
    assert upstream_requests(HISTORY) == before[3] + 1

    # A refresh made elsewhere: the card follows by itself, within a few polls.
    attempt = driver.find_element(By.XPATH, "//div[@data-region='card-documents']//dt[.='Last attempt']/following-sibling::dd/time")
    shown = attempt.get_attribute("datetime")
    time.sleep(1.1)  # a later second, so the new attempt has another timestamp
    assert http("POST", LARDER + "/documents/refresh", headers={"Authorization": "Bearer " + token})[0] == 200
    latest = get_json("/status")["resources"]["documents"]["last_attempt"]
    assert latest != shown
    wait_for(lambda: driver.find_element(By.XPATH, "//div[@data-region='card-documents']//dt[.='Last attempt']"
                                         "/following-sibling::dd/time").get_attribute("datetime") == latest,
             "the documents card to show the new attempt by itself")
    driver.find_element(By.CSS_SELECTOR, "button[data-refresh=documents]").click()
    wait_for(lambda: driver.find_element(By.ID, "outcome-documents").text.startswith("Synced (index"),
             "the documents' outcome")
    assert not severe(driver, refusal), f"console errors: {severe(driver, refusal)}"

    # The screenshot: the whole page, with both refreshes' outcomes.
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    SCREENSHOT.parent.mkdir(exist_ok=True)
    SCREENSHOT.write_bytes(base64.b64decode(shot["data"]))
    assert not severe(driver), f"console errors: {severe(driver)}"
    return len(rows), len(points), len(listed), lowest


# The other origin's page: a form that posts to Larder's refresh, and a script-less way to send it.
OTHER_PAGE = f"""<!DOCTYPE html><html><head><title>another site</title></head><body>
<form id="refresh" method="post" action="{LARDER}/rates/refresh"><button>refresh</button></form>
</body></html>"""


class OtherOrigin(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 — http.server's name
        body = OTHER_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def check_cross_site(driver):
    """A page on another origin POSTs to /rates/refresh with a form and with a no-cors fetch: both are refused
    as cross-site before any handler (the refusal counter moves by one each) and nothing is refreshed."""
    from selenium.webdriver.common.by import By

    before = (get_json("/status")["resources"]["rates"]["last_attempt"], upstream_fetches(), upstream_requests(HISTORY))
    count = refused("cross_site_request")
    driver.get(OTHER + "/")
    sent = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {method: "POST", mode: "no-cors", body: "x"}).then(() => done("sent"), e => done(String(e)));
        """, LARDER + "/rates/refresh")
    assert sent == "sent", sent
    wait_for(lambda: refused("cross_site_request") == count + 1, "the fetch refused as cross-site")
    driver.find_element(By.CSS_SELECTOR, "#refresh button").click()
    wait_for(lambda: driver.current_url == LARDER + "/rates/refresh", "the form's answer")
    assert "cross_site_request" in driver.find_element(By.TAG_NAME, "body").text, driver.page_source[:300]
    assert refused("cross_site_request") == count + 2
    after = (get_json("/status")["resources"]["rates"]["last_attempt"], upstream_fetches(), upstream_requests(HISTORY))
    assert after == before, f"a cross-site POST refreshed: {before} → {after}"
    return 2


def check_without_script(driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(LARDER + "/")
    rows = driver.find_elements(By.CSS_SELECTOR, "#rates-table tbody tr")
    assert len(rows) == len(rates_text("/rates")), f"{len(rows)} rows without JavaScript"
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg .points circle")) == get_json("/status")["resources"]["rates"]["counts"]["days"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#documents-table tbody tr")) == len(get_json("/documents")["documents"])
    assert not driver.find_element(By.CSS_SELECTOR, "button[data-refresh=rates]").is_displayed()
    assert "needs JavaScript" in driver.find_element(By.ID, "card-rates").text
    assert "ago)" not in driver.find_element(By.ID, "card-rates").text, "no script ran"
    Select(driver.find_element(By.ID, "base")).select_by_value("GBP")
    driver.find_element(By.CSS_SELECTOR, "form.selection button[type=submit]").click()
    wait_for(lambda: "for 1 GBP" in driver.find_element(By.CSS_SELECTOR, "#rates-table caption").text,
             "the GBP table from the plain form")
    assert "base=GBP" in driver.current_url, driver.current_url
    assert not severe(driver), f"console errors without JavaScript: {severe(driver)}"


def main():
    browser_packages()
    if subprocess.run([sys.executable, str(ROOT / "tools/check/python-tools.py")]).returncode != 0:
        sys.exit("status page: the pinned Python tools could not be installed")
    binaries = Path(os.environ.get("BIN") or subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip())
    token = secrets.token_urlsafe(16)
    cache = tempfile.mkdtemp(prefix="larder-browser-")
    processes = []
    try:
        processes.append(subprocess.Popen(
            [binaries / "sample-upstream", "--root", ROOT / "Examples/upstream", "--port", str(UPSTREAM_PORT),
             "--log-level", "error"], stdout=subprocess.DEVNULL))
        wait_for(lambda: http("GET", UPSTREAM + "/_control/faults")[0] == 200, "the sample upstream")
        processes.append(subprocess.Popen(
            [binaries / "larder", "serve", "--port", str(PORT), "--cache-dir", cache, "--log-level", "error",
             # A plain TTL: on the ECB calendar the day the test runs would decide whether a request
             # starts a background fetch, and the refused refresh must be seen to fetch nothing.
             # One argument with `=`: a token starting with "-" (token_urlsafe gives one in 64) is
             # otherwise read as the next option and the start fails.
             f"--admin-token={token}", "--rates-url", UPSTREAM + HISTORY, "--rates-schedule", "ttl", "--rates-ttl", "1h",
             "--documents-url", UPSTREAM + "/documents/index.json"], stdout=subprocess.DEVNULL))
        wait_for(lambda: http("GET", LARDER + "/ready")[0] == 200, "Larder ready")
        wait_for(lambda: get_json("/status")["resources"]["documents"]["counts"]["mirrored"] == 5, "the mirror")
        other = ThreadingHTTPServer(("127.0.0.1", OTHER_PORT), OtherOrigin)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        driver = browser(script=True)
        try:
            rows, points, documents, contrast = check_with_script(driver, token)
            cross_site = check_cross_site(driver)
        finally:
            driver.quit()
            other.shutdown()
            other.server_close()
        driver = browser(script=False)
        try:
            check_without_script(driver)
        finally:
            driver.quit()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(cache, ignore_errors=True)
    print(f"status page (chromium, headless): {rows} currency rows, {points} chart points, {documents} documents, "
          f"no console errors, a wrong token refused with nothing changed, the right one's new day shown, "
          f"lowest contrast {contrast:.1f}:1 (light and dark), readable without JavaScript, {cross_site} POSTs from "
          f"another origin (form, no-cors fetch) refused with nothing refreshed; "
          f"screenshot {SCREENSHOT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
