// Scorekeeper's offline queue, part 1 of 3: what is kept. When a write
// (bids, a hand, an edit, an undo) cannot reach the server, it is checked
// against what the page declares and, if whole, kept on this phone in
// IndexedDB (idb-keyval) exactly as it was posted: its one-time key, hand
// number, bids in force or version. send.js sends it again; sheet.js shows it.
//
// Everything this reads of the page is declared for it (docs/page-contract.md):
// a form's data-write / data-write-form, data-match, data-sheet, data-number;
// a save button's data-write and data-needs; data-says, data-word and
// data-label on the fields; data-sum-to on a group that adds up. It reads
// no label, no legend, no button's words and no URL pattern.
(function () {
  "use strict";
  var Q = window.SkOffline = { takes: function () { return false; } };
  window.ScorekeeperOffline = Q;  // app.js hands it the saves that could not be sent
  var idb = window.idbKeyval;
  if (!idb || !window.indexedDB) return;
  try { Q.store = idb.createStore("scorekeeper-offline", "queue"); } catch (e) { return; }
  Q.ready = true;
  Q.idb = idb;

  Q.BASIS = ["csrfmiddlewaretoken", "client_key", "number", "bidding", "version"];
  // Every word shown comes from the page (templates/partials/js_texts.html), in its language.
  var texts = (document.getElementById("ui-texts") || { dataset: {} }).dataset;
  Q.say = function (key, values) {
    return (texts[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  };
  Q.el = function (tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.append(c); });
    return node;
  };
  Q.randomKey = function () {  // crypto.getRandomValues works over plain http too
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  };
  Q.field = function (entry, name) {
    var pair = entry.fields.filter(function (f) { return f[0] === name; })[0];
    return pair ? pair[1] : undefined;
  };

  // ------------------------------------------------------- the store

  Q.all = function () {
    return idb.values(Q.store).then(function (entries) {
      return entries.sort(function (a, b) { return a.queuedAt - b.queuedAt; });
    });
  };
  Q.save = function (entry) { return idb.set(entry.id, entry, Q.store); };
  Q.drop = function (entry) { return idb.del(entry.id, Q.store); };

  // ------------------------------------------------ the declared write

  // What a form and its button say this write is: {kind, url, matchId, sheet, number}, or null.
  Q.writeOf = function (form, button) {
    if (!form) return null;
    var kind = (button && button.dataset.write) || form.dataset.write;
    if (!kind || !form.dataset.match) return null;
    var url = (button && (button.getAttribute("hx-post") || button.getAttribute("formaction"))) || form.getAttribute("action") || location.pathname;
    return {
      kind: kind,
      url: new URL(url, location.href).pathname,
      matchId: form.dataset.match,
      sheet: form.dataset.sheet,
      number: Number(form.dataset.number) || null,
    };
  };

  var valueOf = function (pairs, name) {
    var pair = pairs.filter(function (p) { return p[0] === name; })[0];
    return pair ? String(pair[1]) : "";
  };

  // What was chosen, in the page's own words: "Ann bid 4 · Bob bid Nil".
  Q.summarize = function (form, pairs, button) {
    var said = [];
    if (button && button.dataset.says) said.push(button.dataset.says);
    if (!form) return said;
    form.querySelectorAll("[data-says]").forEach(function (node) {
      if (node === button || node.tagName === "BUTTON") return;
      var input = node.tagName === "FIELDSET" ? node.querySelector("input:checked") : node;
      if (!input || (input.type === "checkbox" && !input.checked)) return;
      var value = valueOf(pairs, input.name);
      if (value === "") return;
      var word = input.type === "radio" ? (input.dataset.word || value) : value;
      said.push(node.dataset.says.replace("{}", word));
    });
    return said;
  };

  // What the page already knows is missing or wrong, in words (nothing is
  // kept then): a field the save needs (data-needs), a group whose values
  // must add up (data-sum-to) and do not.
  Q.problems = function (form, pairs, button) {
    var problems = [];
    var needs = button && button.dataset.needs ? button.dataset.needs.split(/\s+/) : [];
    var absent = needs.filter(function (name) { return valueOf(pairs, name) === ""; });
    var missing = [];  // in the order the form shows them (the bidding order)
    form.querySelectorAll("[data-label]").forEach(function (holder) {
      var input = holder.matches("input") ? holder : holder.querySelector("[name]");
      if (input && absent.indexOf(input.name) >= 0 && missing.indexOf(holder.dataset.label) < 0) missing.push(holder.dataset.label);
    });
    if (missing.length) problems.push(Q.say("notKeptMissing", { fields: missing.join(Q.say("listSeparator")) }));
    form.querySelectorAll("[data-sum-to]").forEach(function (group) {
      var names = {};
      group.querySelectorAll("input[type=radio]").forEach(function (r) { names[r.name] = true; });
      var keys = Object.keys(names).filter(function (n) { return needs.indexOf(n) >= 0; });
      if (!keys.length || keys.some(function (n) { return valueOf(pairs, n) === ""; })) return;
      var sum = keys.reduce(function (total, n) { return total + Number(valueOf(pairs, n)); }, 0);
      if (sum !== Number(group.dataset.sumTo)) problems.push(Q.say("notKeptSum", { sum: sum, total: group.dataset.sumTo }));
    });
    return problems;
  };

  Q.titleOf = function (kind, number) {
    return Q.say({ bids: "titleBids", clear: "titleClear", hand: "titleHand", edit: "titleEdit" }[kind] || "titleUndo", { n: number });
  };

  // Keep a write that could not be sent. Resolves with the entry kept.
  Q.keep = function (write, pairs, form, button) {
    var fields = pairs.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; })
      .map(function (p) { return [p[0], String(p[1])]; });
    var entry = {
      id: null, url: write.url, sheet: write.sheet, matchId: write.matchId, kind: write.kind, fields: fields,
      number: write.number, queuedAt: Date.now(), state: "queued",
      title: Q.titleOf(write.kind, write.number), summary: Q.summarize(form, pairs, button),
    };
    // A hand is known by its one-time key: the same hand kept twice is one entry.
    entry.id = entry.kind === "hand" && Q.field(entry, "client_key") ? "hand-" + Q.field(entry, "client_key") : Q.randomKey();
    return Q.save(entry).then(function () { return entry; });
  };
})();
