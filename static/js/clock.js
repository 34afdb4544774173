// The round clock (templates/tournaments/clock.html). The server draws the
// end time and its own time at drawing; the time left is worked out from
// those and Date.now() every second: no drift, and a reload draws it anew.
// Counts again after an htmx swap (the director's desk polls).
(function () {
  "use strict";
  if (window.roundClock) return; // loaded once per page
  window.roundClock = true;
  var offsets = new WeakMap(); // element -> server time minus this device's time

  function shown(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h && m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  function tick() {
    document.querySelectorAll("time[data-clock-ends]").forEach(function (el) {
      if (!offsets.has(el)) offsets.set(el, Date.parse(el.dataset.clockNow) - Date.now());
      var left = Math.max(0, Math.floor((Date.parse(el.dataset.clockEnds) - (Date.now() + offsets.get(el))) / 1000));
      var text = shown(left);
      if (el.textContent !== text) el.textContent = text;
      var box = el.closest("[data-clock]");
      if (!box || left > 0 || box.classList.contains("is-up")) return;
      box.classList.add("is-up");
      var running = box.querySelector("[data-clock-running]"), up = box.querySelector("[data-clock-up]");
      if (running) running.hidden = true;
      if (up) up.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
