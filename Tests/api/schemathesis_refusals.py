"""Schemathesis hooks of Tests/api/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS).

`positive_data_acceptance` is told (schemathesis.toml) to take 422 for a schema-valid request, and
the check below narrows that back to the refusals a schema cannot express, each listed under the
operation's documented 422 (`UnprocessableContent`): what the request names does not exist in the
session's state now (an unknown id or index, an edit's base ahead of the text's revision), a
view model's own rule refused a value, the Idempotency-Key was used for another request, or the
credentials of a sign-in are wrong. Any other 422 to a schema-valid request (a patch that is not an object, an unknown input, a body the
server cannot read) means the document and the server disagree, and fails.
"""

from __future__ import annotations

import schemathesis
from schemathesis.specs.openapi.checks import is_unexpected_http_status_case

# The titles of the 422 problems that come from state or a view model's rules.
SEMANTIC_REFUSALS = frozenset({
    "Idempotency key reused",
    "Invalid command argument",
    "Invalid input",
    "Invalid edit",
    # Credentials that name no account or the wrong password: POST /api/session/sign-in, and the
    # form's signIn command, whose failures (a view model's rule) are "Command failed".
    "Sign-in failed",
    "Command failed",
})


class UnexplainedRefusal(AssertionError):
    """A schema-valid request was refused with 422 for a reason the schema should have ruled out."""


@schemathesis.check
def only_semantic_refusals(ctx, response, case):
    """A schema-valid request answered 422 must carry one of the `SEMANTIC_REFUSALS`."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    if is_unexpected_http_status_case(case):
        return None  # a request-shape probe, skipped by positive_data_acceptance too
    try:
        title = response.json().get("title")
    except (ValueError, AttributeError):
        title = None
    if title not in SEMANTIC_REFUSALS:
        raise UnexplainedRefusal(
            f"A schema-valid request was refused 422 {title!r}: the document allows what the server refuses"
        )
    return None
