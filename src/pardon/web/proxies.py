"""Who a client is behind a reverse proxy (Caddy, nginx): its address, and the scheme and host
it reached the site by.

Only a connection from a trusted proxy (``--trusted-proxy``) is read for them; anyone else's
``X-Forwarded-For`` is ignored, so that no client can choose its own address and pass the
per-address limits.  The chain of ``X-Forwarded-For`` (or, without it, ``Forwarded``) is read
from the right, each entry written by the proxy to its right: the client is the nearest address
that is not itself a trusted proxy.

>>> proxies = TrustedProxies(("10.0.0.0/8",))
>>> proxies.client_of("10.0.0.2", {"x-forwarded-for": "198.51.100.9, 203.0.113.5, 10.1.2.3"})
'203.0.113.5'
>>> proxies.client_of("192.0.2.1", {"x-forwarded-for": "203.0.113.5"})  # not a proxy: its own address
'192.0.2.1'
>>> proxies.client_of("10.0.0.2", {"forwarded": 'for="[2001:db8::7]:4711";proto=https'})
'2001:db8::7'
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable, Mapping
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from pardon.web import errors
from pardon.web.protocol import origin_key, own_origins
from pardon.web.settings import Settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: One element's ``for``, ``proto`` or ``host`` in a ``Forwarded`` header (RFC 7239), quoted or not.
_PAIR: Final = re.compile(r'\s*([A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*)\s*')


class TrustedProxies:
    """The proxies whose forwarding headers are believed: addresses and networks."""

    def __init__(self, entries: Iterable[str]):
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, host: str | None) -> bool:
        address = _address(host)
        return address is not None and any(address in network for network in self.networks)

    def client_of(self, peer: str, headers: Mapping[str, str]) -> str:
        """The client's address for a connection from ``peer`` with these (lower-cased) headers."""
        if not self.trusts(peer):
            return peer
        chain = _forwarded_for(headers)
        client = peer
        for hop in reversed(chain):
            client = hop
            if not self.trusts(hop):
                break
        return client

    def forwarded_site(self, headers: Mapping[str, str]) -> tuple[str | None, str | None]:
        """The scheme and host the client asked for, as the proxy says (None where it says nothing)."""
        scheme = _first(headers.get("x-forwarded-proto"))
        host = _first(headers.get("x-forwarded-host"))
        if "forwarded" in headers and (scheme is None or host is None):
            elements = _forwarded_elements(headers["forwarded"])
            if elements:
                scheme = scheme or elements[0].get("proto")
                host = host or elements[0].get("host")
        if scheme is not None and scheme.lower() not in ("http", "https"):
            scheme = None
        return (scheme.lower() if scheme else None), host


def _address(host: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not host:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _first(value: str | None) -> str | None:
    if value is None:
        return None
    first = value.split(",")[0].strip()
    return first or None


def _forwarded_for(headers: Mapping[str, str]) -> list[str]:
    """The addresses of the chain, leftmost (farthest) first: ``X-Forwarded-For`` if the proxy
    sent it, else the ``for`` of each ``Forwarded`` element."""
    listed = headers.get("x-forwarded-for")
    if listed is not None:
        return [_bare(part) for part in listed.split(",") if part.strip()]
    if "forwarded" in headers:
        return [_bare(element.get("for", "")) for element in _forwarded_elements(headers["forwarded"])]
    return []


def _forwarded_elements(text: str) -> list[dict[str, str]]:
    """The elements of a ``Forwarded`` header, each its parameters by lower-cased name."""
    elements = []
    for element in text.split(","):
        pairs = {}
        for part in element.split(";"):
            found = _PAIR.fullmatch(part)
            if found is not None:
                value = found.group(2)
                pairs[found.group(1).lower()] = value[1:-1].replace('\\"', '"') if value.startswith('"') else value
        elements.append(pairs)
    return elements


def _bare(entry: str) -> str:
    """An address without its port or brackets: ``[2001:db8::1]:443`` -> ``2001:db8::1``.

    >>> _bare(" 192.0.2.4:8080 "), _bare("[2001:db8::1]:443"), _bare("2001:db8::1"), _bare("unknown")
    ('192.0.2.4', '2001:db8::1', '2001:db8::1', 'unknown')
    """
    entry = entry.strip()
    if entry.startswith("["):
        return entry[1:].split("]", 1)[0]
    if entry.count(":") == 1:  # IPv4 with a port (an IPv6 address has several colons)
        return entry.split(":", 1)[0]
    return entry


class ForwardedClient:
    """ASGI middleware: for a connection from a trusted proxy, the scope's client becomes the
    real client, and its scheme, host and server the site's as the proxy reached it, so that
    every limit, log line, link and origin check after it sees what the client sees.  Changed
    in place: uvicorn's access log reads the same scope."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies):
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.proxies:
            peer = scope.get("client")
            if peer is not None and self.proxies.trusts(peer[0]):
                self._rewrite(scope, peer[0])
        await self.app(scope, receive, send)

    def _rewrite(self, scope: Scope, peer: str) -> None:
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        scope["client"] = (self.proxies.client_of(peer, headers), 0)
        scheme, host = self.proxies.forwarded_site(headers)
        secure = scope["scheme"] in ("https", "wss")
        if scheme is not None:
            secure = scheme == "https"
            scope["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" else scheme
        host = host or headers.get("host")
        if host:
            scope["headers"] = [(name, value) for name, value in scope["headers"] if name.lower() != b"host"]
            scope["headers"].append((b"host", host.encode("latin-1")))
            scope["server"] = _host_and_port(host, 443 if secure else 80)
        scope.setdefault("state", {})["behind_proxy"] = True


def _host_and_port(host: str, default_port: int) -> tuple[str, int]:
    """``games.example:8443`` -> ``("games.example", 8443)``; ``[::1]`` -> ``("::1", default)``."""
    name, port = host, default_port
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        if rest.startswith(":") and rest[1:].isdigit():
            port = int(rest[1:])
    elif host.count(":") == 1:
        name, _, given = host.partition(":")
        if given.isdigit():
            port = int(given)
    return name.lower(), port


class HostCheck:
    """ASGI middleware: an HTTP request must name this server in its ``Host`` header, as a
    websocket's ``Origin`` must (:func:`pardon.web.protocol.origin_allowed`): the server's address
    as the connection reached it (for loopback, ``localhost`` too), ``--public-url`` or an
    ``--allow-origin``.  A page of another site whose name was pointed at this server (DNS
    rebinding) is refused 421 and reads nothing.  A trusted proxy's requests are not checked:
    the proxy chose this server for the name."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("state", {}).get("behind_proxy"):
            host = next((value.decode("latin-1") for name, value in scope["headers"] if name == b"host"), None)
            if host is not None and not self._names_this_server(scope, host):
                await _misdirected(send, host)
                return
        await self.app(scope, receive, send)

    def _names_this_server(self, scope: Scope, host: str) -> bool:
        """Whether ``host`` is one of this server's names; its port is not compared (a port
        forwarded to another number still names this server: only a name can be borrowed)."""
        key = origin_key(f"{scope.get('scheme', 'http')}://{host}")
        names = {name for _, name, _ in own_origins(scope.get("server"), self.settings)}
        return key is not None and key[1] in names


async def _misdirected(send: Send, host: str) -> None:
    shown = host[:100]
    message = (
        f"this server does not answer to the name {shown!r}: open it by its address, or start it with "
        f"--public-url http://{shown} (or --allow-origin) to let it answer to that name"
    )
    body = json.dumps({"error": errors.WRONG_HOST, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 421, "headers": headers})
    await send({"type": "http.response.body", "body": body})
