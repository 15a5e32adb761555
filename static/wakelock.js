// The rubber page's "keep the screen on" toggle: a Screen Wake Lock held while the page is
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
