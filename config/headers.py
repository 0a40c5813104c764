"""The Content-Security-Policy header, on every response Django sends (nginx serves
only /static/ itself). The screens load their scripts and styles from /static/ and
build the page with DOM calls, so no inline script, style or handler is needed: an
injected one (a guest's name that slipped past escaping) would not run."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response
