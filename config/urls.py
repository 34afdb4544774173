from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language chooser (base.html) posts to i18n/setlang/: Django's set_language, remembered in a cookie.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.urls")),
]

# In the reader's language, reading nothing else of the request (scorekeeper/error_pages.py).
handler400 = "scorekeeper.error_pages.bad_request"
handler403 = "scorekeeper.error_pages.permission_denied"
handler404 = "scorekeeper.error_pages.page_not_found"
handler500 = "scorekeeper.error_pages.server_error"
