"""The address a request came from, for the login throttle (django-axes).

Behind a reverse proxy every request comes from the proxy's address, so
the throttle would count everybody's wrong passwords together. With
``TRUSTED_PROXY_COUNT`` set to the number of proxies in front of the app
(nginx alone: 1), the client's address is read from ``X-Forwarded-For``:
each proxy appends the address it was called from, so the entry that many
places from the right was written by our outermost proxy. Entries left of
it were sent by the client and could say anything, so they are never used.
Unset (0, the default), the header is ignored: without a proxy, any client
could write it."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(value: str) -> str | None:
    value = value.strip()
    if value.startswith("[") and "]" in value:  # [2001:db8::1]:443
        value = value[1 : value.index("]")]
    elif value.count(":") == 1:  # 203.0.113.7:51234
        value = value.split(":")[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < proxies:  # not through all of our proxies: the header is not theirs
        return remote
    return _address(hops[-proxies]) or remote
