// The service worker: the app shell from a cache, and the pages a phone has seen (home,
// glossary, each rubber) from the network when there is one, else the copy last seen. It never
// touches a write or the JSON API: hands recorded offline wait in the page (hands.js).
"use strict";

// GET /sw.js fills this line in: the shell's files, each under its hashed address as the pages
// name it, and a hash of them (a new hash is a new worker, which keeps the new files).
var CONFIG = {"version": "dev", "shell": []};

var SHELL_CACHE = "sueca-shell-" + CONFIG.version;
var PAGES_CACHE = "sueca-pages";
var PAGES_KEPT = 40;
var SCOPE = new URL(self.registration.scope);
var SHELL_PATHS = CONFIG.shell.map(function (address) {
  return new URL(address, SCOPE).pathname;
});

function pagePath(url) {
  // The pages worth keeping, relative to the scope: "", "glossary", "r/<id>", "b/<id>".
  if (url.origin !== SCOPE.origin || url.pathname.indexOf(SCOPE.pathname) !== 0) {
    return false;
  }
  var path = url.pathname.slice(SCOPE.pathname.length);
  return path === "" || path === "glossary" || /^[rb]\/[A-Za-z0-9_-]{1,43}$/.test(path);
}

function pageKey(url) {
  // One copy per page: "?points=75&team=0" prefills the form, it is not another page.
  return url.origin + url.pathname;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) {
      return cache.addAll(CONFIG.shell.map(function (path) {
        return new Request(path, { cache: "reload" });
      }));
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("sueca-shell-") === 0 && name !== SHELL_CACHE;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

function keep(key, response) {
  // Only a page the server answered in full; never a redirect or an error page.
  if (!response.ok || response.redirected || response.type !== "basic") {
    return Promise.resolve();
  }
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.put(key, response).then(function () {
      return cache.keys();
    }).then(function (keys) {
      // Oldest first: forget the pages seen longest ago.
      return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map(function (old) {
        return cache.delete(old);
      }));
    });
  });
}

function lastSeen(key) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(key);
  }).then(function (copy) {
    if (!copy) {
      return Response.error();
    }
    // Mark the copy so the page can say it is the last one seen, not the live score.
    return copy.text().then(function (html) {
      return new Response(html.replace("<html ", "<html data-offline-copy "), {
        status: copy.status,
        statusText: copy.statusText,
        headers: copy.headers
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return; // a write always goes to the server, or fails where the page can see it
  }
  var url = new URL(request.url);
  if (url.origin !== SCOPE.origin) {
    return;
  }
  if (SHELL_PATHS.indexOf(url.pathname) !== -1) {
    // The very file the page names (its hash in the query); a page of a newer release names
    // newer files, fetched. Only offline does any copy of the file do, rather than none.
    event.respondWith(
      caches.match(request, { cacheName: SHELL_CACHE }).then(function (hit) {
        return hit || fetch(request).catch(function () {
          return caches.match(request, { cacheName: SHELL_CACHE, ignoreSearch: true }).then(
            function (older) {
              return older || Response.error();
            }
          );
        });
      })
    );
    return;
  }
  if (request.mode === "navigate" && pagePath(url)) {
    var key = pageKey(url);
    event.respondWith(
      fetch(request).then(function (response) {
        event.waitUntil(keep(key, response.clone()));
        return response;
      }, function () {
        return lastSeen(key);
      })
    );
  }
});

// A page opened before this worker took charge asks to be kept too.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep-page" || typeof data.url !== "string") {
    return;
  }
  var url = new URL(data.url, SCOPE);
  if (!pagePath(url)) {
    return;
  }
  event.waitUntil(
    fetch(pageKey(url), { credentials: "same-origin" }).then(function (response) {
      return keep(pageKey(url), response);
    }, function () {})
  );
});
