"""A real Frankfurter v2 client (`exrate` from PyPI, 1.0.1, a command-line client) pointed at a running
Larder that mirrors the bundled sample (Examples/upstream/rates/eurofxref-hist-90d.xml: 2026-11-16 to
2026-11-20).

It hard-codes https://api.frankfurter.dev/v2, so only that base is changed; every request path, query
and header it sends are its own. Dated queries only, so the check does not age with the clock.
Usage: exrate_client.py PORT."""
import contextlib
import io
import json
import sys

import exrate

exrate.API_BASE = f"http://127.0.0.1:{sys.argv[1]}/v2"


def run(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exrate.main(list(argv))
    return out.getvalue()


pair = json.loads(run("rate", "EUR", "USD", "--date", "2026-11-22", "--json"))  # a Sunday: the Friday's rate
assert pair["date"] == "2026-11-20" and pair["base"] == "EUR" and pair["quote"] == "USD", pair
rows = json.loads(run("rates", "--date", "2026-11-20", "--base", "USD", "--quotes", "EUR,GBP,AED", "--json"))
assert [row["quote"] for row in rows] == ["AED", "EUR", "GBP"], rows
assert next(row["rate"] for row in rows if row["quote"] == "AED") == 3.6725, "AED through its peg to the dollar"
# A Saturday start snaps back to the stored day before it; the sample holds none before Monday 16th.
series = json.loads(run("rates", "--from", "2026-11-14", "--to", "2026-11-20", "--quotes", "USD", "--json"))
assert [row["date"] for row in series] == ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"], series
weeks = json.loads(run("rates", "--from", "2026-11-16", "--to", "2026-11-20", "--group", "week", "--quotes", "USD",
                       "--json"))
assert weeks and all(row["quote"] == "USD" for row in weeks), weeks
csv = run("rates", "--from", "2026-11-16", "--to", "2026-11-20", "--quotes", "USD", "--csv").splitlines()
assert csv[0] == "date,base,quote,rate" and len(csv) == 6, csv
expanded = json.loads(run("rates", "--date", "2026-11-20", "--quotes", "USD", "--expand", "--json"))
assert expanded[0]["providers"][0]["key"] == "ECB", expanded
converted = json.loads(run("convert", "100", "USD", "GBP", "--date", "2026-11-20", "--json"))
assert abs(converted["result"] - 100 * converted["rate"]) < 1e-9, converted
print(f"exrate (v2) client: a Sunday's pair, pegged quotes, a {len(series)}-row range, weeks, CSV, expand and a "
      f"conversion all passed")
