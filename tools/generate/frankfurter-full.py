#!/usr/bin/env python3
"""Writes a full-size Frankfurter v2 data set, in the sample set's format (`rows.csv`:
provider,date,base,quote,rate; `providers.json`), into OUT_DIR: for the bench of a local Frankfurter
(bench/frankfurter_mirror.py, SPEC §7). Never committed: it is some 200 MiB.

Deterministic for a seed and a last day (default: today, UTC, so the latest answers, which look back
14 days, never age out). What it holds, and why:
- the 84 providers of Frankfurter's seeds (db/seeds/providers/ at 60541ad): their keys, names, pivot
  currencies, cadences and coverage starts; where a seed has no start, a plausible one (BOB 2010,
  CBM 2012-04-02 when Myanmar's managed float began, FRED 1971 as its H.10 series); the providers of
  currencies the euro replaced end with them (BBK/DEM and BDP/PTE 1998-12-31, LB/LTL 2014-12-31);
- each provider's rows the way its Frankfurter adapter stores them: (PIVOT, foreign) for ECB, BDI, BOE,
  HNB, RBA, RBF, NRBT, CBS, BOB, FRED, IMF, BOJ, CBC, CBLLR; (foreign, PIVOT) for every other;
- a realistic number of currencies per provider (from the adapters and the banks' publications):
  most central banks 20–40, BDI ~120 (it publishes every currency against the euro), NBP ~150 (32 in
  its daily table A, the rest in its weekly table B, dated Wednesdays), single-rate providers 1–5;
  ~160 currencies in all (`shared/reference/frankfurter/currency_iso.json` without test and fund
  units, plus the three defunct pivots);
- business-day rows (weekdays but 1 January and 25 December), monthly ones (the first business day of
  each month) for BOA and CBC, whose tables are monthly; a weekly publisher's rows (FRED) are still
  daily, as H.10's are;
- rates from one random walk per currency against the US dollar (so providers agree within a
  provider's own small bias and the consensus has something to do), pegged currencies at their peg,
  published with 4–6 significant digits per provider, in plain notation.
The rows number 11.7 million (the count is printed; 355 MB of CSV, some 20 s): each provider's
currencies times its business days since its coverage start, which is what Frankfurter's own table
would hold for these histories; the largest are BDI (120 currencies since 1999, 0.86 million), CBU (75
since 1994), DNB (30 since 1977), NBP (32 daily and ~118 weekly since 2002) and FRED (22 since 1971).
Usage: tools/generate/frankfurter-full.py OUT_DIR [--seed N] [--until YYYY-MM-DD]
"""
import argparse
import datetime as dt
import json
import math
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CURRENCY_ISO = ROOT.parent / "shared/reference/frankfurter/currency_iso.json"
PEGS = ROOT.parent / "shared/reference/frankfurter/pegs.json"
# Units of account and test codes no central bank publishes a rate for, and codes long replaced.
NOT_TRADED = {"XBA", "XBB", "XBC", "XBD", "XTS", "XPD", "XPT", "BYR", "ZMK", "SKK"}
DEFUNCT = {"DEM": 1.95583, "PTE": 200.482, "LTL": 3.4528}  # per euro at their conversion
# Roughly the order in which central banks list foreign currencies: a provider quoting k currencies
# quotes mostly the first ones.
POPULAR = ("USD EUR GBP JPY CHF CNY CAD AUD SEK NOK DKK HKD SGD NZD KRW INR RUB TRY PLN CZK HUF ZAR BRL MXN "
           "SAR AED THB MYR IDR PHP ILS KWD XDR RON BGN ISK EGP QAR BHD OMR JOD KZT UAH TWD ARS CLP COP PEN "
           "VND PKR BDT LKR NGN KES MAD TND DZD GEL AMD AZN BYN MDL UZS KGS TJS MNT RSD MKD ALL XAU XAG").split()

# key, name, country, rate type, pivot, cadence, coverage start, end (None: today), stores (PIVOT, foreign),
# currencies (daily), weekly currencies (NBP's table B), significant digits.
PROVIDERS = [
    ("AMCM", "Autoridade Monetária de Macau", "MO", "interbank middle rate", "MOP", "daily", "1986-01-02", None, False, 20),
    ("BAM", "Bank Al-Maghrib", "MA", "transfer rate", "MAD", "daily", "1999-01-04", None, False, 17),
    ("BANREP", "Banco de la República", "CO", "representative market", "COP", "daily", "2000-01-03", None, False, 1),
    ("BANXICO", "Banco de México", "MX", "FIX", "MXN", "daily", "1991-11-12", None, False, 5),
    ("BBK", "Deutsche Bundesbank", "DE", "historical Frankfurt fixing", "DEM", None, "1948-06-21", "1998-12-31", False, 14),
    ("BCB", "Banco Central do Brasil", "BR", "PTAX closing", "BRL", "daily", "2000-01-01", None, False, 10),
    ("BCBO", "Banco Central de Bolivia", "BO", "official rate", "BOB", "daily", "2000-01-01", None, False, 25),
    ("BCC", "Banco Central de Cuba", "CU", "informal market rate", "CUP", "daily", "2025-12-19", None, False, 3),
    ("BCCH", "Banco Central de Chile", "CL", "observed rate", "CLP", "daily", "1990-01-02", None, False, 15),
    ("BCCR", "Banco Central de Costa Rica", "CR", "reference rate", "CRC", "daily", "2000-01-03", None, False, 1),
    ("BCEAO", "Banque Centrale des Etats de l'Afrique de l'Ouest", None, "reference rate", "XOF", "daily", "2014-01-02", None, False, 25),
    ("BCN", "Banco Central de Nicaragua", "NI", "reference rate", "NIO", "daily", "2012-01-01", None, False, 1),
    ("BCP", "Banco Central del Paraguay", "PY", "interbank reference rate", "PYG", "daily", "2001-01-01", None, False, 10),
    ("BCRA", "Banco Central de la República Argentina", "AR", "reference rate", "ARS", "daily", "2000-01-03", None, False, 15),
    ("BCT", "Banque Centrale de Tunisie", "TN", "reference rate", "TND", "daily", "2004-12-23", None, False, 20),
    ("BCU", "Banco Central del Uruguay", "UY", None, "UYU", "daily", "2000-01-01", None, False, 10),
    ("BDI", "Banca d'Italia", "IT", None, "EUR", "daily", "1999-01-04", None, True, 120),
    ("BDP", "Banco de Portugal", "PT", "historical reference", "PTE", None, "1987-01-02", "1998-12-31", False, 20),
    ("BI", "Bank Indonesia", "ID", "transaction", "IDR", "daily", "2024-01-02", None, False, 25),
    ("BNA", "Banco Nacional de Angola", "AO", "reference rate", "AOA", "daily", "2000-01-01", None, False, 5),
    ("BNM", "Bank Negara Malaysia", "MY", None, "MYR", "daily", "2006-01-03", None, False, 25),
    ("BNR", "Banca Națională a României", "RO", "reference rate", "RON", "daily", "2005-01-03", None, False, 35),
    ("BNRRW", "Banque Nationale du Rwanda", "RW", "reference rate", "RWF", "daily", "2012-01-02", None, False, 30),
    ("BOA", "Bank of Algeria", "DZ", "reference rate", "DZD", "monthly", "2000-01-03", None, False, 10),
    ("BOB", "Bank of Botswana", "BW", None, "BWP", "daily", None, None, True, 10),
    ("BOC", "Bank of Canada", "CA", "indicative rate", "CAD", "daily", "2017-01-03", None, False, 26),
    ("BOE", "Bank of England", "GB", "spot rate", "GBP", "daily", "2000-01-04", None, True, 25),
    ("BOI", "Bank of Israel", "IL", "representative rate", "ILS", "daily", "2000-01-01", None, False, 15),
    ("BOJ", "Bank of Japan", "JP", "Tokyo market interbank", "USD", "daily", "1998-01-05", None, True, 2),
    ("BOJA", "Bank of Jamaica", "JM", "counter rate", "JMD", "daily", "2006-01-03", None, False, 5),
    ("BOM", "Bank of Mongolia", "MN", "statutory reference rate", "MNT", "daily", "2001-01-02", None, False, 30),
    ("BOT", "Bank of Thailand", "TH", "commercial bank", "THB", "daily", "2002-01-02", None, False, 20),
    ("BOTA", "Bank of Tanzania", "TZ", "indicative rate", "TZS", "daily", "1999-07-01", None, False, 30),
    ("BRB", "Banque de la Republique du Burundi", "BI", "official rate", "BIF", "daily", "2024-09-02", None, False, 10),
    ("BSP", "Bangko Sentral ng Pilipinas", "PH", "reference rate", "PHP", "daily", "2017-11-06", None, False, 1),
    ("CBA", "Central Bank of Armenia", "AM", "average rate", "AMD", "daily", "1999-01-04", None, False, 40),
    ("CBC", "Central Bank of the Republic of China (Taiwan)", "TW", "interbank spot market closing", "USD", "monthly", "1993-01-05", None, True, 15),
    ("CBE", "Central Bank of Egypt", "EG", "official rate", "EGP", "daily", "2024-03-01", None, False, 20),
    ("CBG", "Central Bank of The Gambia", "GM", "indicative rate", "GMD", "daily", "2000-01-07", None, False, 5),
    ("CBI", "Central Bank of Iraq", "IQ", "indicative rate", "IQD", "daily", "2009-01-01", None, False, 10),
    ("CBK", "Central Bank of Kenya", "KE", "indicative rate", "KES", "daily", "2003-09-12", None, False, 20),
    ("CBLLR", "Central Bank of Liberia", "LR", "indicative", "USD", "daily", "2012-07-05", None, True, 1),
    ("CBM", "Central Bank of Myanmar", "MM", "reference rate", "MMK", "daily", "2012-04-02", None, False, 35),
    ("CBN", "Central Bank of Nigeria", "NG", "official exchange rate", "NGN", "daily", "2001-12-10", None, False, 15),
    ("CBR", "Central Bank of Russia", "RU", "official rate", "RUB", "daily", "1999-01-04", None, False, 35),
    ("CBS", "Central Bank of Samoa", "WS", "indicative reference rate", "WST", "daily", "2008-01-03", None, True, 10),
    ("CBSL", "Central Bank of Sri Lanka", "LK", "indicative rate", "LKR", "daily", "2011-01-20", None, False, 20),
    ("CBU", "Central Bank of Uzbekistan", "UZ", None, "UZS", "daily", "1994-07-01", None, False, 75),
    ("CNB", "Czech National Bank", "CZ", "exchange rate fixing", "CZK", "daily", "1991-01-01", None, False, 31),
    ("DAB", "Da Afghanistan Bank", "AF", "indicative rate", "AFN", "daily", "2019-03-31", None, False, 10),
    ("DNB", "Danmarks Nationalbank", "DK", "indicative rate", "DKK", "daily", "1977-01-03", None, False, 30),
    ("ECB", "European Central Bank", "EU", "reference rate", "EUR", "daily", "1999-01-04", None, True, 30),
    ("FBIL", "Financial Benchmarks India", "IN", "reference rate", "INR", "daily", "2018-07-10", None, False, 4),
    ("FRED", "Federal Reserve Bank of St. Louis", "US", "H.10", "USD", "weekly", None, None, True, 22),
    ("HKMA", "Hong Kong Monetary Authority", "HK", None, "HKD", "monthly", "1981-01-02", None, False, 15),
    ("HNB", "Hrvatska Narodna Banka", "HR", None, "EUR", "daily", "2023-01-02", None, True, 13),
    ("IMF", "International Monetary Fund", None, "representative rate", "USD", "daily", "2003-04-01", None, True, 50),
    ("LB", "Lietuvos Bankas", "LT", None, "LTL", "daily", "1994-04-01", "2014-12-31", False, 40),
    ("MAS", "Monetary Authority of Singapore", "SG", None, "SGD", "daily", "1988-01-01", None, False, 20),
    ("MMA", "Maldives Monetary Authority", "MV", "reference rate", "MVR", "daily", "2011-04-21", None, False, 1),
    ("MNB", "Magyar Nemzeti Bank", "HU", "official rate", "HUF", "daily", "1999-01-04", None, False, 30),
    ("NB", "Norges Bank", "NO", "middle rate", "NOK", "daily", "1999-01-04", None, False, 40),
    ("NBC", "National Bank of Cambodia", "KH", "official rate", "KHR", "daily", "2008-01-14", None, False, 25),
    ("NBE", "National Bank of Ethiopia", "ET", "weighted average", "ETB", "daily", "2024-10-01", None, False, 20),
    ("NBG", "National Bank of Georgia", "GE", "official rate", "GEL", "daily", "1995-10-14", None, False, 40),
    ("NBK", "National Bank of Kazakhstan", "KZ", "official (market) rate", "KZT", "daily", "2000-01-01", None, False, 35),
    ("NBKR", "National Bank of the Kyrgyz Republic", "KG", "official rate", "KGS", "daily", "1999-01-01", None, False, 30),
    ("NBM", "National Bank of Moldova", "MD", "official rate", "MDL", "daily", "1999-01-04", None, False, 40),
    ("NBP", "Narodowy Bank Polski", "PL", "average rate", "PLN", "daily", "2002-01-02", None, False, 32),
    ("NBRB", "Natsyyanalny Bank Respubliki Belarus", "BY", "official rate", "BYN", "daily", "2016-07-01", None, False, 30),
    ("NBRM", "Narodna Banka na Republika Severna Makedonija", "MK", None, "MKD", "daily", "1993-01-01", None, False, 30),
    ("NBT", "National Bank of Tajikistan", "TJ", "official rate", "TJS", "daily", "2001-01-01", None, False, 30),
    ("NBU", "Natsionalnyi Bank Ukrainy", "UA", "official rate", "UAH", "daily", "1999-01-04", None, False, 40),
    ("NRB", "Nepal Rastra Bank", "NP", "reference rate", "NPR", "daily", "2010-01-01", None, False, 20),
    ("NRBT", "National Reserve Bank of Tonga", "TO", "authorized persons' average daily exchange rate", "TOP", "daily", "2017-01-03", None, True, 10),
    ("RB", "Sveriges Riksbank", "SE", "indicative rate", "SEK", "daily", "1993-01-04", None, False, 30),
    ("RBA", "Reserve Bank of Australia", "AU", None, "AUD", "daily", "2023-01-03", None, True, 20),
    ("RBF", "Reserve Bank of Fiji", "FJ", "mid rate", "FJD", "daily", "2001-01-02", None, True, 10),
    ("RBM", "Reserve Bank of Malawi", "MW", "reference rate", "MWK", "daily", "2011-06-20", None, False, 20),
    ("RBV", "Reserve Bank of Vanuatu", "VU", "reference rate", "VUV", "daily", "2025-08-26", None, False, 10),
    ("SARB", "South African Reserve Bank", "ZA", "weighted average", "ZAR", "daily", "2000-01-01", None, False, 3),
    ("SBI", "Seðlabanki Íslands", "IS", "official rate", "ISK", "daily", "1981-01-01", None, False, 20),
    ("SBP", "State Bank of Pakistan", "PK", "daily average banks' floating rate", "PKR", "monthly", "2013-07-02", None, False, 25),
    ("TCMB", "Türkiye Cumhuriyet Merkez Bankası", "TR", "indicative rate", "TRY", "daily", "1996-04-16", None, False, 20),
]
MISSING_STARTS = {"BOB": "2010-01-04", "CBM": "2012-04-02", "FRED": "1971-01-04"}
MONTHLY_ROWS = {"BOA", "CBC"}
NBP_WEEKLY_WEEKDAY = 2  # table B is dated Wednesdays


def business_days(first, last):
    day = first
    while day <= last:
        if day.weekday() < 5 and (day.month, day.day) not in ((1, 1), (12, 25)):
            yield day
        day += dt.timedelta(days=1)


def plain(value, digits):
    """`digits` significant digits in plain notation, as a provider publishes them."""
    places = max(0, digits - 1 - math.floor(math.log10(value)))
    return f"{value:.{places}f}"


def universe():
    codes = {entry["iso_code"] for entry in json.loads(CURRENCY_ISO.read_text()).values()} - NOT_TRADED
    return sorted(codes | set(DEFUNCT))


def walks(codes, first, last, rng):
    """Each code's units per US dollar on every calendar day from `first` to `last`: a random walk
    ending at a level of its own, pegs held at their rate, the defunct pivots at their euro rate."""
    days = (last - first).days + 1
    pegs = {peg["quote"]: (peg["base"], peg["rate"]) for peg in json.loads(PEGS.read_text())}
    level = {}
    for code in codes:
        if code in pegs or code in DEFUNCT or code == "USD":
            continue
        end = 10 ** rng.uniform(-0.6, 4.2)
        path, value = [0.0] * days, 1.0
        for index in range(days - 1, -1, -1):
            path[index] = value
            value *= math.exp(rng.gauss(0, 0.004))
        level[code] = [end * step for step in path]
    level["USD"] = [1.0] * days
    anchored = {code: (pegs[code][0], pegs[code][1]) for code in codes if code in pegs}
    anchored.update({code: ("EUR", rate) for code, rate in DEFUNCT.items()})
    for code, (anchor, rate) in anchored.items():
        level[code] = [value * rate for value in level[anchor]]
    return level


def currencies_of(provider, codes, pegged, rng):
    """The provider's foreign currencies: mostly the popular ones, a few others of its region's choosing."""
    key, pivot, count = provider[0], provider[4], provider[9]
    if key == "NBP":
        return sorted(code for code in codes if code != pivot and code not in DEFUNCT)
    others = [code for code in codes if code not in POPULAR and code not in DEFUNCT and code != pivot]
    # Before 1999 there was no euro to quote.
    popular = [code for code in POPULAR if code in codes and code != pivot
               and not (code == "EUR" and provider[7] and provider[7] < "1999")]
    chosen = popular[: max(1, count * 3 // 4)]
    chosen += rng.sample(others, count - len(chosen)) if count > len(chosen) else []
    if pivot in pegged:
        # A mirror asks a pegged foreign code with the pivot as the base, which a pegged pivot cannot be.
        chosen = [code for code in chosen if code not in pegged]
    return sorted(chosen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--until", default=dt.datetime.now(dt.timezone.utc).date().isoformat())
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    until = dt.date.fromisoformat(arguments.until)
    first = min(dt.date.fromisoformat(p[6] or MISSING_STARTS[p[0]]) for p in PROVIDERS)
    codes = universe()
    level = walks(codes, first, until, rng)
    pegged = {peg["quote"] for peg in json.loads(PEGS.read_text())}
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, quoted, meta = 0, set(), []
    with open(out / "rows.csv", "w") as handle:
        handle.write("provider,date,base,quote,rate\n")
        for provider in PROVIDERS:
            key, name, country, rate_type, pivot, cadence, start, end, pivot_is_base, _ = provider
            start = dt.date.fromisoformat(start or MISSING_STARTS[key])
            end = dt.date.fromisoformat(end) if end else until
            foreign = currencies_of(provider, codes, pegged, rng)
            daily = foreign[:] if key != "NBP" else [code for code in foreign if code in POPULAR[:32]]
            digits = rng.choice((4, 5, 6))
            bias = {code: math.exp(rng.gauss(0, 0.0008)) for code in foreign}
            days = list(business_days(start, end))
            if key in MONTHLY_ROWS:
                days = [day for index, day in enumerate(days) if index == 0 or days[index - 1].month != day.month]
            pivot_path = level[pivot]
            lines = []
            for day in days:
                index = (day - first).days
                names = foreign if key != "NBP" or day.weekday() == NBP_WEEKLY_WEEKDAY else daily
                text = day.isoformat()
                for code in names:
                    per_pivot = level[code][index] / pivot_path[index] * bias[code]  # code units per pivot unit
                    if pivot_is_base:
                        lines.append(f"{key},{text},{pivot},{code},{plain(per_pivot, digits)}\n")
                    else:
                        lines.append(f"{key},{text},{code},{pivot},{plain(1 / per_pivot, digits)}\n")
            handle.writelines(lines)
            rows += len(lines)
            quoted |= set(foreign) | {pivot}
            meta.append({"key": key, "name": name, "country_code": country, "rate_type": rate_type,
                         "publish_cadence": cadence, "pivot_currency": pivot,
                         "orientation": "base" if pivot_is_base else "quote"})
    (out / "providers.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"{out}: {rows} rows, {len(PROVIDERS)} providers, {len(quoted)} currencies, {first} to {until}")


if __name__ == "__main__":
    main()
