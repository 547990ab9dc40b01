#!/usr/bin/env python3
"""Generated sources are what their generators print (`make test`).

- Sources/LarderRates/Model/ISOCurrency+Table.swift against scripts/generate-currencies.py over the money
  gem's table in ../shared/reference/frankfurter (skipped, and said so, when that table is absent: the
  committed file is the repository's copy, the table only its origin).

Prints one line per file; exits 1 when any differs, with the command that writes it again."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CURRENCY_TABLE = ROOT.parent / "shared/reference/frankfurter/currency_iso.json"


def check(target, command, write_hint):
    printed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if printed.returncode != 0:
        print(f"{target}: {' '.join(command)} failed:\n{printed.stderr}", file=sys.stderr)
        return False
    if (ROOT / target).read_text(encoding="utf-8") != printed.stdout:
        print(f"{target}: differs from what its generator prints; write it again with: {write_hint}", file=sys.stderr)
        return False
    print(f"{target}: as its generator prints it")
    return True


def main():
    ok = True
    currencies = "Sources/LarderRates/Model/ISOCurrency+Table.swift"
    if CURRENCY_TABLE.exists():
        ok &= check(
            currencies,
            [sys.executable, "scripts/generate-currencies.py", str(CURRENCY_TABLE)],
            f"python3 scripts/generate-currencies.py {CURRENCY_TABLE} > {currencies}",
        )
    else:
        print(f"{currencies}: not checked ({CURRENCY_TABLE} is absent)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
