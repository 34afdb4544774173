// Scorekeeper's small enhancements. The pages work without this file;
// no rule of any game is written here (limits and sums come from the server).
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // Stepper: − / + move the select next to them one option, skipping
  // disabled ones (e.g. the Oh Hell dealer's forbidden bid).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var select = document.getElementById(button.getAttribute("aria-controls"));
    if (!select) return;
    var step = Number(button.dataset.step);
    var i = select.selectedIndex;
    do { i += step; } while (i > 0 && i < select.options.length && select.options[i].disabled);
    if (i < 1 || i >= select.options.length) return;  // option 0 is the blank one
    select.selectedIndex = i;
    select.dataset.touched = "1";
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A group whose values add up to a known total (tricks): once all but the
  // last are given, fill in the last, unless the user set it by hand.
  document.addEventListener("change", function (event) {
    var target = event.target;
    var group = target.closest("[data-sum-to]");
    if (!group) return;
    if (event.isTrusted) target.dataset.touched = "1";  // chosen by hand
    var auto = group.querySelector("[data-auto]");
    if (!auto || auto === target || auto.dataset.touched) return;
    var total = Number(group.dataset.sumTo), sum = 0, missing = false;
    group.querySelectorAll("select").forEach(function (s) {
      if (s === auto) return;
      if (s.value === "" || isNaN(Number(s.value))) missing = true; else sum += Number(s.value);
    });
    if (missing) return;
    var rest = String(total - sum);
    if (Array.prototype.some.call(auto.options, function (o) { return o.value === rest; })) {
      auto.value = rest;
      auto.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // The hook: the server's preview says which bid the dealer may not make.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("select[data-forbidden-by-hook]").forEach(function (s) {
      s.removeAttribute("data-forbidden-by-hook");
      Array.prototype.forEach.call(s.options, function (o) { o.disabled = false; });
    });
    var info = document.getElementById("hook-info");
    if (!info) return;
    var select = document.querySelector('select[name="' + info.dataset.input + '"]');
    if (!select) return;
    select.setAttribute("data-forbidden-by-hook", "1");
    // A bid already chosen stays selectable (a disabled option would not be
    // sent, and the server would then say the bid is missing instead of
    // naming the hook); the preview shows the hook message for it.
    Array.prototype.forEach.call(select.options, function (o) {
      if (o.value === info.dataset.forbidden && !o.selected) o.disabled = true;
    });
  });

  // Failed requests must never look like nothing happened.
  var banner = function (text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
    if (text) el.scrollIntoView({ block: "nearest" });
  };
  document.addEventListener("htmx:sendError", function (event) {
    // A save is kept on the phone and sent later (offline.js says so); anything else can wait.
    if (window.ScorekeeperOffline && window.ScorekeeperOffline.takes(event)) return;
    banner("No connection at the moment. What you save is kept on this phone and sent when the connection is back.");
  });
  window.addEventListener("online", function () { banner(""); });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    // A refusal in words (400: the form was out of date) is shown as it is.
    var words = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0 ? xhr.responseText : "";
    banner(words || "The server could not save this (error " + xhr.status + "). Your entry is still in the form; try again.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) banner("");
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  // Keep the screen awake while a score sheet is open.
  var lock = null;
  var wantLock = function () { return document.querySelector("[data-wake-lock]"); };
  var requestLock = function () {
    if (!("wakeLock" in navigator) || !wantLock() || document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* not allowed (battery saver): nothing to do */ });
  };
  document.addEventListener("visibilitychange", requestLock);
  document.addEventListener("DOMContentLoaded", requestLock);
  document.addEventListener("htmx:afterSettle", requestLock);
})();
