// Scorekeeper's offline queue, part 3 of 3: what the page shows, and the
// hooks that hand it the writes. A kept entry is shown above the sheet and
// in the list of hands as not yet sent; bids kept lead on to the hand in
// play as they would online (the bids in large type, the tricks to enter)
// and the tricks then queue behind them; a refused replay offers "Fix this
// hand" first, with both versions. Works from the page itself, so also over
// plain http on a club network (no service worker there); the service worker
// (templates/pwa/sw.js) adds the offline copy of the sheet where it runs.
(function () {
  "use strict";
  var Q = window.SkOffline;
  if (!Q || !Q.ready) return;
  var el = Q.el, say = Q.say;
  var SHEETS = "sk-sheets-v1";  // the service worker's cache of score sheets
  var NOTE_KEY = "sk-https-note-dismissed";
  var SENT_KEY = "sk-offline-sent";
  var offlineCopy = document.documentElement.getAttribute("data-offline-copy");
  var entryForm = function () { return document.getElementById("entry-form"); };
  var here = (function () {  // the match whose sheet this page is (declared on its entry panel)
    var panel = document.querySelector("[data-sheet-of]");
    return panel ? panel.dataset.sheetOf : null;
  })();
  var formDirty = false, sheetOutOfDate = false;
  var clock = function (date) {
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return two(date.getHours()) + ":" + two(date.getMinutes());
  };

  // Everything this file shows above the page, in a fixed order: the offline copy, the HTTPS note, the queue, what was sent.
  var ORDER = ["offline-copy", "https-note", "offline-queue", "offline-sent"];
  var place = function (node, key) {
    var slot = document.getElementById("offline-slot");
    if (!slot) {
      slot = el("div", { id: "offline-slot", "data-offline-ui": "" });
      (document.getElementById("main") || document.body).prepend(slot);
    }
    node.dataset.slot = key;
    var old = slot.querySelector('[data-slot="' + key + '"]');
    if (old) { old.replaceWith(node); return; }
    var later = Array.prototype.filter.call(slot.children, function (c) { return ORDER.indexOf(c.dataset.slot) > ORDER.indexOf(key); })[0];
    if (later) slot.insertBefore(node, later); else slot.append(node);
  };

  // ------------------------------------------------------- the queue

  var shown = null;
  Q.render = function (force) {
    return Q.all().then(function (entries) {
      var signature = JSON.stringify(entries.map(function (e) { return [e.id, e.state]; }));
      if (!force && signature === shown && document.querySelector("[data-offline-ui=queue]")) return;
      shown = signature;
      document.querySelectorAll("[data-offline-ui=queue]").forEach(function (n) { n.remove(); });
      var form = entryForm();
      if (form) form.hidden = false;
      if (!entries.length) return;
      var queued = entries.filter(function (e) { return e.state === "queued"; });
      var box = el("div", { id: "offline-queue", class: "offline-queue", "data-offline-ui": "queue" });
      if (queued.length) {
        box.append(el("div", { class: "banner banner-info offline-waiting", role: "status" }, [
          el("p", {}, [el("strong", { text: say("keptOnPhone") })]),
          el("ul", {}, queued.map(function (e) { return el("li", { text: words(e) }); })),
        ]));
      }
      entries.filter(function (e) { return e.state === "refused"; }).forEach(function (e) { box.append(refusalPanel(e)); });
      place(box, "offline-queue");
      var mine = entries.filter(function (e) { return e.matchId === here; });
      showInHistory(mine);
      if (!form) return;
      var number = Number(form.dataset.number);
      // A hand kept on the phone: the form for the next one comes from the server once it is sent.
      var held = mine.filter(function (e) { return e.state === "queued" && (e.kind === "hand" || e.kind === "undo"); })[0];
      if (held) {
        form.hidden = true;
        form.before(el("p", { class: "banner banner-info", "data-offline-ui": "queue", text: say("held", { title: held.title }) }));
        return;
      }
      var bids = mine.filter(function (e) { return e.state === "queued" && e.kind === "bids" && e.number === number; }).pop();
      if (bids) leadOn(form, bids);
    });
  };
  var words = function (e) { return e.title + (e.summary.length ? ": " + e.summary.join(" · ") : ""); };

  var showInHistory = function (entries) {
    var history = document.getElementById("history");
    if (!history || !entries.length) return;
    var body = document.getElementById("history-body");
    var columns = body ? body.closest("table").querySelectorAll("thead th").length : 0;
    entries.slice().reverse().forEach(function (e) {
      var status = el("strong", { text: e.state === "refused" ? say("notSentRefused") : say("notYetSent") });
      var text = document.createTextNode(" · " + words(e));
      if (body) {
        body.prepend(el("tr", { class: "queued", "data-offline-ui": "queue" }, [
          el("th", { scope: "row", text: String(e.number || "") }),
          el("td", { colspan: String(Math.max(columns - 1, 1)) }, [status, text]),
        ]));
      } else {
        history.querySelector("h2").after(el("p", { class: "queued", "data-offline-ui": "queue" }, [status, text]));
      }
    });
  };

  // Bids kept on this phone: the hand is in play as it would be online.
  // The bids' fields are put away (still sent with the tricks), the bids
  // shown in large type as not yet sent, and the tricks offered to enter.
  var leadOn = function (form, entry) {
    fill(form, entry);
    var bidsButton = form.querySelector('[data-write="bids"]');
    var needs = bidsButton && bidsButton.dataset.needs ? bidsButton.dataset.needs.split(/\s+/) : [];
    Array.prototype.forEach.call(form.children, function (part) {
      if (part.matches("details.more") && part.querySelector('[data-write="hand"]')) {
        part.open = true;
        part.querySelector("summary").hidden = true;
      } else if (part.querySelector("[data-write]") || needs.some(function (name) { return part.querySelector('[name="' + name + '"]'); })) {
        // The bids' fields and every other save (Save bids, Draw Bridge's "Passed out") go away.
        part.hidden = true;  // still sent with the tricks: hidden, not disabled
      }
    });
    var heading = form.querySelector(".next-hand");
    // Five to seven players: packed as the server packs them (the page's chips say so: chips-many).
    var many = form.querySelector(".chip-groups.chips-many") ? " bids-many" : "";
    var shownBids = el("div", { class: "bids-in-play offline-in-play", "data-offline-ui": "queue" }, [
      el("h3", { text: say("inPlayNotSent", { n: entry.number }) }),
      el("ul", { class: "big-bids" + many }, entry.summary.map(function (s) { return el("li", {}, [el("b", { class: "bid", text: s })]); })),
    ]);
    if (heading) heading.after(shownBids); else form.prepend(shownBids);
  };

  var refusalPanel = function (entry) {
    var id = "refused-" + entry.id;
    var panel = el("section", { class: "banner banner-error offline-refused", role: "alert", "aria-labelledby": id }, [
      el("h2", { id: id, text: say("notSaved", { title: entry.title }) }),
      el("p", { text: entry.refusal.message }),
      el("p", {}, [el("strong", { text: say("phoneHad") }), document.createTextNode(entry.summary.join(" · ") || entry.title)]),
      entry.refusal.server ? el("p", {}, [el("strong", { text: say("serverHas") }), document.createTextNode(entry.refusal.server)]) : null,
    ]);
    var actions = el("div", { class: "actions" });
    var button = function (text, run, primary) {
      var b = el("button", { type: "button", class: "button" + (primary ? " button-primary" : ""), text: text });
      b.addEventListener("click", run);
      actions.append(b);
    };
    var link = function (text, href, primary) {
      actions.append(el("a", { class: "button" + (primary ? " button-primary" : ""), href: href, text: text }));
    };
    var editUrl = entry.sheet + "hands/" + entry.number + "/edit/?offline=" + encodeURIComponent(entry.id);
    var onSheet = entry.matchId === here && !offlineCopy && entryForm();
    // "Fix this hand" first: a change to the server's hand if it has one, else this phone's entry again.
    if (entry.kind !== "undo" && entry.kind !== "clear" && entry.number) {
      if (entry.refusal.held && entry.kind !== "bids") link(say("fixThisHand"), editUrl, true);
      else if (onSheet) button(say("fixThisHand"), function () { refill(entry); }, true);
      else link(say("fixThisHand"), entry.sheet, true);
    }
    button(say("keepServers"), function () { Q.drop(entry).then(function () { return Q.render(true); }).then(Q.schedule); });
    if ((entry.kind === "hand" || entry.kind === "bids") && entry.refusal.held) {
      if (onSheet) button(say("enterAsNext"), function () { refill(entry); });
      else link(say("openSheetToEnter"), entry.sheet);
    }
    panel.append(actions);
    return panel;
  };

  // Put the phone's entry into a form (the next hand's, or an edit).
  // Chips are radio groups: the phone's value is checked, and announced (the preview, the tricks
  // filled in as the rest) by a change on it; a group this fills in counts as chosen by hand.
  var fill = function (form, entry) {
    var filled = [];
    entry.fields.forEach(function (f) {
      if (Q.BASIS.indexOf(f[0]) >= 0) return;
      Array.prototype.forEach.call(form.elements, function (input) {
        if (input.name !== f[0] || input.tagName === "BUTTON") return;
        if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === f[1];
        else input.value = f[1];
        if ((input.type === "radio" || input.type === "checkbox") && !input.checked) return;
        var auto = input.closest("[data-auto]");
        if (auto) auto.dataset.touched = "1";
        filled.push(input);
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    form.querySelectorAll("details").forEach(function (d) {
      if (filled.some(function (i) { return i.type !== "hidden" && i.value !== "" && d.contains(i); })) d.open = true;
    });
  };
  var refill = function (entry) {
    var form = entryForm();
    Q.drop(entry).then(function () {
      fill(form, entry);
      formDirty = true;
      Q.render(true);
      form.scrollIntoView({ block: "start" });
    });
  };

  // The edit page opened from a refusal: the phone's version filled in.
  var fromRefusal = new URLSearchParams(location.search).get("offline");
  if (fromRefusal) {
    Q.idb.get(fromRefusal, Q.store).then(function (entry) {
      var form = document.getElementById("edit-form");
      if (!entry || !form) return;
      fill(form, entry);
      form.before(el("p", { class: "banner banner-info", role: "status", "data-offline-ui": "", text: say("filledBelow", { n: entry.number }) }));
      form.addEventListener("submit", function () { Q.drop(entry); });
    });
  }

  // ------------------------------------------- what send.js reports

  Q.delivered = function (entry, words, html) {
    remember(say("sentFromPhone", { words: words }));
    if (entry.matchId !== here || offlineCopy) return;  // a copy is reloaded once everything is sent
    if (formDirty) { sheetOutOfDate = true; showSent(); return; }
    // What an online save would have shown: the answer's fragments, or (edit, undo) the sheet afresh.
    if (html && html.indexOf('id="entry"') >= 0) swapIn(html); else location.reload();
  };
  Q.refused = function (entry, html) {
    // The sheet as the server now has it, as an online save would have shown it.
    if (entry.matchId === here && !offlineCopy && !formDirty && html && html.indexOf('id="entry"') >= 0) swapIn(html);
  };
  Q.rebaseForm = function (sent, before, stamp) {
    var form = entryForm();
    if (form && sent.matchId === here && form.elements.bidding && form.elements.bidding.value === before &&
        Number(form.dataset.number) === sent.number) {
      form.elements.bidding.value = stamp;
    }
  };
  Q.afterFlush = function (sentSome) {
    if (offlineCopy && (sentSome || navigator.onLine)) backOnline();
  };

  var ourSwap = false;
  var swapIn = function (html) {
    if (!window.htmx || !document.getElementById("entry")) { location.reload(); return; }
    ourSwap = true;
    try { window.htmx.swap("#entry", html, { swapStyle: "outerHTML" }); } finally { ourSwap = false; }
    formDirty = false;
    Q.render(true);
  };
  var backOnline = function () {
    fetch(location.pathname, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.ok) return Q.all().then(function (entries) {
        if (!entries.some(function (e) { return e.matchId === here && e.state === "queued"; })) location.reload();
      });
    }, function () { /* still offline */ });
  };

  var remember = function (text) {
    try {
      var list = JSON.parse(sessionStorage.getItem(SENT_KEY) || "[]");
      list.push(text);
      sessionStorage.setItem(SENT_KEY, JSON.stringify(list.slice(-5)));
    } catch (e) { /* private mode: the sheet itself shows it */ }
    showSent();
  };
  var showSent = function () {
    var list;
    try { list = JSON.parse(sessionStorage.getItem(SENT_KEY) || "[]"); } catch (e) { list = []; }
    var box = document.getElementById("offline-sent");
    if (!list.length) { if (box) box.remove(); return; }
    if (!box) {
      box = el("div", { id: "offline-sent", class: "banner banner-success offline-sent", role: "status", "data-offline-ui": "" });
      place(box, "offline-sent");
    }
    box.replaceChildren.apply(box, list.map(function (w) { return el("p", { text: w }); }));
    if (sheetOutOfDate) box.append(el("p", {}, [el("a", { class: "button", href: location.pathname, text: say("showLatest") })]));
  };
  // Shown once per page: the next write or load starts afresh.
  var clearSent = function () { try { sessionStorage.removeItem(SENT_KEY); } catch (e) { /* nothing kept */ } };

  // ---------------------------------------------- catching failures

  // Kept, or refused in words because the page already knows it is not whole.
  var keepOrSay = function (write, pairs, form, button) {
    var problems = Q.problems(form, pairs, button);
    var connection = document.getElementById("connection");
    if (problems.length) {
      if (connection) { connection.textContent = problems.join(" "); connection.hidden = false; }
      return Promise.resolve(null);
    }
    return Q.keep(write, pairs, form, button).then(function (entry) {
      if (connection) connection.hidden = true;
      return Q.render(true).then(function () { Q.schedule(); return entry; });
    });
  };

  // htmx could not reach the server: keep what it was sending.
  Q.takes = function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() !== "post") return false;
    var button = config.elt;
    // Only a save button declares a write (a preview, a poll: nothing to keep).
    if (!button || !button.dataset || !button.dataset.write) return false;
    var form = button.form || button.closest("form");
    var write = Q.writeOf(form, button);
    if (!write) return false;
    var pairs = [];
    (config.formData || new FormData()).forEach(function (v, k) { pairs.push([k, v]); });
    if (form.id === "entry-form") formDirty = false;  // what was typed is now kept: the form holds nothing of its own
    keepOrSay(write, pairs, form, button).then(function (entry) {
      if (!entry && form.id === "entry-form") formDirty = true;
    }, function () {
      // The phone could not keep it (storage full or blocked): say so, the entry is still in the form.
      if (form.id === "entry-form") formDirty = true;
      var connection = document.getElementById("connection");
      if (connection) { connection.textContent = say("notKept"); connection.hidden = false; }
    });
    return true;
  };

  // Edits and undo are plain forms: sent with fetch, so a failure can be kept.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter || form.querySelector("[type=submit]");
    var write = form.matches("form[data-write]") && !event.defaultPrevented ? Q.writeOf(form, null) : null;
    if (!write) return;
    event.preventDefault();
    var pairs = [];
    new FormData(form).forEach(function (v, k) { pairs.push([k, v]); });
    if (button) button.disabled = true;
    var headers = { "HX-Request": "true", "X-CSRFToken": Q.tokenIn(document) };
    fetch(write.url, { method: "POST", body: new URLSearchParams(pairs), headers: headers, credentials: "same-origin" })
      .then(function (response) {
        var next = response.status === 204 && response.headers.get("HX-Location");
        if (next) { location.assign(next); return; }
        form.submit();  // a refusal changes nothing: post it as a plain form for the usual page
      }, function () {
        keepOrSay(write, pairs, form, button).then(function (entry) {
          if (!entry) { if (button) button.disabled = false; return; }  // not whole: fix it, then save again
          form.before(el("p", { class: "banner banner-info", role: "status", "data-offline-ui": "" }, [
            el("strong", { text: say("keptOnPhone") + " " }),
            el("a", { href: write.sheet, text: say("backToSheet") }),
          ]));
        });
      });
  });

  // Logging out: the copies of sheets drawn for this person go (the queue stays: nothing saved is dropped).
  document.addEventListener("submit", function (event) {
    if (event.target.matches("form[action$='/logout/']") && window.caches) caches.delete(SHEETS);
  });
  document.addEventListener("input", function (event) { if (event.isTrusted && event.target.closest("#entry-form")) formDirty = true; });
  document.addEventListener("change", function (event) { if (event.isTrusted && event.target.closest("#entry-form")) formDirty = true; });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "entry") return;
    formDirty = false;
    clearSent();
    if (!ourSwap) { sheetOutOfDate = false; var sent = document.getElementById("offline-sent"); if (sent) sent.remove(); }
    Q.render(true);
  });

  // ----------------------------------- the sheet kept for an offline reload

  var snapshotTimer = null;
  var snapshot = function () {
    if (!here || offlineCopy || !window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    if (document.querySelector("p#changed")) return;  // another device changed it: this copy is behind
    var copy = document.documentElement.cloneNode(true);
    copy.querySelectorAll("[data-offline-ui], .messages, #entry > .banner, #changed > .banner, .htmx-request").forEach(function (n) { n.remove(); });
    var connection = copy.querySelector("#connection");
    if (connection) { connection.hidden = true; connection.textContent = ""; }
    copy.querySelectorAll("form[hidden]").forEach(function (f) { f.hidden = false; });
    var html = "<!doctype html>\n" + copy.outerHTML;
    caches.open(SHEETS).then(function (cache) {
      return cache.put(location.origin + location.pathname, new Response(html, {
        headers: { "Content-Type": "text/html; charset=utf-8", "X-Stored-At": new Date().toISOString() },
      }));
    }).catch(function () { /* no room: the copy the worker stored stays */ });
  };
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.successful && event.detail.successful !== undefined) return;
    clearTimeout(snapshotTimer);
    snapshotTimer = setTimeout(snapshot, 300);
  });

  // ------------------------------------------------------ on load

  // Over plain http at a club address: say once, in words, what works less well.
  var httpsNote = function () {
    if (window.isSecureContext || !document.querySelector("form[action$='/logout/']")) return;
    try { if (localStorage.getItem(NOTE_KEY)) return; } catch (e) { return; }
    var note = el("section", { class: "banner banner-info https-note", "aria-labelledby": "https-note-title", "data-offline-ui": "" }, [
      el("h2", { id: "https-note-title", text: say("httpsTitle") }),
      el("p", { text: say("httpsBody") }),
    ]);
    var ok = el("button", { type: "button", class: "button", text: say("gotIt") });
    ok.addEventListener("click", function () {
      try { localStorage.setItem(NOTE_KEY, "1"); } catch (e) { /* shown again next time */ }
      note.remove();
    });
    note.append(el("div", { class: "actions" }, [ok]));
    place(note, "https-note");
  };

  var start = function () {
    if (offlineCopy) {
      var when = new Date(offlineCopy);
      place(el("p", { class: "banner banner-info offline-copy", role: "status", "data-offline-ui": "",
        text: isNaN(when) ? say("offlineCopy") : say("offlineCopyAt", { time: clock(when) }) }), "offline-copy");
      // The copy's one-time key may have been used since: this phone's next entry gets a new one.
      document.querySelectorAll("#entry-form input[name=client_key]").forEach(function (i) { i.value = Q.randomKey(); });
    }
    httpsNote();
    Q.render(true).then(function () { showSent(); clearSent(); }).then(Q.flush);
    if (navigator.serviceWorker) navigator.serviceWorker.addEventListener("controllerchange", snapshot);
    Q.startSending();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
