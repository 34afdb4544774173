from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language chooser (base.html) posts to i18n/setlang/: Django's set_language, remembered in a cookie.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.urls")),
]

# A plain 400 that reads nothing of the request (the default one runs the CSRF check, which reads the form).
handler400 = "scorekeeper.middleware.bad_request"
