from django.contrib import admin
from django.urls import path

from events import views as event_views

urlpatterns = [
    path("healthz", event_views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
