// Big-screen standings (?big=1): scroll slowly through a long list, pause
// at the bottom, jump back to the top, pause, and again. The speed comes
// from data-autoscroll (pixels per second). Nothing moves for people who
// ask for reduced motion, and nothing at all without the attribute.
(function () {
  "use strict";
  var el = document.querySelector("[data-autoscroll]");
  if (!el) return;
  var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var speed = Number(el.getAttribute("data-autoscroll")) || 40;
  var PAUSE = 5000;
  var pos = window.scrollY;
  var last = null;
  var waitUntil = performance.now() + PAUSE;
  var atBottom = false;

  function frame(now) {
    if (last === null) last = now;
    var dt = now - last;
    last = now;
    if (reduce && reduce.matches) { window.requestAnimationFrame(frame); return; }
    var max = document.documentElement.scrollHeight - window.innerHeight;
    if (now >= waitUntil && max > 0) {
      if (atBottom) {
        atBottom = false;
        pos = 0;
        window.scrollTo(0, 0);
        waitUntil = now + PAUSE;
      } else {
        pos = Math.min(max, pos + (speed * dt) / 1000);
        window.scrollTo(0, Math.floor(pos));
        if (pos >= max) { atBottom = true; waitUntil = now + PAUSE; }
      }
    }
    window.requestAnimationFrame(frame);
  }
  // Someone scrolled by hand: carry on from there.
  window.addEventListener("wheel", function () { pos = window.scrollY; waitUntil = performance.now() + PAUSE; }, { passive: true });
  window.requestAnimationFrame(frame);
})();
