#!/usr/bin/env python3
"""A Herald server from before wire versions, for tests: forwards every request to a real `herald serve` (UPSTREAM)
and takes out of its JSON answers what older servers did not tell (version, commit, wire). Loopback only; prints its
address."""
from json_proxy import serve

NEWER = {"version", "commit", "wire"}


def older(document, path):
    return {k: v for k, v in document.items() if k not in NEWER} if isinstance(document, dict) else document


serve(older)
