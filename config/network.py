"""Where the server listens and how the players' phones reach it.

``ADDRESS`` (host:port) is where the server listens: 127.0.0.1:8000 by
default, this computer only. Listening on every address (0.0.0.0 or ::,
``bin/run --lan``) means the phones on the club's Wi-Fi join: then this
computer's own addresses on the network are allowed as hosts by
themselves, and the organiser's pages show the first as "Phones join at
http://192.168.1.20:8000" with a QR code. Standard library only: the same
on Linux, macOS and Windows.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

DEFAULT_ADDRESS = "127.0.0.1:8000"
WILDCARDS = {"0.0.0.0", "::", ""}


def split_address(address: str) -> tuple[str, int]:
    """("0.0.0.0", 8000) from "0.0.0.0:8000"; a bare port listens on this computer only."""
    host, sep, port = address.strip().rpartition(":")
    if not sep:
        host, port = "127.0.0.1", address.strip()
    if not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"ADDRESS must be host:port, e.g. 0.0.0.0:8000, not {address!r}")
    return host.strip("[]"), int(port)


def listens_on_network(address: str) -> bool:
    host, _port = split_address(address)
    return host in WILDCARDS or not ipaddress.ip_address(_literal(host) or "127.0.0.1").is_loopback


def _literal(host: str) -> str | None:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return None
    return host


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks, the one its default
    route uses first. Nothing is sent: connecting a UDP socket only picks
    the address a packet would leave from."""
    found: list[str] = []
    for probe in ("10.254.254.254", "192.168.254.254", "172.31.254.254"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
            except OSError:
                continue
    with contextlib.suppress(OSError):
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in usable:
            usable.append(address)
    return usable


def local_url(address: str) -> str:
    """The address this computer opens the app at: the host it listens on,
    or 127.0.0.1 when it listens on every address."""
    host, port = split_address(address)
    if host in WILDCARDS:
        host = "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def join_url(address: str) -> str:
    """The address the phones open, or "" when the server listens on this computer only."""
    host, port = split_address(address)
    if host in WILDCARDS:
        found = lan_addresses()
        if not found:
            return ""
        host = found[0]
    elif not listens_on_network(address):
        return ""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}" if port != 80 else f"http://{shown}"


def allowed_hosts(address: str) -> list[str]:
    """The hosts a server listening on ``address`` answers to by itself."""
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    host, _port = split_address(address)
    if host in WILDCARDS:
        hosts += lan_addresses()
    elif host not in hosts:
        hosts.append(f"[{host}]" if ":" in host else host)
    return hosts
