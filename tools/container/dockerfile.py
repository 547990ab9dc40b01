"""Docker/Dockerfile read as stages of instructions, for check-manifests.py and container-check.py.

A plain reader, not BuildKit's parser: continuation lines are joined, comments and blank lines dropped,
and the parser directives, heredocs and a changed escape character this Dockerfile does not use are
not understood."""
import json
import re


class Stage:
    """One FROM section: the image it starts from, its name (AS …, else its index), its instructions."""

    def __init__(self, base, name, index):
        self.base, self.name, self.index, self.steps = base, name or str(index), index, []

    def last(self, keyword):
        """The argument of the stage's last `keyword` instruction (the one in effect), or None."""
        return next((argument for k, argument in reversed(self.steps) if k == keyword), None)


def instructions(text):
    """(KEYWORD, argument) for each instruction, continuation lines joined."""
    logical, current = [], ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue  # also inside a continuation, as Docker does
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        logical.append(current + stripped)
        current = ""
    if current.strip():
        logical.append(current.strip())
    for line in logical:
        keyword, argument = re.match(r"(\S+)\s*(.*)", line, re.S).groups()
        yield keyword.upper(), argument.strip()


def read(path):
    """The Dockerfile's stages, in order. Global ARGs (before the first FROM) are skipped: the FROM
    lines here name literal images."""
    stages = []
    for keyword, argument in instructions(path.read_text()):
        if keyword == "FROM":
            words = [w for w in argument.split() if not w.startswith("--platform")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(words[0], name, len(stages)))
        elif not stages and keyword != "ARG":
            raise ValueError(f"{path}: {keyword} before the first FROM")
        elif stages:
            stages[-1].steps.append((keyword, argument))
    return stages


def words(argument):
    """An instruction's values: the JSON array form (VOLUME ["/a"]), else whitespace-separated words."""
    return json.loads(argument) if argument.startswith("[") else argument.split()


def exec_form(argument):
    """The argv of a JSON (exec) form, or ['/bin/sh', '-c', text] for the shell form."""
    return json.loads(argument) if argument.startswith("[") else ["/bin/sh", "-c", argument]


def flags_and_rest(argument):
    """An instruction's leading --key=value flags (COPY --from=build …) and the text after them."""
    flags = {}
    rest = argument.split()
    while rest and rest[0].startswith("--"):
        key, _, value = rest.pop(0)[2:].partition("=")
        flags[key] = value
    return flags, " ".join(rest)
