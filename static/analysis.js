// The page "Analisar a mão" while its analysis waits or runs: follow its status (JSON, every 3 s;
// every 10 s while the server does not answer) and show it in place, with a note while no
// analyser is running; once done or failed, load the page once to show the result. Without a script the page
// reloads itself (a meta refresh in <noscript>). While it runs, "about N s left" from how fast
// the cards went since the count was first seen; nothing until it has moved. See
// docs/decisions/analysis.md.
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
  var left = box.querySelector("[data-analysis-left]");
  var since = null; // the first count seen running, and when: {done, at}
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
    estimate(status);
  }

  // The time left at the pace of the cards done since the first count seen: the consumer
  // reports cards done of the total, nothing about time, so none is said before they move.
  function estimate(status) {
    var now = Date.now();
    if (status.status !== "running" || !since || status.done < since.done) {
      since = status.status === "running" ? { done: status.done, at: now } : null;
    }
    var moved = since ? status.done - since.done : 0;
    if (!moved || status.done >= status.total) {
      left.hidden = true;
      return;
    }
    var pace = (now - since.at) / moved; // milliseconds a card
    var seconds = Math.max(1, Math.round(((status.total - status.done) * pace) / 1000));
    left.textContent = left.getAttribute("data-analysis-left").replace("%(seconds)s", seconds);
    left.hidden = false;
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
