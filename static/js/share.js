// The share page's Copy and Share buttons (templates/access/share.html,
// docs/page-contract.md "Sharing a link"). Each box names the element that
// holds its link (data-share-link) and carries the words to say; the script
// has none of its own. Without this file the link is still there in full,
// to select and copy by hand, and its QR code to scan.
(function () {
  "use strict";

  var linkOf = function (box) { return document.getElementById(box.dataset.shareLink); };

  var say = function (box, words) {
    var status = box.querySelector(".share-status");
    // Emptied first, so saying the same words again is announced again.
    status.textContent = "";
    window.setTimeout(function () { status.textContent = words; }, 50);
  };

  // Without the Clipboard API (a page served over plain http on the club's
  // network is not a secure context), the old way: select the text and copy
  // the selection; if even that is refused, the link stays selected.
  var copyBySelecting = function (box) {
    var range = document.createRange();
    range.selectNodeContents(linkOf(box));
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    say(box, copied ? box.dataset.copied : box.dataset.copyByHand);
  };

  var copy = function (box) {
    var url = linkOf(box).textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(
        function () { say(box, box.dataset.copied); },
        function () { copyBySelecting(box); }
      );
    } else {
      copyBySelecting(box);
    }
  };

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-share]");
    var box = button && button.closest("[data-share-link]");
    if (!box) return;
    if (button.hasAttribute("data-copy")) {
      copy(box);
    } else {
      // A share the person cancels rejects: nothing to say.
      navigator.share({ title: box.dataset.shareTitle, url: linkOf(box).textContent.trim() }).catch(function () {});
    }
  });

  // Share only where the phone can (the Web Share API: most phones, over HTTPS).
  document.addEventListener("DOMContentLoaded", function () {
    if (typeof navigator.share !== "function") return;
    document.querySelectorAll("[data-share-link] [data-share]").forEach(function (button) { button.hidden = false; });
  });
})();
