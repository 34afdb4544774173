// The round clock (templates/tournaments/clock.html). The server draws the
// end time; the time left is worked out from it and Date.now() every second,
// corrected by how far this device's clock is from the server's: no drift,
// and a reload draws it anew. That correction is measured once per page,
// from the time the page was drawn at (data-clock-now), and kept: a clock
// swapped in later by a poll (a pause, added time; the standings' copy may
// have been drawn a little earlier for another screen) is counted with it.
(function () {
  "use strict";
  if (window.roundClock) return; // loaded once per page
  window.roundClock = true;
  var offset = null; // the server's time minus this device's time, in ms

  function shown(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h && m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  function measure() {
    if (offset !== null) return;
    var el = document.querySelector("[data-clock-now]");
    if (el) offset = Date.parse(el.dataset.clockNow) - Date.now();
  }

  function tick() {
    measure();
    document.querySelectorAll("time[data-clock-ends]").forEach(function (el) {
      var left = Math.max(0, Math.floor((Date.parse(el.dataset.clockEnds) - (Date.now() + (offset || 0))) / 1000));
      var text = shown(left);
      if (el.textContent !== text) el.textContent = text;
      var box = el.closest("[data-clock]");
      if (!box) return;
      var running = box.querySelector("[data-clock-running]"), up = box.querySelector("[data-clock-up]");
      var isUp = left <= 0;
      if (box.classList.contains("is-up") === isUp) return;
      box.classList.toggle("is-up", isUp);
      if (running) running.hidden = isUp;
      if (up) up.hidden = !isUp;
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:oobAfterSwap", tick);
  setInterval(tick, 1000);
})();
