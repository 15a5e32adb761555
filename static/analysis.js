// The page "Analisar a mão" while its analysis waits or runs: follow its status (JSON, every 3 s;
// every 10 s while the server does not answer) and show it in place, with a note while no
// analyser is running; once done or failed, load the page once to show the result. Without a script the page
// reloads itself (a meta refresh in <noscript>). See docs/decisions/analysis.md.
(function () {
  "use strict";

  var box = document.querySelector("[data-analysis-status]");
  if (!box || !window.fetch) {
    return;
  }
  var address = box.getAttribute("data-analysis-status");
  var line = box.querySelector("[data-analysis-progress]");
  var bar = box.querySelector("progress");
  var idle = box.querySelector("[data-analysis-idle]");
  var STEP = 3000;
  var SLOW = 10000;

  function later(delay) {
    window.setTimeout(check, delay);
  }

  function show(status) {
    line.textContent = status.text;
    bar.max = status.total;
    bar.value = status.done;
    bar.textContent = status.done + "/" + status.total;
    idle.hidden = status.consumer;
  }

  function check() {
    fetch(address, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error(response.status);
        }
        return response.json();
      })
      .then(function (status) {
        if (status.status !== "queued" && status.status !== "running") {
          window.location.reload();
          return;
        }
        show(status);
        later(STEP);
      }, function () {
        later(SLOW);
      });
  }

  later(STEP);
})();
