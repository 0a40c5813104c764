from django.urls import path
from django.views.generic import TemplateView

from config.catalog import language_catalog, language_switch
from events.web import views as event_views
from printables import views as printable_views
from story import views as story_views

urlpatterns = [
    path("", event_views.home, name="home"),
    path("healthz", event_views.healthz, name="healthz"),
    path("i18n/setlang/", language_switch, name="set_language"),
    path("jsi18n/<str:lang>.js", language_catalog, name="jsi18n"),
    path("api/parties", event_views.party_create_api, name="party-create"),
    path("api/parties/<str:code>/guests", event_views.guest_join_api, name="guest-join"),
    path("host/<str:code>/", event_views.host_page, name="host"),
    path("j/<str:code>/", event_views.join_page, name="join"),
    path("p/<str:code>/", event_views.play_page, name="play"),
    path("screen/<str:code>/", event_views.screen_page, name="screen"),
    path("t/<str:code>/", event_views.tablet_page, name="tablet"),
    path("api/parties/<str:code>/tablets", event_views.tablet_pair_api, name="tablet-pair"),
    path("api/parties/<str:code>/claim", event_views.seat_claim_api, name="seat-claim"),
    path("api/parties/<str:code>/pass", event_views.pass_renew_api, name="party-pass"),
    path("api/parties/<str:code>/result.csv", event_views.party_result_csv, name="party-result-csv"),
    path("qr/<str:code>.svg", event_views.join_qr, name="join-qr"),
    path("printables/<str:game>/deck.pdf", printable_views.handout_download, {"what": "deck"}, name="deck-pdf"),
    path("printables/<str:game>/rules.pdf", printable_views.handout_download, {"what": "rules"}, name="rules-pdf"),
    path(
        "api/parties/<str:code>/printables/<str:kind>.pdf",
        printable_views.party_printables_download,
        name="party-printables",
    ),
    path("story/<str:code>/", story_views.story_page, name="story"),
    path("story/<str:code>/story.json", story_views.story_json, name="story-json"),
    path("story/<str:code>/flow.svg", story_views.story_svg_view, name="story-svg"),
    path(
        "manifest.webmanifest",
        TemplateView.as_view(template_name="manifest.webmanifest", content_type="application/manifest+json"),
        name="manifest",
    ),
]
