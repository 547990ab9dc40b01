#!/usr/bin/env python3
"""`make test`'s totals, from the JUnit XML Swift Testing writes for `swift test --xunit-output FILE`
(it names its file FILE with `-swift-testing` before the extension).

    python3 tools/check/test-totals.py .build/test-results-swift-testing.xml

Prints `N passed, M failed` on stdout (for the summary line) and, on stderr, the skipped count and each
failed test with its first issue. Exits 1 when a test failed, 2 when the file is missing, empty, not
JUnit XML or lists no test (the run crashed or never started).

One <testcase> is one test function, as in the console's `Test run with N tests`: a parameterized test
counts once, and fails when any of its cases failed (the issue's message names the arguments). Its
<failure>/<error> elements are issues, several per test at times; the <testsuite> attributes are not used
(`tests` leaves out the skipped tests and `failures` counts issues). A skipped test (`.disabled`, a false
`.enabled(if:)`, its suite's) is neither passed nor failed. A known issue (withKnownIssue) writes no
<failure>: the test passes, as in the console."""
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def main(path):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as problem:
        return report_unreadable(f"no test results in {path} (did the run stop early?): {problem}")
    cases = list(root.iter("testcase"))
    if not cases:
        return report_unreadable(f"no test results: {path} lists no test")
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    skipped = [c for c in cases if c not in failed and c.find("skipped") is not None]
    passed = len(cases) - len(failed) - len(skipped)
    say(f"{len(cases)} tests: {passed} passed, {len(failed)} failed, {len(skipped)} skipped ({path})")
    for case in failed:
        issues = case.findall("failure") + case.findall("error")
        message = " ".join((issues[0].get("message") or issues[0].text or "").split())
        more = f" (+{len(issues) - 1} more issue{'s' if len(issues) > 2 else ''})" if len(issues) > 1 else ""
        say(f"  ✘ {case.get('classname')}.{case.get('name')}: {message[:200]}{more}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


def report_unreadable(message):
    say(message)
    print("0 passed, 0 failed")
    return 2


def say(message):
    print(f"test-totals: {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
