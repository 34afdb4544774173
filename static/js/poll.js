// Polls that slow down while nobody is looking (README, "What a poll costs"): every element
// polled with hx-trigger="every Ns" (the sheet's "changed?", the standings, the director's desk).
// htmx keeps its timer; this file lets a tick ask only when it is due:
//  - the page hidden (another tab, the phone's screen off): once a minute; shown again, the
//    next tick asks (within N s);
//  - nothing touched and nothing new: after IDLE_POLLS unchanged answers (304) in a row the
//    interval doubles, up to MAX_FACTOR times N (12 s for the sheet, 20 s for the standings);
//    an answer with news, a touch, a key, a scroll or the page shown again: every tick again.
// Without this file every tick asks, as before.
(function () {
  "use strict";
  if (!window.htmx) return;

  var IDLE_POLLS = 10, MAX_FACTOR = 4, HIDDEN_SECONDS = 60;
  var factor = 1, unchanged = 0;
  var waited = new WeakMap();  // polled element -> ticks let pass since it last asked

  var seconds = function (elt) {  // "every 3s" -> 3; null: not a polled element
    var trigger = elt && elt.getAttribute && elt.getAttribute("hx-trigger");
    var found = trigger && /^\s*every\s+(\d+(?:\.\d+)?)(ms|s)?\s*$/.exec(trigger);
    if (!found) return null;
    return found[2] === "ms" ? Number(found[1]) / 1000 : Number(found[1]);
  };
  var brisk = function () { factor = 1; unchanged = 0; };

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt, every = seconds(elt);
    if (!every) return;
    var due = document.visibilityState === "hidden" ? Math.max(1, Math.round(HIDDEN_SECONDS / every)) : factor;
    var ticks = (waited.get(elt) || 0) + 1;
    if (ticks < due) {
      waited.set(elt, ticks);
      event.preventDefault();  // no request this tick
      return;
    }
    waited.set(elt, 0);
  });

  // The polled element itself: an answer that replaced it is announced on its closest parent left.
  var polled = function (detail) { return (detail.requestConfig && detail.requestConfig.elt) || detail.elt; };

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!seconds(polled(event.detail)) || !xhr) return;
    if (xhr.status === 304) {
      unchanged += 1;
      if (unchanged >= IDLE_POLLS && factor < MAX_FACTOR) { factor *= 2; unchanged = 0; }
    } else if (xhr.status === 200) {
      brisk();
    }
  });

  ["pointerdown", "keydown", "input", "wheel", "touchstart"].forEach(function (name) {
    document.addEventListener(name, brisk, { capture: true, passive: true });
  });
  window.addEventListener("scroll", brisk, { passive: true });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") brisk();
  });
})();
