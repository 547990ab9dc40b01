"""A real Frankfurter client (the `frankfurter` package from PyPI, 2.0.0) pointed at a running Larder
that mirrors the bundled sample (Examples/upstream/rates/eurofxref-hist-90d.xml: 2026-11-16 to 2026-11-20).

It hard-codes https://api.frankfurter.dev/v1, so only its host and scheme are changed; every request
path, query and body it reads are its own. Usage: frankfurter_client.py PORT."""
import sys
import urllib.request

import frankfurter.engine as engine_module

port = sys.argv[1]
engine_module.Request = lambda url, **options: urllib.request.Request(url.replace("https://", "http://", 1), **options)
engine = engine_module.FrankfurterEngine()
engine._FrankfurterEngine__base_url = f"127.0.0.1:{port}/v1"

currencies = engine.fetch_currencies()
assert {"EUR", "USD", "GBP", "JPY"} <= set(currencies), currencies
# Frankfurter's names (the money gem's ISO 4217 table), every one a name.
assert currencies["USD"] == "United States Dollar" and currencies["EUR"] == "Euro", currencies
assert currencies["GBP"] == "British Pound" and currencies["JPY"] == "Japanese Yen", currencies
assert all(isinstance(name, str) and name and name != code for code, name in currencies.items()), currencies
latest = engine.fetch_latest_data(base="USD", symbols="GBP,JPY")
assert latest["base"] == "USD" and set(latest["rates"]) == {"GBP", "JPY"}, latest
day = engine.fetch_data_for_date(date="2026-11-22")  # a Sunday after the newest day: the Friday
assert day["date"] == "2026-11-20", day
series = engine.fetch_time_series_data(start_date="2026-11-14", end_date="2026-11-22", symbols="USD")
assert series["start_date"] == "2026-11-16" and series["end_date"] == "2026-11-20", series
assert len(series["rates"]) == 5, series
assert list(series["rates"]) == sorted(series["rates"]) and all(set(r) == {"USD"} for r in series["rates"].values())
# Frankfurter's digits (lib/roundable.rb): 0.84127 / 1.0862 = 0.774507… to 5 decimals, which the
# client multiplies by the amount itself.
assert latest["rates"]["GBP"] == 0.77451, latest
converted = engine.convert_currency(amount=100, base="USD", to="GBP")
assert abs(converted - 77.451) < 1e-9, converted
print(f"frankfurter client: {len(currencies)} named currencies, latest, a Sunday, a {len(series['rates'])}-day series and a conversion all passed")
