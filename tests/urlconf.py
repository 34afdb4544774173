"""Every route of the URLconf as a URL to request, for tests that must
cover routes added later without being edited."""

from __future__ import annotations

import re

from django.urls import URLResolver, get_resolver, resolve
from django.urls.resolvers import RoutePattern


def _walk(patterns, prefix=()):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, (*prefix, p.pattern))
        else:
            yield (*prefix, p.pattern)


ROUTE_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
REGEX_GROUP = re.compile(r"\(\?P<(\w+)>([^()]*)\)")


def _concrete(patterns, values: dict[str, str]) -> str:
    """A URL the route answers, its ids those of the objects in ``values``
    (any other parameter: "1", or the first word of a regex's alternatives)."""

    def group(found):
        name, body = found.group(1), found.group(2)
        if name in values:
            return values[name]
        words = body.split("|")
        return words[0] if all(re.fullmatch(r"[\w-]+", w) for w in words) else "1"

    url = ""
    for pattern in patterns:
        if isinstance(pattern, RoutePattern):
            url += ROUTE_PARAM.sub(lambda m: values.get(m.group(2), "1"), str(pattern))
        else:
            url += REGEX_GROUP.sub(group, str(pattern).lstrip("^").rstrip("$"))
    return "/" + url


def every_url(values: dict[str, str]) -> list[str]:
    """One URL per route of the URLconf (the admin's too), so a route added
    later is covered without touching this test; logging out comes last."""
    urls = sorted({_concrete(p, values) for p in _walk(get_resolver().url_patterns)}, key=lambda u: "logout" in u)
    for url in urls:
        resolve(url)  # raises if the route's parameters were not filled in right
    return urls
