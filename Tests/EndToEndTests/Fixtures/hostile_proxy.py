#!/usr/bin/env python3
"""A hostile Herald server for tests: forwards every request to a real `herald serve` (UPSTREAM) and answers with the
real answer in which every free-text string (names, texts, ids, reasons, links) carries terminal escape sequences:
OSC title and clipboard writes, CSI colours, C1 CSI, BEL. What a client sends back (an id it was given) is cleaned of
them before it is forwarded, so every command works as on a real server. The messaging feature is announced as
version 1, so terminals short-poll a JSON queue instead of the event stream. Loopback only; prints its address."""
import json, urllib.parse

from json_proxy import serve

HOSTILE = "\x1b]0;owned\x07\x1b]52;c;SGVsbG8=\x07\x1b[31m\x9b1m\x07"
TEXT_KEYS = {"name", "text", "title", "body", "topic", "reason", "url", "referrer", "placeholder", "key", "messageId",
             "bulkId", "code", "clientPlaceholder", "description", "applicationKey", "defaultMessageKey", "keyId"}


def poison(value, key=None):
    if isinstance(value, dict):
        return {k: poison(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [poison(v, key) for v in value]
    if isinstance(value, str) and key in TEXT_KEYS:
        return value + HOSTILE
    return value


def clean(text):
    return text.replace(HOSTILE, "")


def clean_json(value):
    if isinstance(value, dict):
        return {k: clean_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_json(v) for v in value]
    return clean(value) if isinstance(value, str) else value


def cleaned(path, body, headers):
    """What a client sends back (an id it was given) without the sequences, so every command works as on a real server."""
    if body:
        body = json.dumps(clean_json(json.loads(body))).encode()
    parts = urllib.parse.urlsplit(path)
    path = "/".join(urllib.parse.quote(clean(urllib.parse.unquote(s)), safe="") for s in parts.path.split("/"))
    query = urllib.parse.urlencode([(k, clean(v)) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)])
    return path + ("?" + query if query else ""), body, {k: clean(v) for k, v in headers.items()}


serve(lambda document, path: poison(document), cleaned)
