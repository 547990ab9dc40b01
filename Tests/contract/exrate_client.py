"""A real Frankfurter v2 client (`exrate` from PyPI, 1.0.1, a command-line client nobody here wrote)
pointed at a running Larder that mirrors the bundled sample (Examples/upstream/rates/eurofxref-hist-90d.xml:
2026-11-16 to 2026-11-20).

It hard-codes https://api.frankfurter.dev/v2 as a module constant, so only that is changed; every
command, request and answer it reads are its own. Each command runs as a user types it, through
`exrate.main`, with and without `--json`. Usage: exrate_client.py PORT."""
import contextlib
import io
import json
import sys

import exrate

port = sys.argv[1]
exrate.API_BASE = f"http://127.0.0.1:{port}/v2"


def run(*argv):
    """The command's standard output; a failing command (exrate exits on any API error) fails here."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exrate.main(list(argv))
        except SystemExit as stop:
            raise AssertionError(f"exrate {' '.join(argv)} exited with {stop.code}") from None
    return out.getvalue()


currencies = json.loads(run("currencies", "--all", "--json"))
codes = [c["iso_code"] for c in currencies]
assert {"EUR", "USD", "GBP", "JPY", "BMD"} <= set(codes) and codes == sorted(codes), codes
assert next(c for c in currencies if c["iso_code"] == "USD")["name"] == "United States Dollar", currencies
table = run("currencies")
assert "United States Dollar" in table and "currencies" in table.splitlines()[-1], table
mine = json.loads(run("currencies", "--providers", "ECB", "--json"))
assert "BMD" not in [c["iso_code"] for c in mine] and "USD" in [c["iso_code"] for c in mine], mine

usd = json.loads(run("currency", "usd", "--json"))
assert usd["iso_code"] == "USD" and usd["iso_numeric"] == "840" and usd["providers"] == ["ECB"], usd
aed = run("currency", "AED")
assert "Peg" in aed and "3.6725 USD" in aed, aed

providers = json.loads(run("providers", "--json"))
assert [p["key"] for p in providers] == ["ECB"] and providers[0]["end_date"] == "2026-11-20", providers
assert "European Central Bank" in run("providers")

rate = json.loads(run("rate", "EUR", "USD", "--json"))
assert rate["base"] == "EUR" and rate["quote"] == "USD" and rate["date"] == "2026-11-20", rate
day = json.loads(run("rate", "EUR", "GBP", "--date", "2026-11-22", "--json"))  # a Sunday: the Friday
assert day["date"] == "2026-11-20", day
rates = json.loads(run("rates", "--base", "USD", "--quotes", "EUR,GBP", "--json"))
assert {r["quote"] for r in rates} >= {"EUR", "GBP"} and all(r["base"] == "USD" for r in rates), rates
series = run("rates", "--from", "2026-11-16", "--to", "2026-11-20", "--quotes", "USD", "--csv")
lines = series.strip().splitlines()
assert lines[0].split(",")[:4] == ["date", "base", "quote", "rate"] and len(lines) > 5, series
converted = run("convert", "100", "EUR", "USD")
assert converted.strip(), converted
pegged = json.loads(run("rates", "--date", "2026-11-20", "--base", "USD", "--quotes", "EUR,GBP,AED", "--json"))
assert [row["quote"] for row in pegged] == ["AED", "EUR", "GBP"], pegged
assert next(row["rate"] for row in pegged if row["quote"] == "AED") == 3.6725, "AED through its peg to the dollar"
# A Saturday start snaps back to the stored day before it; the sample holds none before Monday 16th.
days = json.loads(run("rates", "--from", "2026-11-14", "--to", "2026-11-20", "--quotes", "USD", "--json"))
assert [row["date"] for row in days] == ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"], days
weeks = json.loads(run("rates", "--from", "2026-11-16", "--to", "2026-11-20", "--group", "week", "--quotes", "USD",
                       "--json"))
assert weeks and all(row["quote"] == "USD" for row in weeks), weeks
expanded = json.loads(run("rates", "--date", "2026-11-20", "--quotes", "USD", "--expand", "--json"))
assert expanded[0]["providers"][0]["key"] == "ECB", expanded
print(f"exrate (Frankfurter v2 client): currencies, currency, providers, rate, rates, a {len(lines) - 1}-row CSV"
      " series, a conversion, pegged quotes, a snapped-back range, weeks and expand all passed")
