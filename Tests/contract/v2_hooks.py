"""Schemathesis hooks for the run against Frankfurter's own v2 document (Tests/contract/frankfurter_v2.sh).

Larder refuses, before any route and on every route, a path or query that decodes to a control
character (400 `bad_request`, documented in openapi.yaml); Frankfurter's document lists no 400. Only
that refusal, of a case that does hold a control character, is let through; every other check and
failure stands."""
from urllib.parse import unquote

import schemathesis


def _has_control(value):
    if isinstance(value, dict):
        return any(_has_control(name) or _has_control(item) for name, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_control(item) for item in value)
    # Path parameters may reach here already percent-encoded.
    return any(ord(character) < 0x20 or ord(character) == 0x7F for character in unquote(str(value)))


@schemathesis.hook
def filter_failure(context, failure, case, response):
    refused = response.status_code == 400 and b"not valid percent-encoded UTF-8" in response.content
    return not (refused and (_has_control(case.path_parameters or {}) or _has_control(case.query or {})))
