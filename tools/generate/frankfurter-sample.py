#!/usr/bin/env python3
"""Writes Examples/upstream/frankfurter/: a small multi-provider data set in the shape Frankfurter v2
keeps its rows (provider, date, base, quote, rate), for the sample upstream's v2 surface, `make run`
and the tests that compare Larder's blend with Frankfurter's.

Deterministic (seeded). What it holds, on purpose:
- 8 providers with six different pivots (EUR, USD, CAD, PLN, CZK, SEK, AUD, RUB); NBP, BOC and CBR
  store rows the other way round (base = the foreign currency, quote = their pivot), as their
  Frankfurter adapters do;
- overlapping currencies (GBP is quoted by six providers, so the consensus runs on it);
- an outlier: CNB's GBP is 7 % off on the last three days, and on 2026-10-14 (consensus drops it);
- a gap: RBA publishes nothing 2026-10-12..2026-10-23 (carry-forward, weights decay);
- a provider gone quiet: CBR's last row is 2026-11-02 (beyond the 14-day lookback of latest);
- a weekly provider (FRED's rows come in one batch a week, dated each weekday);
- pegged currencies: AED quoted by FRED and NBP (the peg overrides them), BAM/XOF… synthesized;
- late.csv: rows the upstream learns later (a late FRED row for an earlier day, an ECB revision)
  that a refresh must pick up.
Usage: tools/generate/frankfurter-sample.py [OUT_DIR]
"""
import csv
import datetime as dt
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Examples/upstream/frankfurter"
FIRST, LAST = dt.date(2026, 8, 3), dt.date(2026, 11, 27)

# Units of each currency per US dollar at the start; each walks on its own.
START = {"EUR": 0.86, "GBP": 0.75, "JPY": 152.3, "CHF": 0.80, "CAD": 1.39, "PLN": 3.65, "CZK": 20.9,
         "SEK": 9.45, "AUD": 1.53, "NZD": 1.74, "NOK": 10.1, "DKK": 6.42, "CNY": 7.12, "RUB": 80.5,
         "AED": 3.6725, "USD": 1.0}
PEGGED = {"AED", "USD"}

# key, pivot, stored orientation ("base": pivot is the base; "quote": pivot is the quote), quotes, decimals
PROVIDERS = [
    ("ECB", "EUR", "base", ["USD", "GBP", "JPY", "CHF", "CAD", "PLN", "CZK", "SEK", "AUD", "NZD", "NOK", "DKK", "CNY"], 4),
    ("FRED", "USD", "base", ["EUR", "GBP", "JPY", "CAD", "CHF", "SEK", "AUD", "CNY", "AED"], 4),
    ("BOC", "CAD", "quote", ["USD", "EUR", "GBP", "JPY", "CHF", "AUD"], 4),
    ("NBP", "PLN", "quote", ["USD", "EUR", "GBP", "CHF", "CZK", "SEK", "AED"], 4),
    ("CNB", "CZK", "base", ["EUR", "USD", "GBP", "PLN", "JPY"], 5),
    ("RB", "SEK", "base", ["EUR", "USD", "GBP", "NOK", "DKK"], 5),
    ("RBA", "AUD", "base", ["USD", "EUR", "JPY", "NZD", "CNY"], 4),
    ("CBR", "RUB", "quote", ["USD", "EUR", "CNY", "GBP"], 4),
]

# What /v2/providers says of each (as Frankfurter's provider seeds do).
ABOUT = {
    "ECB": {"name": "European Central Bank", "country_code": "EU", "rate_type": "reference rate", "publish_cadence": "daily"},
    "FRED": {"name": "Federal Reserve Bank of St. Louis", "country_code": "US", "rate_type": "H.10", "publish_cadence": "weekly"},
    "BOC": {"name": "Bank of Canada", "country_code": "CA", "rate_type": "indicative rate", "publish_cadence": "daily"},
    "NBP": {"name": "Narodowy Bank Polski", "country_code": "PL", "rate_type": "average rate", "publish_cadence": "daily"},
    "CNB": {"name": "Czech National Bank", "country_code": "CZ", "rate_type": "exchange rate fixing", "publish_cadence": "daily"},
    "RB": {"name": "Sveriges Riksbank", "country_code": "SE", "rate_type": "indicative rate", "publish_cadence": "daily"},
    "RBA": {"name": "Reserve Bank of Australia", "country_code": "AU", "rate_type": None, "publish_cadence": "daily"},
    "CBR": {"name": "Central Bank of Russia", "country_code": "RU", "rate_type": "official rate", "publish_cadence": "daily"},
}


def weekdays(first, last):
    day = first
    while day <= last:
        if day.weekday() < 5:
            yield day
        day += dt.timedelta(days=1)


def round_sig(value, decimals):
    """The provider's published digits: `decimals` places, at least 5 significant digits."""
    places = max(decimals, 5 - int(math.floor(math.log10(abs(value)))) - 1)
    return f"{value:.{places}f}"


def main():
    rng = random.Random(20261128)
    days = list(weekdays(FIRST, LAST))
    path = {code: [] for code in START}
    for code, start in START.items():
        value = start
        for _ in days:
            if code not in PEGGED:
                value *= math.exp(rng.gauss(0, 0.004))
            path[code].append(value)

    rows = []
    for key, pivot, orientation, quotes, decimals in PROVIDERS:
        for index, day in enumerate(days):
            if key == "RBA" and dt.date(2026, 10, 12) <= day <= dt.date(2026, 10, 23):
                continue
            if key == "CBR" and day > dt.date(2026, 11, 2):
                continue
            for quote in quotes:
                per_pivot = path[quote][index] / path[pivot][index]  # quote units per pivot unit
                per_pivot *= 1 + rng.gauss(0, 0.0004)
                if key == "CNB" and quote == "GBP" and (index >= len(days) - 3 or day == dt.date(2026, 10, 14)):
                    per_pivot *= 1.07
                if orientation == "base":
                    rows.append((key, day.isoformat(), pivot, quote, round_sig(per_pivot, decimals)))
                else:
                    rows.append((key, day.isoformat(), quote, pivot, round_sig(1 / per_pivot, decimals)))

    late = []
    # FRED's row for 2026-11-25 EUR arrives late; the ECB revises its 2026-11-26 USD.
    held = [r for r in rows if r[0] == "FRED" and r[1] == "2026-11-25" and r[3] == "EUR"]
    for row in held:
        rows.remove(row)
        late.append(row)
    for row in [r for r in rows if r[0] == "ECB" and r[1] == "2026-11-26" and r[3] == "USD"]:
        late.append((row[0], row[1], row[2], row[3], round_sig(float(row[4]) * 1.001, 4)))

    OUT.mkdir(parents=True, exist_ok=True)
    header = ("provider", "date", "base", "quote", "rate")
    for name, data in (("rows.csv", rows), ("late.csv", late)):
        with open(OUT / name, "w", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(sorted(data, key=lambda r: (r[0], r[1], r[2], r[3])))
    # Which way each provider stores its rows is not published (Frankfurter's /v2/providers has no such
    # field): the mirror finds it by probing, as it must against the real Frankfurter.
    meta = [{"key": key, **ABOUT[key], "pivot_currency": pivot} for key, pivot, _, _, _ in PROVIDERS]
    (OUT / "providers.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{OUT}: {len(rows)} rows, {len(late)} late rows, {len(PROVIDERS)} providers")


if __name__ == "__main__":
    main()
