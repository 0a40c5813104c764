from django.http import JsonResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request):
    """Liveness probe for nginx, compose and bin/serve checks."""
    return JsonResponse({"ok": True})
