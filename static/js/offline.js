// Scorekeeper's offline queue. When a write (bids, a hand, an edit, an
// undo) cannot reach the server, it is kept on this phone in IndexedDB
// (idb-keyval) exactly as it was posted (its one-time key, hand number,
// bids in force or version), shown on the sheet as not yet sent, and sent
// by itself when the connection is back: on the "online" event, on every
// page load and every few seconds. The server answers a repeat of a
// one-time key with the first result, so an entry is stored once however
// often it is sent. A refusal on the way (another device saved that hand)
// is shown with both versions and the table chooses; nothing is dropped
// without someone saying so.
//
// Works from the page itself, so also over plain http on a club network
// (no service worker, no crypto.randomUUID there). The service worker
// (templates/pwa/sw.js) adds the offline copy of the sheet where it runs.
(function () {
  "use strict";
  var api = { takes: function () { return false; } };
  window.ScorekeeperOffline = api;
  var idb = window.idbKeyval;
  if (!idb || !window.indexedDB) return;
  var store;
  try { store = idb.createStore("scorekeeper-offline", "queue"); } catch (e) { return; }

  var SHEETS = "sk-sheets-v1";  // the service worker's cache of score sheets
  var BASIS = ["csrfmiddlewaretoken", "client_key", "number", "bidding", "version"];
  var WRITE = /\/matches\/([0-9]{1,18})\/(bids\/clear\/|bids\/|hands\/|hands\/([0-9]{1,18})\/edit\/|undo\/)$/;
  var SHEET = /\/matches\/([0-9]{1,18})\/$/;
  var KIND = { "bids/": "bids", "bids/clear/": "clear", "hands/": "hand", "undo/": "undo" };
  var RETRY_MS = 4000;
  var NOTE_KEY = "sk-https-note-dismissed";
  // Every word shown comes from the page (templates/partials/js_texts.html), in its language.
  var texts = (document.getElementById("ui-texts") || { dataset: {} }).dataset;
  var say = function (key, values) {
    return (texts[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  };
  var SENT_KEY = "sk-offline-sent";

  var offlineCopy = document.documentElement.getAttribute("data-offline-copy");
  var sheetMatch = SHEET.exec(location.pathname);
  var here = sheetMatch ? sheetMatch[1] : null;  // the match whose sheet this page is
  var formDirty = false;

  // ------------------------------------------------------------ helpers

  var randomKey = function () {  // crypto.getRandomValues works over plain http too
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  };
  var clean = function (text) { return (text || "").replace(/\s+/g, " ").trim(); };
  var el = function (tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.append(c); });
    return node;
  };
  var clock = function (date) {
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return two(date.getHours()) + ":" + two(date.getMinutes());
  };
  var writeOf = function (path) {
    var m = WRITE.exec(path);
    if (!m) return null;
    return {
      matchId: m[1],
      kind: m[3] ? "edit" : KIND[m[2]],
      edited: m[3] ? Number(m[3]) : null,
      sheet: path.slice(0, path.length - m[2].length),
    };
  };
  var field = function (entry, name) {
    var pair = entry.fields.filter(function (f) { return f[0] === name; })[0];
    return pair ? pair[1] : undefined;
  };
  var parse = function (html) { return new DOMParser().parseFromString(html, "text/html"); };

  // The CSRF token as the page carries it (base.html's hx-headers, or a
  // form's hidden field), never from the browser's store: that one is HttpOnly.
  var tokenIn = function (doc) {
    try {
      var headers = JSON.parse(doc.body.getAttribute("hx-headers") || "{}");
      var key = Object.keys(headers).filter(function (k) { return k.toLowerCase() === "x-csrftoken"; })[0];
      if (key) return headers[key];
    } catch (e) { /* not JSON: look for a form field */ }
    var input = doc.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  };
  var token = null;
  var freshToken = function (entry) {
    return fetch(entry.sheet, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) { token = tokenIn(parse(html)); return token; });
  };

  // ------------------------------------------------------- the store

  var all = function () {
    return idb.values(store).then(function (entries) {
      return entries.sort(function (a, b) { return a.queuedAt - b.queuedAt; });
    });
  };
  var save = function (entry) { return idb.set(entry.id, entry, store); };
  var drop = function (entry) { return idb.del(entry.id, store); };

  // What was typed, in words: "Bids: Ann 4, Bob 5", "How did the deal end? Stock was closed".
  var onScreen = function (node) {  // what a node says on screen: not what only screen readers hear, nor notes
    var copy = node.cloneNode(true);
    copy.querySelectorAll(".visually-hidden, .auto-note").forEach(function (n) { n.remove(); });
    return clean(copy.textContent);
  };
  var labelOf = function (input) {
    var label = input.labels && input.labels[0];
    return label ? onScreen(label) : clean(input.getAttribute("aria-label") || input.name);
  };
  var legendOf = function (fieldset) {
    var legend = fieldset && Array.prototype.filter.call(fieldset.children, function (c) { return c.tagName === "LEGEND"; })[0];
    return legend ? onScreen(legend) : "";
  };
  var describe = function (form, fields) {
    var groups = [], byName = {};
    fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (BASIS.indexOf(name) >= 0 || value === "") return;
      var inputs = form ? Array.prototype.filter.call(form.elements, function (e) { return e.name === name; }) : [];
      var input = inputs.filter(function (e) { return (e.type === "radio" || e.type === "checkbox") && e.value === value; })[0] || inputs[0];
      var own = input && input.closest("fieldset");
      // A player's chips (a radio group whose legend is the name) inside the group of all players' (its legend: "Bids, in bidding order").
      var outer = own && own.classList.contains("chips") && own.parentElement ? legendOf(own.parentElement.closest("fieldset")) : "";
      var group = clean((outer || legendOf(own)).split(/[,(]/)[0]);
      var item;
      if (!input) item = name + " " + value;
      else if (outer && input.type === "radio") item = legendOf(own) + " " + labelOf(input);
      else if (input.tagName === "SELECT") {
        var option = Array.prototype.filter.call(input.options, function (o) { return o.value === value; })[0];
        item = labelOf(input) + " " + (option ? clean(option.text) : value);
      } else if (input.type === "radio") item = labelOf(input);
      else if (input.type === "checkbox") item = labelOf(input);
      else item = labelOf(input) + " " + value;
      if (!(group in byName)) { byName[group] = []; groups.push(group); }
      var seat = /_([0-9]+)$/.exec(name);
      byName[group].push({ seat: seat ? Number(seat[1]) : -1, text: item });
    });
    return groups.map(function (g) {
      // Players in seat order, as the list of hands shows them.
      var items = byName[g].sort(function (a, b) { return a.seat - b.seat; }).map(function (i) { return i.text; }).join(", ");
      if (!g) return items;
      return g + (/[?:]$/.test(g) ? " " : ": ") + items;
    });
  };

  var titleOf = function (kind, number) {
    switch (kind) {
      case "bids": return say("titleBids", { n: number });
      case "clear": return say("titleClear", { n: number });
      case "hand": return say("titleHand", { n: number });
      case "edit": return say("titleEdit", { n: number });
      default: return say("titleUndo", { n: number });
    }
  };

  var keep = function (path, pairs, form, button) {
    var write = writeOf(path);
    var fields = pairs.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; })
      .map(function (p) { return [p[0], String(p[1])]; });
    var entry = {
      id: null, url: path, sheet: write.sheet, matchId: write.matchId, kind: write.kind, fields: fields,
      queuedAt: Date.now(), state: "queued",
    };
    var number = write.edited || Number(field(entry, "number")) || null;
    if (!number && button) number = Number((/([0-9]+)/.exec(button.textContent) || [])[1]) || null;
    entry.number = number;
    entry.title = titleOf(entry.kind, number);
    entry.summary = describe(form, fields);
    // A hand is known by its one-time key: the same hand kept twice is one entry.
    entry.id = entry.kind === "hand" && field(entry, "client_key") ? "hand-" + field(entry, "client_key") : randomKey();
    return save(entry).then(function () { return render(true); }).then(function () { schedule(); return entry; });
  };

  // -------------------------------------------------------- sending

  var sending = false;
  var withLock = function (run) {
    if (navigator.locks) {
      return navigator.locks.request("sk-offline-queue", { ifAvailable: true }, function (lock) { return lock ? run() : null; });
    }
    // No Web Locks (plain http): a short lease in localStorage keeps two tabs from sending at once.
    var now = Date.now(), lease = Number(localStorage.getItem("sk-offline-lease") || 0);
    if (lease > now) return Promise.resolve();
    localStorage.setItem("sk-offline-lease", String(now + 20000));
    return Promise.resolve(run()).finally(function () { localStorage.removeItem("sk-offline-lease"); });
  };

  var flush = function () {
    if (sending) return Promise.resolve();
    sending = true;
    var sentSome = false;
    return withLock(function () {
      return all().then(function (entries) {
        var loop = function (i) {
          if (i >= entries.length) return null;
          var entry = entries[i];
          var blocked = entries.some(function (e) {
            return e.matchId === entry.matchId && e.state === "refused" && e.queuedAt < entry.queuedAt;
          });
          if (entry.state !== "queued" || blocked) return loop(i + 1);
          return send(entry, false).then(function (outcome) {
            if (outcome === "later") return null;  // still no connection: the next try goes in order
            if (outcome === "sent") sentSome = true;
            return all().then(function (fresh) { entries = fresh; return loop(0); });
          });
        };
        return loop(0);
      });
    }).catch(function () { /* IndexedDB closed under us: the next try */ }).finally(function () {
      sending = false;
      render(false);
      if (offlineCopy && (sentSome || navigator.onLine)) backOnline();
    });
  };

  var send = function (entry, retried) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); });
    var headers = { "HX-Request": "true", "X-CSRFToken": token || tokenIn(document) };
    return fetch(entry.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 403 && !retried) {
          // Most often a CSRF token gone stale while the phone slept: renew it and try once more.
          return freshToken(entry).then(function () { return send(entry, true); }, function () { return "later"; });
        }
        if (response.status >= 500 || response.status === 429) return "later";
        if (response.ok) return delivered(entry, response).then(function () { return "sent"; });
        return refusedBy(entry, response).then(function () { return "refused"; });
      }, function () { return "later"; });
  };

  var delivered = function (entry, response) {
    return response.text().then(function (html) {
      var doc = parse(html || "<p></p>");
      var notice = doc.querySelector("#entry .banner-success");
      var words = notice ? clean(notice.textContent) : entry.kind === "edit"
        ? say("sentEdit", { n: entry.number })
        : entry.kind === "undo" ? say("sentUndo", { n: entry.number }) : say("sentOther", { title: entry.title });
      return drop(entry).then(function () {
        // The phone's later writes for this hand were based on these bids: base them on the bids as saved.
        var stamp = doc.querySelector("#entry-form input[name=bidding]");
        if ((entry.kind === "bids" || entry.kind === "clear") && stamp) return rebase(entry, stamp.value);
        return null;
      }).then(function () {
        remember(say("sentFromPhone", { words: words }));
        if (entry.matchId !== here || offlineCopy) return;  // a copy is reloaded once everything is sent
        if (formDirty) { sheetOutOfDate = true; showSent(); return; }
        // What an online save would have shown: the answer's fragments, or (edit, undo) the sheet afresh.
        if (doc.getElementById("entry")) swapIn(html); else location.reload();
      });
    });
  };

  var rebase = function (sent, stamp) {
    var before = field(sent, "bidding");
    var form = document.getElementById("entry-form");
    if (form && sent.matchId === here && form.elements.bidding && form.elements.bidding.value === before &&
        form.elements.number && Number(form.elements.number.value) === sent.number) {
      form.elements.bidding.value = stamp;
    }
    return all().then(function (entries) {
      return Promise.all(entries.filter(function (e) {
        return e.matchId === sent.matchId && e.number === sent.number && field(e, "bidding") === before;
      }).map(function (e) {
        e.fields = e.fields.map(function (f) { return f[0] === "bidding" ? ["bidding", stamp] : f; });
        return save(e);
      }));
    });
  };

  var serverRow = function (doc, number) {
    var table = doc.querySelector("#history table");
    if (!table || !number) return "";
    var names = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return clean(th.textContent); });
    var row = Array.prototype.filter.call(table.querySelectorAll("tbody tr"), function (tr) {
      var th = tr.querySelector("th[scope=row]");
      return th && Number(clean(th.textContent)) === number;
    })[0];
    if (!row) return "";
    var cells = Array.prototype.slice.call(row.querySelectorAll("td")).filter(function (td) { return !td.classList.contains("row-actions"); });
    return say("serverRow", { n: number, cells: cells.map(function (td, i) {
      var line = td.querySelector(".entry-line"), pts = td.querySelector(".pts");
      var text = line ? clean(line.textContent) + (pts ? " (" + clean(pts.textContent) + ")" : "") : clean(td.textContent);
      return (names[i + 1] || "") + " " + text;
    }).join(", ") });
  };

  var refusedBy = function (entry, response) {
    var type = response.headers.get("Content-Type") || "";
    return response.text().then(function (text) {
      var message = "", server = "", fragment = "";
      if (type.indexOf("text/plain") === 0) message = clean(text);
      else {
        var doc = parse(text);
        message = Array.prototype.map.call(doc.querySelectorAll(".banner-error, .field-error"), function (n) {
          return clean(n.textContent);
        }).join(" ");
        server = serverRow(doc, entry.number);
        var inForce = doc.querySelectorAll(".bids-in-play li");
        if (!server && (entry.kind === "bids" || entry.kind === "clear") && inForce.length) {
          server = say("bidsInForce", { n: entry.number, bids: Array.prototype.map.call(inForce, function (li) { return clean(li.textContent); }).join(", ") });
        }
        if (doc.querySelector("#entry")) fragment = text;
      }
      var fromSheet = server ? Promise.resolve(server) : fetch(entry.sheet, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.text(); })
        .then(function (html) { return serverRow(parse(html), entry.number); }, function () { return ""; });
      return fromSheet.then(function (row) {
        entry.state = "refused";
        entry.refusal = {
          status: response.status,
          message: message || say("refusedError", { status: response.status }),
          server: row || (entry.kind === "undo" ? "" : say("serverNoHand", { n: entry.number })),
          at: Date.now(),
        };
        return save(entry).then(function () {
          // The sheet as the server now has it, as an online save would have shown it.
          if (entry.matchId === here && !offlineCopy && !formDirty && fragment) swapIn(fragment);
        });
      });
    });
  };

  var ourSwap = false;
  var swapIn = function (html) {
    if (!window.htmx || !document.getElementById("entry")) { location.reload(); return; }
    ourSwap = true;
    try { window.htmx.swap("#entry", html, { swapStyle: "outerHTML" }); } finally { ourSwap = false; }
    formDirty = false;
    render(true);
  };
  var sheetOutOfDate = false;

  var backOnline = function () {
    fetch(location.pathname, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.ok) return all().then(function (entries) {
        if (!entries.some(function (e) { return e.matchId === here && e.state === "queued"; })) location.reload();
      });
    }, function () { /* still offline */ });
  };

  var schedule = function () { setTimeout(flush, 50); };

  // -------------------------------------------- what the page shows

  var remember = function (words) {
    try {
      var list = JSON.parse(sessionStorage.getItem(SENT_KEY) || "[]");
      list.push(words);
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
    if (sheetOutOfDate) {
      box.append(el("p", {}, [el("a", { class: "button", href: location.pathname, text: say("showLatest") })]));
    }
  };
  // Shown once per page: the next write or load starts afresh.
  var clearSent = function () { try { sessionStorage.removeItem(SENT_KEY); } catch (e) { /* nothing kept */ } };

  // Everything this file shows above the page, in a fixed order: the offline copy, the HTTPS note, the queue, what was sent.
  var ORDER = ["offline-copy", "https-note", "offline-queue", "offline-sent"];
  var place = function (node, key) {
    var slot = document.getElementById("offline-slot");
    if (!slot) {
      slot = el("div", { id: "offline-slot", "data-offline-ui": "" });
      var main = document.getElementById("main") || document.body;
      main.prepend(slot);
    }
    node.dataset.slot = key;
    var old = slot.querySelector('[data-slot="' + key + '"]');
    if (old) { old.replaceWith(node); return; }
    var later = Array.prototype.filter.call(slot.children, function (c) { return ORDER.indexOf(c.dataset.slot) > ORDER.indexOf(key); })[0];
    if (later) slot.insertBefore(node, later); else slot.append(node);
  };

  var shown = null;
  var render = function (force) {
    return all().then(function (entries) {
      var signature = JSON.stringify(entries.map(function (e) { return [e.id, e.state]; }));
      if (!force && signature === shown && document.querySelector("[data-offline-ui=queue]")) return;
      shown = signature;
      document.querySelectorAll("[data-offline-ui=queue]").forEach(function (n) { n.remove(); });
      var form = document.getElementById("entry-form");
      if (form) form.hidden = false;
      var queued = entries.filter(function (e) { return e.state === "queued"; });
      var refused = entries.filter(function (e) { return e.state === "refused"; });
      if (!entries.length) return;
      var box = el("div", { id: "offline-queue", class: "offline-queue", "data-offline-ui": "queue" });
      if (queued.length) {
        box.append(el("div", { class: "banner banner-info offline-waiting", role: "status" }, [
          el("p", {}, [el("strong", { text: say("keptOnPhone") })]),
          el("ul", {}, queued.map(function (e) { return el("li", { text: e.title + (e.summary.length ? ": " + e.summary.join(" · ") : "") }); })),
        ]));
      }
      refused.forEach(function (e) { box.append(refusalPanel(e)); });
      place(box, "offline-queue");
      var mine = entries.filter(function (e) { return e.matchId === here; });
      showInHistory(mine);
      // A hand kept on the phone: the form for the next one comes from the server once it is sent.
      var held = mine.filter(function (e) { return e.state === "queued" && (e.kind === "hand" || e.kind === "undo"); })[0];
      if (form && held && form.elements.number) {
        form.hidden = true;
        form.before(el("p", { class: "banner banner-info", "data-offline-ui": "queue", text:
          say("held", { title: held.title }) }));
      }
    });
  };

  var showInHistory = function (entries) {
    var history = document.getElementById("history");
    if (!history || !entries.length) return;
    var body = document.getElementById("history-body");
    var columns = body ? body.closest("table").querySelectorAll("thead th").length : 0;
    entries.slice().reverse().forEach(function (e) {
      var status = e.state === "refused" ? say("notSentRefused") : say("notYetSent");
      var words = e.title + (e.summary.length ? ": " + e.summary.join(" · ") : "");
      if (body) {
        body.prepend(el("tr", { class: "queued", "data-offline-ui": "queue" }, [
          el("th", { scope: "row", text: String(e.number || "") }),
          el("td", { colspan: String(Math.max(columns - 1, 1)) }, [el("strong", { text: status }), document.createTextNode(" · " + words)]),
        ]));
      } else {
        history.querySelector("h2").after(el("p", { class: "queued", "data-offline-ui": "queue" }, [
          el("strong", { text: status }), document.createTextNode(" · " + words),
        ]));
      }
    });
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
    button(say("keepServers"), function () { drop(entry).then(function () { return render(true); }).then(schedule); }, true);
    var onSheet = entry.matchId === here && !offlineCopy;
    if (entry.kind === "hand" || entry.kind === "bids") {
      if (onSheet && document.getElementById("entry-form")) {
        button(say("enterAsNext"), function () { refill(entry); });
      } else {
        actions.append(el("a", { class: "button", href: entry.sheet, text: say("openSheetToEnter") }));
      }
    }
    if (entry.kind !== "undo" && entry.kind !== "clear" && entry.number) {
      actions.append(el("a", { class: "button", href: entry.sheet + "hands/" + entry.number + "/edit/?offline=" + encodeURIComponent(entry.id),
        text: say("enterAsChange", { n: entry.number }) }));
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
      if (BASIS.indexOf(f[0]) >= 0) return;
      Array.prototype.forEach.call(form.elements, function (input) {
        if (input.name !== f[0]) return;
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
    var form = document.getElementById("entry-form");
    drop(entry).then(function () {
      fill(form, entry);
      formDirty = true;
      render(true);
      form.scrollIntoView({ block: "start" });
    });
  };

  // The edit page opened from a refusal: the phone's version filled in.
  var params = new URLSearchParams(location.search);
  var fromRefusal = params.get("offline");
  if (fromRefusal) {
    idb.get(fromRefusal, store).then(function (entry) {
      var form = document.getElementById("edit-form");
      if (!entry || !form) return;
      fill(form, entry);
      form.before(el("p", { class: "banner banner-info", role: "status", "data-offline-ui": "",
        text: say("filledBelow", { n: entry.number }) }));
      form.addEventListener("submit", function () { drop(entry); });
    });
  }

  // ---------------------------------------------- catching failures

  // htmx could not reach the server: keep what it was sending.
  api.takes = function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() !== "post") return false;
    var path = new URL(config.path, location.href).pathname;
    if (!writeOf(path)) return false;
    var button = config.elt;
    var form = button && (button.form || button.closest("form"));
    var pairs = [];
    (config.formData || new FormData()).forEach(function (v, k) { pairs.push([k, v]); });
    // What was typed in the form is now kept: the form no longer holds anything of its own.
    if (form && form.id === "entry-form") formDirty = false;
    keep(path, pairs, form, button).catch(function () {
      // The phone could not keep it (storage full or blocked): say so, the entry is still in the form.
      if (form && form.id === "entry-form") formDirty = true;
      var connection = document.getElementById("connection");
      if (!connection) return;
      connection.textContent = say("notKept");
      connection.hidden = false;
    });
    return true;
  };

  // Edits and undo are plain forms: sent with fetch, so a failure can be kept.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-offline-queue]") || event.defaultPrevented) return;
    var path = new URL(form.action, location.href).pathname;
    if (!writeOf(path)) return;
    event.preventDefault();
    var pairs = [];
    new FormData(form).forEach(function (v, k) { pairs.push([k, v]); });
    var button = event.submitter || form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    var headers = { "HX-Request": "true", "X-CSRFToken": tokenIn(document) };
    fetch(form.action, { method: "POST", body: new URLSearchParams(pairs), headers: headers, credentials: "same-origin" })
      .then(function (response) {
        var next = response.status === 204 && response.headers.get("HX-Location");
        if (next) { location.assign(next); return; }
        form.submit();  // a refusal changes nothing: post it as a plain form for the usual page
      }, function () {
        keep(path, pairs, form, button).then(function () {
          form.before(el("p", { class: "banner banner-info", role: "status", "data-offline-ui": "" }, [
            el("strong", { text: say("keptOnPhone") + " " }),
            el("a", { href: writeOf(path).sheet, text: say("backToSheet") }),
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
    render(true);
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

  var start = function () {
    if (offlineCopy) {
      var when = new Date(offlineCopy);
      var banner = el("p", { class: "banner banner-info offline-copy", role: "status", "data-offline-ui": "",
        text: isNaN(when) ? say("offlineCopy") : say("offlineCopyAt", { time: clock(when) }) });
      place(banner, "offline-copy");
      // The copy's one-time key may have been used since: this phone's next entry gets a new one.
      document.querySelectorAll("#entry-form input[name=client_key]").forEach(function (i) { i.value = randomKey(); });
    }
    httpsNote();
    render(true).then(function () { showSent(); clearSent(); }).then(flush);
    if (navigator.serviceWorker) navigator.serviceWorker.addEventListener("controllerchange", snapshot);
    window.addEventListener("online", flush);
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") flush(); });
    setInterval(function () { if (navigator.onLine !== false) flush(); }, RETRY_MS);
  };

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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
