from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

USERNAME_MAX = 150


class LoginForm(AuthenticationForm):
    """Django's login form, with the user name's length checked before any
    lookup (a 10,000-character name would otherwise reach the throttling
    log, whose column is shorter)."""

    def clean_username(self):
        username = self.cleaned_data.get("username") or ""
        if len(username) > USERNAME_MAX:
            raise forms.ValidationError(_("That user name is too long."), code="invalid_login")
        return username
