// The café's TV: a click or a tap anywhere asks the browser for the whole screen (there is no
// control to show; a browser in kiosk or full-screen mode needs none). What does not fit the
// screen is shown a page at a time, each for PAGE_SECONDS, since nobody scrolls a TV
// (docs/decisions/screens.md, "The TV").
(function () {
  "use strict";

  var PAGE_SECONDS = 8;

  document.addEventListener("click", function () {
    var root = document.documentElement;
    if (!document.fullscreenElement && root.requestFullscreen) {
      root.requestFullscreen().catch(function () {
        // Refused (an embedded browser): the page fills the window as it is.
      });
    }
  });

  function overflows(box) {
    return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  }

  function shown(items, from, count) {
    items.forEach(function (item, index) {
      item.hidden = index < from || index >= from + count;
    });
  }

  // The most items of a box that each of its pages shows without any overflowing: the rows of
  // a table (data-tv-pages="rows"), or the cards of the tables (data-tv-pages="cards", each card
  // must show all its text: fewer cards to a page make each one bigger). Found by halving.
  function fits(box, items, kind, count) {
    for (var from = 0; from < items.length; from += count) {
      var size = Math.min(count, items.length - from);
      shown(items, from, size);
      layout(box, size);
      var page = items.slice(from, from + size);
      // Rows too wide for their table are the style's to fix, not a page's (the sweep says so).
      if (kind === "rows" ? box.scrollHeight > box.clientHeight + 1 : page.some(overflows)) {
        return false;
      }
    }
    return true;
  }

  function perPage(box, items, kind) {
    var low = 1;
    var high = items.length;
    while (low < high) {
      var middle = Math.ceil((low + high) / 2);
      if (fits(box, items, kind, middle)) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  function layout(box, count) {
    if (box.getAttribute("data-tv-pages") === "cards") {
      box.style.setProperty("--columns", count > 8 ? 3 : count > 3 ? 2 : 1);
    }
  }

  function paged(box) {
    var kind = box.getAttribute("data-tv-pages");
    var items = Array.prototype.slice.call(
      box.querySelectorAll(kind === "rows" ? "tbody > tr" : ":scope > [data-tv-card]")
    );
    var marker = box.querySelector("[data-tv-page-of]");
    if (marker) marker.textContent = "";
    if (!items.length) return null;
    var count = perPage(box, items, kind);
    var pages = Math.ceil(items.length / count);
    return function (tick) {
      var page = tick % pages;
      shown(items, page * count, count);
      layout(box, Math.min(count, items.length - page * count));
      if (marker) marker.textContent = pages > 1 ? page + 1 + " / " + pages : "";
    };
  }

  // A TV of several screens (data-tv-screens, the tables then a knockout's bracket) shows each
  // in turn, or the one its address names (#bracket): the pages of what a screen shows turn
  // with it, so each comes round.
  function screens() {
    var box = document.querySelector("[data-tv-screens]");
    if (!box) return null;
    var names = box.getAttribute("data-tv-screens").split(" ");
    var pinned = names.indexOf(location.hash.slice(1));
    return function (tick) {
      var name = pinned >= 0 ? names[pinned] : names[tick % names.length];
      box.setAttribute("data-screen", name);
      return pinned >= 0 ? tick : Math.floor(tick / names.length);
    };
  }

  var timer = null;
  function start() {
    var screen = screens();
    if (timer) clearInterval(timer);
    // Every TV shows the same screen and page at the same time, whatever it loaded.
    var tick = function () {
      var now = Math.floor(Date.now() / 1000 / PAGE_SECONDS);
      var page = screen ? screen(now) : now;
      Array.prototype.slice.call(document.querySelectorAll("[data-tv-pages]")).forEach(
        function (box) {
          if (!box.offsetParent) return;  // on a screen not shown now
          var turn = paged(box);
          if (turn) turn(page);
        }
      );
    };
    tick();
    timer = setInterval(tick, PAGE_SECONDS * 1000);
  }

  start();
  document.addEventListener("sueca:page", start);
  window.addEventListener("resize", start);
  window.addEventListener("hashchange", start);
})();
