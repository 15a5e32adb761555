// The share page's buttons: the phone's own share sheet (Web Share) where the browser has one,
// and a copy button. Without a script, or where neither works, the link and its QR code are
// there to read, hold and scan. Every sentence comes from the page, in its language.
(function () {
  "use strict";

  document.querySelectorAll("[data-share-link]").forEach(function (box) {
    var url = box.getAttribute("data-url");
    var shareButton = box.querySelector("[data-share]");
    var copyButton = box.querySelector("[data-copy]");
    var status = box.querySelector("[data-share-status]");
    var link = box.querySelector(".link a");
    var data = { title: box.getAttribute("data-title"), url: url };

    if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
      shareButton.hidden = false;
      shareButton.addEventListener("click", function () {
        navigator.share(data).catch(function () {
          // Closed without choosing, or refused: the page stays as it was.
        });
      });
    }

    function copied(done) {
      status.textContent = box.getAttribute(done ? "data-copied" : "data-not-copied");
    }

    // Where the clipboard API is missing (plain http on a LAN address), the old way: select
    // the link and ask the browser to copy the selection.
    function copyBySelection() {
      var range = document.createRange();
      range.selectNodeContents(link);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var done = false;
      try {
        done = document.execCommand("copy");
      } catch (error) {
        done = false;
      }
      copied(done);
    }

    copyButton.hidden = false;
    copyButton.addEventListener("click", function () {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(url).then(function () { copied(true); }, copyBySelection);
      } else {
        copyBySelection();
      }
    });
  });
})();
