"""The language switch's endpoint, and the JavaScript catalogue of one language at its
own URL, so a browser and any proxy can keep it for an hour: the pages load
/jsi18n/<lang>.js as a classic script before their modules, which then find gettext,
ngettext and interpolate as globals."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import JavaScriptCatalog, set_language


def language_catalog(request: HttpRequest, lang: str) -> HttpResponseBase:
    if lang not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    with translation.override(lang):
        response = JavaScriptCatalog.as_view(domain="djangojs")(request)
    patch_cache_control(response, public=True, max_age=3600)
    return response


@csrf_exempt
def language_switch(request: HttpRequest) -> HttpResponseBase:
    """The switch's form posts here: Django's set_language, but only for a language the
    party is played in (Django's own would take any it has a catalogue of, French
    included, and the pages would then fall back to the browser's).

    CSRF-exempt, so the pages carry no token: a forged post can only change which of our
    three languages a browser reads, and a token in every page would set a cookie on
    every visit and make two answers differ byte for byte (a missing party's page must
    equal an unknown code's: tests/story)."""
    if request.method == "POST" and request.POST.get("language") not in dict(settings.LANGUAGES):
        return HttpResponseRedirect(safe_next(request))
    return set_language(request)


def safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    return target
