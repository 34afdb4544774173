// Scorekeeper's small enhancements. The pages work without this file;
// no rule of any game is written here (limits and sums come from the server).
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // Chips are radio groups. A group whose values add up to a known total
  // (tricks, data-sum-to from the server): once every other player's value
  // is picked, pick the rest in the one marked data-auto (the last player at
  // first). A player's group chosen by hand is "touched"; choosing the
  // filled-in one by hand passes the role to the last group not touched, so
  // changing any player's tricks rebalances another (the edit page, where
  // every group starts filled).
  var picked = function (group, name) {
    var input = group.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  };
  var groupsOf = function (sum) {
    return Array.prototype.filter.call(sum.querySelectorAll("fieldset"), function (g) {
      return g.querySelector('input[type="radio"]');
    });
  };
  document.addEventListener("change", function (event) {
    var target = event.target;
    var sum = target.closest("[data-sum-to]");
    if (!sum || target.type !== "radio") return;
    var mine = target.closest("fieldset");
    var auto = sum.querySelector("[data-auto]");
    if (!auto) return;
    if (event.isTrusted) {  // chosen by hand
      mine.dataset.touched = "1";
      if (mine === auto) {
        delete auto.dataset.filled;
        delete auto.dataset.auto;
        var untouched = groupsOf(sum).filter(function (g) { return !g.dataset.touched; });
        if (!untouched.length) return;  // every value chosen by hand: the preview says if they don't add up
        auto = untouched[untouched.length - 1];
        auto.dataset.auto = "";
      }
    }
    if (auto.contains(target) || auto.dataset.touched) return;
    var total = Number(sum.dataset.sumTo), rest = total;
    var others = groupsOf(sum).filter(function (g) { return g !== auto; });
    for (var i = 0; i < others.length; i++) {
      var value = picked(others[i], others[i].querySelector('input[type="radio"]').name);
      if (value === "" || isNaN(Number(value))) return;
      rest -= Number(value);
    }
    var input = auto.querySelector('input[type="radio"][value="' + rest + '"]');
    if (!input) { delete auto.dataset.filled; return; }  // no such value (the others add up to more)
    auto.dataset.filled = "1";
    if (input.checked) return;
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A save that asks first (data-asks-if: a selector; data-asks: the
  // question): when its form holds something the selector finds (Draw
  // Bridge's "Passed out" with a contract chosen), the question shows under
  // the buttons, with its two answers; nothing is sent until the first.
  document.addEventListener("htmx:confirm", function (event) {
    var button = event.detail.elt;
    if (!button || !button.dataset || !button.dataset.asks) return;
    var form = button.form || button.closest("form");
    if (!form || !form.querySelector(button.dataset.asksIf)) return;
    event.preventDefault();
    var row = button.closest(".actions") || button;
    var old = form.querySelector(".asks-first");
    if (old) old.remove();
    var box = document.createElement("div");
    box.className = "banner banner-warning asks-first";
    box.setAttribute("role", "alert");
    var question = document.createElement("p");
    question.textContent = button.dataset.asks;
    var answers = document.createElement("div");
    answers.className = "actions";
    var answer = function (words, primary, run) {
      var b = document.createElement("button");
      b.type = "button";  // not a submit: only the first answer sends, through htmx
      b.className = "button" + (primary ? " button-primary" : "");
      b.textContent = words;
      b.addEventListener("click", function () { box.remove(); run(); });
      answers.append(b);
      return b;
    };
    answer(button.dataset.asksYes, false, function () { event.detail.issueRequest(true); });
    var keep = answer(button.dataset.asksNo, true, function () { button.focus(); });
    box.append(question, answers);
    row.after(box);
    keep.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });
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
