// Registers the service worker (/sw.js, drawn by scorekeeper/installable.py)
// where the browser allows one: HTTPS, or localhost. Over plain http on a
// club's network there is none; the offline queue (offline/*.js) works there
// all the same, only a reload without a connection cannot show the sheet.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.dataset.sw;
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  var register = function () {
    navigator.serviceWorker.register(url, { scope: url.replace(/sw\.js$/, "") }).catch(function () {
      /* refused (private mode, a blocked worker): the page works without it */
    });
  };
  if (document.readyState === "complete") register(); else window.addEventListener("load", register);
})();
