#!/usr/bin/env python3
"""Generated sources are what their generators print (`make test`).

- Sources/LarderRates/Model/ISOCurrency+Table.swift against tools/generate/generate-currencies.py over the money
  gem's table in ../shared/reference/frankfurter (skipped, and said so, when that table is absent: the
  committed file is the repository's copy, the table only its origin).
- Sources/LarderRatesAPI/Resources/v1-openapi.json and v2-openapi.json against
  tools/generate/dialect-openapi.py over openapi.yaml (`make docs` writes them), each a valid OpenAPI 3.1 document.

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
    if subprocess.run([sys.executable, str(ROOT / "tools/check/python-tools.py")]).returncode != 0:
        return 1
    ok = True
    currencies = "Sources/LarderRates/Model/ISOCurrency+Table.swift"
    if CURRENCY_TABLE.exists():
        ok &= check(
            currencies,
            [sys.executable, "tools/generate/generate-currencies.py", str(CURRENCY_TABLE)],
            f"python3 tools/generate/generate-currencies.py {CURRENCY_TABLE} > {currencies}",
        )
    else:
        print(f"{currencies}: not checked ({CURRENCY_TABLE} is absent)")
    for dialect in ("v1", "v2"):
        target = f"Sources/LarderRatesAPI/Resources/{dialect}-openapi.json"
        ok &= check(target, [sys.executable, "tools/generate/dialect-openapi.py", "--print", dialect], "make docs")
        ok &= valid_openapi(target)
    return 0 if ok else 1


def valid_openapi(target):
    import json
    from openapi_spec_validator import validate
    try:
        validate(json.loads((ROOT / target).read_text(encoding="utf-8")))
    except Exception as error:  # the validator raises several kinds; each is a finding here
        print(f"{target}: not a valid OpenAPI document: {error}", file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
