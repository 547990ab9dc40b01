#!/usr/bin/env python3
"""Every relative link and #anchor in the repository's Markdown files resolves (`make test`).

A link to a file must name one that git tracks (or that exists, for a new file); a `#anchor` must be a
heading of the target file, spelled as GitHub spells heading anchors. Absolute URLs are not fetched."""
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def markdown_files():
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return sorted(ROOT / name for name in listed if not name.startswith(".build/") and (ROOT / name).exists())


def prose(text, keep_code=False):
    """The lines outside fenced code blocks, with their numbers, inline code blanked unless kept."""
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.lstrip()):
            inside = not inside
            continue
        if not inside:
            yield number, line if keep_code else re.sub(r"`[^`]*`", "``", line)


def slug(heading):
    """GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` dropped, spaces to `-`."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, counts = set(), {}
        for _, line in prose(path.read_text(), keep_code=True):
            match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if match:
                base = slug(match.group(1))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        for name in re.findall(r'<a\s+(?:name|id)="([^"]+)"', path.read_text()):
            found.add(name)
        cache[path] = found
    return cache[path]


def main():
    problems, checked = [], 0
    for path in markdown_files():
        for number, line in prose(path.read_text()):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # http:, https:, mailto:
                checked += 1
                where = f"{path.relative_to(ROOT)}:{number}"
                file_part, _, anchor = target.partition("#")
                destination = (path.parent / unquote(file_part)).resolve() if file_part else path
                if not destination.exists():
                    problems.append(f"{where}: {target}: no such file")
                    continue
                if anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                    problems.append(f"{where}: {target}: no heading #{anchor} in {destination.relative_to(ROOT)}")
    for problem in problems:
        print(f"broken link: {problem}", file=sys.stderr)
    print(f"links: {checked} relative links and anchors checked, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
