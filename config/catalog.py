"""The JavaScript catalogue of one language at its own URL, so a browser and any proxy
can keep it for an hour: the pages load /jsi18n/<lang>.js as a classic script before
their modules, which then find gettext, ngettext and interpolate as globals."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog


def language_catalog(request: HttpRequest, lang: str) -> HttpResponse:
    if lang not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    with translation.override(lang):
        response = JavaScriptCatalog.as_view(domain="djangojs")(request)
    patch_cache_control(response, public=True, max_age=3600)
    return response
