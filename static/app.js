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

// The rubber page's and a bidding game's "keep the screen on" toggle (here rather than in a
// file of its own: one script fewer on the rubber page's first visit, docs/performance.md): a Screen Wake Lock held while the page is
// visible, taken again when it comes back, and the toggle remembered across the page loads
// that every recorded hand makes. Every sentence shown comes from the page, in its language.
(function () {
  "use strict";

  var box = document.querySelector("[data-wake-lock]");
  if (!box) {
    return;
  }
  var button = box.querySelector("button");
  var status = box.querySelector("[data-wake-status]");
  var missing = box.querySelector("[data-wake-missing]");
  var STORED = "sueca.wake-lock";

  if (!("wakeLock" in navigator)) {
    missing.hidden = false;
    return;
  }
  button.hidden = false;

  var lock = null;
  var asking = false;

  function wanted() {
    try {
      return window.localStorage.getItem(STORED) === "on";
    } catch (error) {
      return button.getAttribute("aria-pressed") === "true";
    }
  }

  function remember(on) {
    try {
      if (on) {
        window.localStorage.setItem(STORED, "on");
      } else {
        window.localStorage.removeItem(STORED);
      }
    } catch (error) {
      // Private mode: the toggle lasts as long as the page.
    }
  }

  function say(text) {
    status.textContent = text;
  }

  function acquire() {
    if (lock || asking || document.visibilityState !== "visible") {
      return;
    }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      if (!wanted()) {
        sentinel.release();
        return;
      }
      lock = sentinel;
      button.setAttribute("aria-pressed", "true");
      say(box.getAttribute("data-on"));
      sentinel.addEventListener("release", function () {
        lock = null;
        // Released by the browser (the page hidden, the battery low): said until it is back.
        if (wanted()) {
          say(box.getAttribute("data-paused"));
        }
      });
    }, function (error) {
      asking = false;
      lock = null;
      button.setAttribute("aria-pressed", "false");
      remember(false);
      var reason = (error && (error.message || error.name)) || "?";
      say(box.getAttribute("data-refused").replace("{reason}", reason));
    });
  }

  button.addEventListener("click", function () {
    if (button.getAttribute("aria-pressed") === "true") {
      remember(false);
      button.setAttribute("aria-pressed", "false");
      say("");
      if (lock) {
        lock.release();
        lock = null;
      }
    } else {
      remember(true);
      button.setAttribute("aria-pressed", "true");
      acquire();
    }
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wanted()) {
      acquire();
    }
  });

  if (wanted()) {
    button.setAttribute("aria-pressed", "true");
    acquire();
  }
})();

// The panel that stays at the bottom of a phone's screen while a hand is entered covers nothing
// that must stay in sight (data-in-view: the seats, whose deal it is): where the two do not fit
// one screen (a small phone, long names, a pending carry), the panel follows the score in the
// page instead (docs/decisions/screens.md, "The panel and long names").
(function () {
  "use strict";

  function place() {
    var table = document.querySelector(".at-the-table");
    var kept = table && table.querySelector("[data-in-view]");
    var sheet = table && table.querySelector(".thumb-sheet");
    if (!kept || !sheet) return;
    table.classList.remove("sheet-in-flow");
    if (getComputedStyle(sheet).position !== "sticky") return;
    var bottom = kept.getBoundingClientRect().bottom + window.scrollY;
    if (bottom > window.innerHeight - sheet.getBoundingClientRect().height) {
      table.classList.add("sheet-in-flow");
    }
  }

  place();
  window.addEventListener("resize", place);
  document.addEventListener("sueca:page", place);
  // Whatever grows above the seats (the network's note, the hands waiting) is placed again.
  var main = document.querySelector("main");
  if (main && window.ResizeObserver) {
    new ResizeObserver(function () { place(); }).observe(main);
  }
})();
