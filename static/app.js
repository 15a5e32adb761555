// Every page: install the service worker that keeps the app working offline, and say so when
// the page on screen is the copy last seen rather than the server's answer.
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
    // sent reloads itself once they are, see hands.js).
    if (!document.querySelector("form[data-offline]")) {
      window.addEventListener("online", function () { window.location.reload(); });
    }
  }

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-sw");
  if (!worker || !("serviceWorker" in navigator)) {
    return;
  }
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
})();
