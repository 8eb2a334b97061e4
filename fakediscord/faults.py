"""Faults on purpose: REST requests answered with an error, or held without an answer.

An injected 500 is answered with Discord's JSON error body. An injected 429 carries what
discord.py needs to retry instead of giving up: ``Retry-After``, the ``X-RateLimit-*``
headers, and a ``Via`` header (a 429 without it looks like a Cloudflare ban, which discord.py
does not retry). A held request stays unanswered, as on a stalled Discord, until released.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import time
from dataclasses import dataclass, field

from aiohttp import web

from fakediscord.model import RequestRecord
from fakediscord.protocol import json_response
from fakediscord.recorder import Recorder

__all__ = ["Faults", "Hold"]


@dataclass
class Fault:
    """Answer ``remaining`` more requests matching ``method`` and ``pattern`` with ``status``."""

    method: str
    pattern: str
    status: int
    remaining: int
    retry_after: float


@dataclass
class Hold:
    """Requests that :meth:`Faults.hold` keeps unanswered, as a stalled Discord would.

    With ``after`` false a held request is not processed until :meth:`release`; with ``after``
    true it is processed (a posted message exists) and only its response waits. A request
    whose client disconnects while held is never processed (``after`` false) and never
    answered.
    """

    method: str
    pattern: str
    after: bool
    remaining: int
    held: list[RequestRecord] = field(default_factory=list)
    abandoned: list[RequestRecord] = field(default_factory=list)
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _closing: bool = False

    def release(self) -> None:
        """Let held and future matching requests go on."""
        self._released.set()


class Faults:
    """The injected faults and holds, consumed in the order they were added."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._faults: list[Fault] = []
        self._holds: list[Hold] = []

    def release_all(self) -> None:
        """Release every hold for shutdown: requests still held are abandoned."""
        for hold in self._holds:
            hold._closing = True
            hold.release()

    def inject(
        self,
        method: str,
        path: str,
        *,
        status: int = 500,
        count: int = 1,
        retry_after: float = 0.05,
    ) -> None:
        """Answer the next ``count`` requests matching ``method`` ("*" for any) and the glob
        ``path`` (relative to /api/v10, e.g. "/channels/*/messages") with ``status``:
        500, or 429 with Retry-After ``retry_after`` seconds and rate-limit headers.
        Faults are consumed in the order they were injected."""
        self._faults.append(Fault(method.upper(), path, status, count, retry_after))

    def hold(self, method: str, path: str, *, count: int = 1, after: bool = False) -> Hold:
        """Hold the next ``count`` requests matching ``method`` and the glob ``path`` without
        an answer until the returned :class:`Hold` is released; ``after`` processes them
        first. For killing a client while its request is in flight."""
        hold = Hold(method.upper(), path, after, count)
        self._holds.append(hold)
        return hold

    def take_hold(self, method: str, path: str) -> Hold | None:
        """The first hold with room left matching the request, counted as used."""
        for hold in self._holds:
            if (
                hold.remaining
                and hold.method in ("*", method)
                and fnmatch.fnmatchcase(path, hold.pattern)
            ):
                hold.remaining -= 1
                return hold
        return None

    async def wait_held(self, request: web.Request, path: str, hold: Hold) -> bool:
        """Wait until ``hold`` is released: True, or the client went away: False."""
        record = RequestRecord(request.method, path, 0, request.query_string)
        hold.held.append(record)
        self.recorder.bump()
        while not hold._released.is_set():
            transport = request.transport
            if transport is None or transport.is_closing():
                break
            # aiohttp does not cancel a handler when its client disconnects: poll for it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hold._released.wait(), 0.05)
        transport = request.transport
        if hold._closing or transport is None or transport.is_closing():
            hold.abandoned.append(record)
            self.recorder.bump()
            return False
        return True

    @property
    def pending(self) -> int:
        """How many injected fault responses have not been served yet."""
        return sum(f.remaining for f in self._faults)

    def take_fault(self, method: str, path: str) -> web.Response | None:
        """The error answer of the first fault matching the request, counted as served."""
        fault = next(
            (
                f
                for f in self._faults
                if f.remaining
                and f.method in ("*", method)
                and fnmatch.fnmatchcase(path, f.pattern)
            ),
            None,
        )
        if fault is None:
            return None
        fault.remaining -= 1
        if fault.status != 429:
            error = {"code": 0, "message": f"{fault.status}: injected fault"}
            return json_response(error, fault.status)
        wait = fault.retry_after
        # fmt: off
        headers = {
            "Retry-After": str(max(1, round(wait))), "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
            "X-RateLimit-Reset-After": f"{wait:.3f}", "X-RateLimit-Bucket": "injected-fault",
            "X-RateLimit-Scope": "user",
            # discord.py treats a 429 without Via as a Cloudflare ban and does not retry.
            "Via": "1.1 google",
        }
        # fmt: on
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after}
        return json_response({**body, "global": False}, 429, headers)
