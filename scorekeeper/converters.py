"""URL converters: ids are checked where they enter, so a view never sees
a number the database cannot hold (a longer one is simply no such page)."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
