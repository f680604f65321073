"""gRPC clients for Tessera's services in cluster mode (docs/sdks.md).

The generated stubs live under ``tessera_grpc.iam.<service>.v1`` (``*_pb2`` messages,
``*_pb2_grpc`` stubs); :func:`channel` opens a channel that sends the admin API key as the bearer
credential every service port asks for.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional, Sequence, Tuple

import grpc

__all__ = ["channel", "ApiKeyInterceptor"]


class _CallDetails(NamedTuple):
    method: str
    timeout: Optional[float]
    metadata: Optional[Sequence[Tuple[str, str]]]
    credentials: Optional[grpc.CallCredentials]
    wait_for_ready: Optional[bool]
    compression: Optional[grpc.Compression]


class ApiKeyInterceptor(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Adds ``authorization: Bearer <key>`` to every call's metadata.

    An interceptor rather than ``grpc.access_token_call_credentials``: gRPC sends call credentials
    only over TLS (or a local socket), and service ports usually sit on a private network in
    cleartext HTTP/2.
    """

    def __init__(self, api_key: str) -> None:
        if not api_key:
            raise ValueError("api_key is empty")
        self._header = ("authorization", f"Bearer {api_key}")

    def _details(self, details: Any) -> _CallDetails:
        metadata = [m for m in (details.metadata or ()) if m[0] != "authorization"]
        metadata.append(self._header)
        return _CallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(self, continuation: Callable, details: Any, request: Any) -> Any:
        return continuation(self._details(details), request)

    def intercept_unary_stream(self, continuation: Callable, details: Any, request: Any) -> Any:
        return continuation(self._details(details), request)

    def intercept_stream_unary(self, continuation: Callable, details: Any, requests: Any) -> Any:
        return continuation(self._details(details), requests)

    def intercept_stream_stream(self, continuation: Callable, details: Any, requests: Any) -> Any:
        return continuation(self._details(details), requests)


def channel(
    target: str,
    api_key: str,
    *,
    credentials: Optional[grpc.ChannelCredentials] = None,
    options: Optional[Sequence[Tuple[str, Any]]] = None,
) -> grpc.Channel:
    """A channel to one service process (``host:port``) that presents the admin API key.

    Without ``credentials`` the channel is cleartext HTTP/2, as the service ports serve it; pass
    ``grpc.ssl_channel_credentials()`` when a TLS-terminating proxy stands in front of them.
    """
    if credentials is None:
        base = grpc.insecure_channel(target, options=options)
    else:
        base = grpc.secure_channel(target, credentials, options=options)
    return grpc.intercept_channel(base, ApiKeyInterceptor(api_key))
