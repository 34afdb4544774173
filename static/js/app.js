// Scorekeeper's small enhancements. The pages work without this file;
// no rule of any game is written here (limits and sums come from the server).
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // Chips are radio groups. A group whose values add up to a known total
  // (tricks, data-sum-to from the server): once every other player's value
  // is picked, pick the rest in the last one (data-auto), unless the user
  // picked that one by hand.
  var picked = function (group, name) {
    var input = group.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  };
  document.addEventListener("change", function (event) {
    var target = event.target;
    var group = target.closest("[data-sum-to]");
    if (!group || target.type !== "radio") return;
    var auto = group.querySelector("[data-auto]");
    if (!auto) return;
    if (auto.contains(target)) {
      if (event.isTrusted) { auto.dataset.touched = "1"; delete auto.dataset.filled; }  // chosen by hand
      return;
    }
    if (auto.dataset.touched) return;
    var total = Number(group.dataset.sumTo), sum = 0, missing = false, names = {};
    group.querySelectorAll('input[type="radio"]').forEach(function (r) {
      if (!auto.contains(r)) names[r.name] = true;
    });
    Object.keys(names).forEach(function (name) {
      var value = picked(group, name);
      if (value === "" || isNaN(Number(value))) missing = true; else sum += Number(value);
    });
    if (missing) return;
    var rest = auto.querySelector('input[type="radio"][value="' + (total - sum) + '"]');
    if (!rest) return;
    auto.dataset.filled = "1";
    if (rest.checked) return;
    rest.checked = true;
    rest.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The hook: the server's preview says which bid the dealer may not make;
  // that chip is disabled until the preview says otherwise.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("input[data-forbidden-by-hook]").forEach(function (input) {
      input.removeAttribute("data-forbidden-by-hook");
      input.disabled = false;
    });
    var info = document.getElementById("hook-info");
    if (!info) return;
    var input = document.querySelector(
      'input[name="' + info.dataset.input + '"][value="' + info.dataset.forbidden + '"]');
    // A bid already chosen stays selectable (a disabled input would not be
    // sent, and the server would then say the bid is missing instead of
    // naming the hook); the preview shows the hook message for it.
    if (!input || input.checked) return;
    input.setAttribute("data-forbidden-by-hook", "1");
    input.disabled = true;
  });

  // Every word shown comes from the page (templates/partials/js_texts.html), in its language.
  var say = function (key, values) {
    var texts = (document.getElementById("ui-texts") || { dataset: {} }).dataset;
    return (texts[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  };

  // Failed requests must never look like nothing happened.
  var banner = function (text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
    if (text) el.scrollIntoView({ block: "nearest" });
  };
  var isPoll = function (event) { return event.detail.elt && event.detail.elt.id === "changed"; };  // live.js: it tries again by itself
  document.addEventListener("htmx:sendError", function (event) {
    if (isPoll(event)) return;
    // A save is kept on the phone and sent later (offline/sheet.js says so); anything else can wait.
    if (window.ScorekeeperOffline && window.ScorekeeperOffline.takes(event)) return;
    banner(say("noConnection"));
  });
  window.addEventListener("online", function () { banner(""); });
  document.addEventListener("htmx:responseError", function (event) {
    if (isPoll(event)) return;
    var xhr = event.detail.xhr;
    // A refusal in words (400: the form was out of date) is shown as it is.
    var words = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0 ? xhr.responseText : "";
    banner(words || say("serverError", { status: xhr.status }));
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && !isPoll(event)) banner("");  // a poll's 304 says nothing about a save
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  // A table wider than its box says so in words (the history of 5 to 7
  // players): data-scroll-hint names the box.
  var scrollHints = function () {
    document.querySelectorAll("[data-scroll-hint]").forEach(function (hint) {
      var box = document.getElementById(hint.dataset.scrollHint);
      hint.hidden = !box || box.scrollWidth <= box.clientWidth + 1;
    });
  };
  document.addEventListener("DOMContentLoaded", scrollHints);
  document.addEventListener("htmx:afterSettle", scrollHints);
  window.addEventListener("resize", scrollHints);

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
