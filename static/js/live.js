// The live score sheet (templates/matches/live_poll.html, scorekeeper/matches/live.py).
// The sheet asks every few seconds whether the match changed; the server answers 304, or
// the sheet's parts out of band, and decides itself whether the entry panel must be
// replaced (its basis changed). This file only:
//  - tells the poll whether something was typed into the entry form (?typed=1), so that a
//    replaced form can say "what you had chosen here was not saved";
//  - keeps the poll and a save from crossing (no poll while a save is on its way: its
//    answer draws the sheet anyway), and an answer from crossing what was typed meanwhile;
//  - asks the preview again when the form was kept but a past hand changed (bags).
// Without this file the poll still works; the note then never says that typing was lost.
(function () {
  "use strict";
  if (!window.htmx) return;

  var drawn = new WeakMap();  // entry form -> its values as drawn by the server
  var values = function (form) { return new URLSearchParams(new FormData(form)).toString(); };

  htmx.onLoad(function (root) {
    var form = root.id === "entry-form" ? root : root.querySelector && root.querySelector("#entry-form");
    if (form) drawn.set(form, values(form));
  });

  var typed = function () {
    var form = document.getElementById("entry-form");
    if (!form) return false;
    var poll = document.getElementById("changed");
    if (poll && poll.hasAttribute("data-kept")) form.setAttribute("data-typed", "");  // drawn with what was typed
    return form.hasAttribute("data-typed") || (drawn.has(form) && drawn.get(form) !== values(form));
  };

  var isPoll = function (elt) { return elt && elt.id === "changed"; };
  var saving = null;  // the request of a save (or preview: anything else from the entry) on its way

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isPoll(elt)) {
      if (saving && saving.readyState !== 4) event.preventDefault();  // its answer will show the latest
      return;
    }
    if (elt.closest && elt.closest("#entry-form") && elt.id !== "preview") {
      saving = event.detail.xhr;
      var poll = document.getElementById("changed");
      if (poll) htmx.trigger(poll, "htmx:abort");  // an answer drawn before this save would undo its screen
    }
  });

  var asked = new WeakMap();  // poll element -> whether its request said typed=1
  document.addEventListener("htmx:configRequest", function (event) {
    if (!isPoll(event.detail.elt)) return;
    asked.set(event.detail.elt, typed());
    if (asked.get(event.detail.elt)) event.detail.parameters.typed = "1";
  });

  // Typed into the form while the poll was on its way: its answer's note would not say that this
  // was not saved. Leave the page as it is; the next poll (3 s) asks again, saying so.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    var trigger = xhr.getResponseHeader("HX-Trigger");
    var replaces = xhr.status === 200 && trigger !== "sheet-kept" && trigger !== "round-clock";  // the entry panel
    if (isPoll(elt) && replaces && !asked.get(elt) && typed()) event.detail.shouldSwap = false;
  });

  // The poll asks with the tag of what the page shows. An answer that swapped only the round clock
  // (paused, time added) leaves this element in place: it asks from now on with the answer's tag.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    if (!isPoll(elt) || !xhr || xhr.status !== 200 || xhr.getResponseHeader("HX-Trigger") !== "round-clock") return;
    var tag = xhr.getResponseHeader("ETag");
    if (tag) elt.setAttribute("hx-headers", JSON.stringify({"If-None-Match": tag}));
  });

  // The form was kept (only a past hand changed): its preview may count bags that changed.
  document.addEventListener("sheet-kept", function () {
    var form = document.getElementById("entry-form");
    var preview = document.getElementById("preview");
    if (form && preview && preview.children.length) form.dispatchEvent(new Event("change"));  // not bubbling: only its own listeners
  });
})();
