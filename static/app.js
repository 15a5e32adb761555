// Every page: install the service worker that keeps the app working offline, say so when the
// page on screen is the copy last seen rather than the server's answer, and keep a page that
// follows a rubber (or a group's display) up to date.
(function () {
  "use strict";

  var root = document.documentElement;
  if (root.hasAttribute("data-offline-copy")) {
    // The notes of the visit that was kept ("75 → 1 game") are old news now.
    document.querySelectorAll(".note").forEach(function (note) { note.remove(); });
    document.querySelectorAll("[data-offline-copy-note]").forEach(function (note) {
      note.hidden = false;
    });
    // The network is back: the live page instead of the copy (a page with hands waiting to be
    // sent reloads itself once they are, see hands.js; a page that follows asks by itself).
    if (!document.querySelector("form[data-offline], main[data-follow]")) {
      window.addEventListener("online", function () { window.location.reload(); });
    }
  }

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-sw");
  if (worker && "serviceWorker" in navigator) {
    var unkept = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(worker).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      // This page was loaded before the worker was in charge: ask it to keep a copy too.
      if (unkept && registration.active) {
        registration.active.postMessage({ type: "keep-page", url: window.location.href });
      }
    }).catch(function () {
      // No worker (a private window, an old browser): the pages work as before, online only.
    });
  }

  // Following live (docs/decisions/offline-and-live.md): a page whose <main> carries its
  // ETag (data-follow) asks the server again every 5 s with it, answered 304 while nothing
  // changed, and puts the new page's <main> in place of its own when something did. Nothing
  // is asked while the page is hidden or the phone offline; after a failure the wait doubles
  // (10, 20, 40 s, a minute at most) and the page says it shows the last version seen, until
  // an answer comes. Elements marked data-keep stay as they are (their scripts hold them); a
  // page in use (see busy) takes the new one once it is left alone. A link marked
  // data-follow-next that a new page brings (the next rubber at this table) is where the page
  // goes next, in place of its next question: it follows its table, not one rubber. A page
  // that came with the link (a won rubber opened later) stays where the reader put it.
  var main = document.querySelector("main[data-follow]");
  if (!main) {
    return;
  }
  var wait = 5000;
  var last = Date.now();
  var timer;
  var held;
  var next;

  function busy() {
    // In use: a form changed from what the page came with (points typed, a team tapped), a
    // form's disclosure open, or hands waiting to be sent. Not the focus alone: the points box
    // has it as soon as the page opens.
    return document.querySelector("[data-pending]:not([hidden]),main form details[open]") ||
      [].some.call(main.querySelectorAll("form input:not([type=hidden])"), function (box) {
        return box.checked !== box.defaultChecked || box.value !== box.defaultValue;
      });
  }


  function show() {
    var fresh = held.querySelector("main");
    var link = fresh.querySelector("a[data-follow-next]");
    if (link && !main.querySelector("a[data-follow-next]")) {
      next = link.href;
    }
    fresh.querySelectorAll("[data-keep]").forEach(function (element) {
      var kept = main.querySelector("[data-keep=" + element.getAttribute("data-keep") + "]");
      if (kept) {
        element.replaceWith(kept);
      }
    });
    main.querySelectorAll("details[open]").forEach(function (open) {
      // A disclosure the reader opened (the tally) stays open.
      var same = fresh.querySelector("details[class='" + open.className + "']");
      if (same) {
        same.open = true;
      }
    });
    main.replaceWith(fresh);
    main = fresh;
    document.title = held.title;
    document.dispatchEvent(new Event("sueca:page"));
    held = null;
  }

  function later() {
    clearTimeout(timer);
    // The last version seen, while the server cannot be reached (or has not answered a copy).
    main.querySelector("[data-offline-copy-note]").hidden =
      navigator.onLine && wait < 6000 && !root.hasAttribute("data-offline-copy");
    if (!document.hidden && navigator.onLine) {
      // Never sooner than the wait after the last question, whatever woke the page.
      timer = setTimeout(next ? go : ask, last + wait - Date.now());
    }
  }

  function go() {
    last = Date.now();
    window.location.assign(next);
  }

  function ask() {
    last = Date.now();
    fetch(location.href, {
      cache: "no-store",
      headers: { "If-None-Match": '"' + main.getAttribute("data-follow") + '"' }
    }).then(function (response) {
      if (response.status !== 304) {
        if (!response.ok) {
          throw response;
        }
        return response.text().then(function (html) {
          held = new DOMParser().parseFromString(html, "text/html");
        });
      }
    }).then(function () {
      wait = 5000;
      root.removeAttribute("data-offline-copy"); // the server's answer: the copy is current
    }, function () {
      wait = Math.min(wait * 2, 60000);
    }).then(function () {
      if (held && !busy()) {
        show();
      }
      later();
    });
  }

  document.addEventListener("visibilitychange", later);
  window.addEventListener("offline", later);
  window.addEventListener("online", function () {
    // The browser says so a moment before the way is really open: ask a second later.
    wait = 5000;
    last = Math.max(last, Date.now() - 4000);
    later();
  });
  later();
})();
