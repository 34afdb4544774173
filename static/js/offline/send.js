// Scorekeeper's offline queue, part 2 of 3: sending what was kept. Oldest
// first, one tab at a time (Web Locks, or a lease in localStorage), when
// the browser comes back online, on every page load and every few seconds.
// The server answers a repeat of a one-time key with the first result, so
// an entry is stored once however often it is sent; a refusal is kept with
// both versions until someone chooses (sheet.js).
//
// What an answer says is declared by the server, never read off its page:
// the HX-Trigger event "sk-answer" ({outcome, words, bidding, server, held};
// docs/page-contract.md), or for a refusal in words, a text/plain body.
(function () {
  "use strict";
  var Q = window.SkOffline;
  if (!Q || !Q.ready) return;
  var RETRY_MS = 4000;

  var parse = function (html) { return new DOMParser().parseFromString(html, "text/html"); };
  Q.answerOf = function (response) {
    try {
      return JSON.parse(response.headers.get("HX-Trigger") || "{}")["sk-answer"] || {};
    } catch (e) { return {}; }
  };

  // The CSRF token as the page carries it (base.html's hx-headers, or a
  // form's hidden field), never from the browser's store: that one is HttpOnly.
  Q.tokenIn = function (doc) {
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
      .then(function (html) { token = Q.tokenIn(parse(html)); return token; });
  };

  var sending = false;
  // No Web Locks (plain http): a short lease in localStorage keeps two tabs
  // from sending at once. It names the page holding it, which gives it back
  // when it is left: a page left in the middle of a try (a reload) never
  // settles that try, and would hold up the next page for the whole lease.
  var LEASE = "sk-offline-lease", me = Q.randomKey();
  var lease = function () {
    try { return JSON.parse(localStorage.getItem(LEASE) || "{}") || {}; } catch (e) { return {}; }
  };
  var giveBack = function () {
    try { if (lease().by === me) localStorage.removeItem(LEASE); } catch (e) { /* no storage: no lease */ }
  };
  window.addEventListener("pagehide", giveBack);
  var withLock = function (run) {
    if (navigator.locks) {
      return navigator.locks.request("sk-offline-queue", { ifAvailable: true }, function (lock) { return lock ? run() : null; });
    }
    var now = Date.now(), held = lease();
    if (held.by && held.by !== me && held.until > now) return Promise.resolve();
    try { localStorage.setItem(LEASE, JSON.stringify({ by: me, until: now + 20000 })); } catch (e) { /* no storage: send all the same */ }
    return Promise.resolve(run()).finally(giveBack);
  };

  Q.flush = function () {
    if (sending) return Promise.resolve();
    sending = true;
    var sentSome = false;
    return withLock(function () {
      return Q.all().then(function (entries) {
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
            return Q.all().then(function (fresh) { entries = fresh; return loop(0); });
          });
        };
        return loop(0);
      });
    }).catch(function () { /* IndexedDB closed under us: the next try */ }).finally(function () {
      sending = false;
      Q.render(false);
      Q.afterFlush(sentSome);
    });
  };
  Q.schedule = function () { setTimeout(Q.flush, 50); };

  var send = function (entry, retried) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); });
    var headers = { "HX-Request": "true", "X-CSRFToken": token || Q.tokenIn(document) };
    return fetch(entry.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 403 && !retried) {
          // Most often a CSRF token gone stale while the phone slept: renew it and try once more.
          return freshToken(entry).then(function () { return send(entry, true); }, function () { return "later"; });
        }
        if (response.status >= 500 || response.status === 429) return "later";
        if (response.ok) return delivered(entry, response).then(function () { return "sent"; });
        return refused(entry, response).then(function () { return "refused"; });
      }, function () { return "later"; });
  };

  var delivered = function (entry, response) {
    var answer = Q.answerOf(response);
    return response.text().then(function (html) {
      var words = answer.words || Q.say("sentOther", { title: entry.title });
      return Q.drop(entry).then(function () {
        // The phone's later writes for this hand were based on these bids: base them on the bids as saved.
        if ((entry.kind === "bids" || entry.kind === "clear") && answer.bidding) return rebase(entry, answer.bidding);
        return null;
      }).then(function () { Q.delivered(entry, words, html); });
    });
  };

  var rebase = function (sent, stamp) {
    var before = Q.field(sent, "bidding");
    Q.rebaseForm(sent, before, stamp);
    return Q.all().then(function (entries) {
      return Promise.all(entries.filter(function (e) {
        return e.matchId === sent.matchId && e.number === sent.number && Q.field(e, "bidding") === before;
      }).map(function (e) {
        e.fields = e.fields.map(function (f) { return f[0] === "bidding" ? ["bidding", stamp] : f; });
        return Q.save(e);
      }));
    });
  };

  var refused = function (entry, response) {
    var answer = Q.answerOf(response);
    var plain = (response.headers.get("Content-Type") || "").indexOf("text/plain") === 0;
    return response.text().then(function (text) {
      entry.state = "refused";
      entry.refusal = {
        status: response.status,
        message: answer.words || (plain ? text.trim() : "") || Q.say("refusedError", { status: response.status }),
        server: answer.server || "",
        held: Boolean(answer.held),  // the server has that hand: fixing it is a change to it
        at: Date.now(),
      };
      return Q.save(entry).then(function () { Q.refused(entry, plain ? "" : text); });
    });
  };

  Q.startSending = function () {
    window.addEventListener("online", Q.flush);
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") Q.flush(); });
    setInterval(function () { if (navigator.onLine !== false) Q.flush(); }, RETRY_MS);
  };
})();
