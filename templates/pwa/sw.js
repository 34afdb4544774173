// Scorekeeper's service worker (drawn by scorekeeper/installable.py; served
// as /sw.js so that its scope is the whole site). It keeps the static files
// and the last copy of every score sheet opened, so that a reload without a
// connection still shows the sheet. Entries saved without a connection are
// kept by the page itself (static/js/offline/), not here: that also works
// where no service worker may run (plain http on a club's network).
"use strict";
const VERSION = "{{ version }}";
const STATIC_CACHE = "sk-static-" + VERSION;
const SHEETS = "sk-sheets-v1";  // shared with offline/sheet.js, which stores the sheet as it stands after a save
const PRECACHE = {{ precache|safe }};
const SHEET_PREFIX = {{ sheet_prefix|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};
const KEEP_STATIC = 2;  // this version's files and the last one's: a sheet kept before a deploy still finds its own
const SHEET = new RegExp("^" + SHEET_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "[0-9]{1,18}/$");

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => {
        const old = keys.filter((k) => k.startsWith("sk-static-") && k !== STATIC_CACHE);
        return Promise.all(old.slice(0, Math.max(0, old.length - (KEEP_STATIC - 1))).map((k) => caches.delete(k)));
      })
      .then(() => self.clients.claim())
  );
});

const stamp = (response) => response.text().then((html) => new Response(html, {
  status: 200,
  headers: { "Content-Type": "text/html; charset=utf-8", "X-Stored-At": new Date().toISOString() },
}));

// The copy shown without a connection says so (offline/sheet.js reads this mark).
const asOfflineCopy = (cached) => cached.text().then((html) => {
  const storedAt = cached.headers.get("X-Stored-At") || "";
  return new Response(html.replace("<html ", '<html data-offline-copy="' + storedAt + '" '), {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
});

const sheetFirstFromNetwork = async (request) => {
  const url = new URL(request.url);
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
      const cache = await caches.open(SHEETS);
      await cache.put(key, await stamp(response.clone()));
    }
    return response;
  } catch (error) {
    const cached = await (await caches.open(SHEETS)).match(key);
    if (cached) return asOfflineCopy(cached);
    throw error;
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && SHEET.test(url.pathname)) {
    event.respondWith(sheetFirstFromNetwork(request));
    return;
  }
  // Static files: from the cache when there (their names change with their content in production).
  if (PRECACHE.includes(url.pathname) || url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(
      caches.open(STATIC_CACHE)
        .then((cache) => cache.match(url.pathname))
        .then((hit) => hit || caches.match(url.pathname))  // a file of the version before
        .then((hit) => hit || fetch(request))
    );
  }
});
