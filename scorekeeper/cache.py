"""The polls' cache without Redis: Django's file cache (one server's
processes share the folder), except that it counts its files on one write
in CULL_CHECK_EVERY instead of on every write. Django's lists the whole
folder at each set to see whether it is full: with the 1,100 entries of a
500-table event that listing cost 10 ms of every saved hand (measured on
this 2-core machine, loaded); once in a hundred writes it costs 0.1 ms on
average, and the folder may hold a hundred files more than MAX_ENTRIES."""

import random

from django.core.cache.backends.filebased import FileBasedCache

CULL_CHECK_EVERY = 100


class FileCache(FileBasedCache):
    def _cull(self):
        if random.randrange(CULL_CHECK_EVERY) == 0:
            super()._cull()
