// The offline queue of hands, one for the rubber page and the bidding page. Online, the hand form
// posts as it always did (fetched, so that a lost connection is noticed); offline, or when that
// post cannot reach the server, the hand is kept on the phone (localStorage), listed as not yet
// sent, and sent through the JSON API with its idempotency key when the network returns: in
// order, one at a time. A hand the server refuses stays in the list with the server's reason
// until it is discarded, or sent anyway when another phone's hand came first. What differs by
// page (the key it keeps its hands under, the hand its form describes, what the waiting hands
// make of the screen, undo) are its pieces: the rubber's below, the bidding game's in bidding.js
// (loaded before this file, as window.suecaHands).
// Every sentence shown comes from the page, in its language; the server scores everything.
(function () {
  "use strict";

  var form = document.querySelector("form[data-offline]");
  var panel = document.querySelector("[data-pending]");
  if (!form || !panel || !window.fetch) {
    return;
  }
  var list = panel.querySelector("[data-pending-list]");
  var template = panel.querySelector("template[data-pending-item]");
  var alert = panel.querySelector("[data-pending-alert]");
  var offlineNote = panel.querySelector("[data-offline-state]");
  // The worker's copy of the page, shown with no network (until app.js hears the server).
  function isCopy() {
    return document.documentElement.hasAttribute("data-offline-copy");
  }
  var sentNote = panel.querySelector("[data-sent]");
  var page = form.getAttribute("data-page");
  var sending = null;
  var sentAny = false;
  var retry = null;
  // The page's score is the server's at this version: the page's projection shows what the
  // hands sent since and those waiting make of it.
  var pageVersion = Number(field("version").value) || 0;
  var sent = [];
  var own = (window.suecaHands || rubber)(field, checked, text);

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(own.stored) || "[]");
    } catch (error) {
      return [];
    }
  }

  function save(items) {
    if (items.length) {
      window.localStorage.setItem(own.stored, JSON.stringify(items));
    } else {
      window.localStorage.removeItem(own.stored);
    }
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function field(name) {
    return form.querySelector("[name='" + name + "']");
  }

  function checked(name) {
    return form.querySelector("input[name='" + name + "']:checked");
  }

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The rubber page's pieces: its points and buttons, and outlook.js for its projection.
  function rubber() {
    var outlookLoaded = null; // the script element, once asked for

    function withOutlook(then) {
      if (outlookLoaded && outlookLoaded.hasAttribute("data-loaded")) {
        then();
        return;
      }
      if (!outlookLoaded) {
        outlookLoaded = document.createElement("script");
        outlookLoaded.src = form.getAttribute("data-outlook-script");
        outlookLoaded.addEventListener("load", function () {
          outlookLoaded.setAttribute("data-loaded", "");
        });
        document.head.appendChild(outlookLoaded);
      }
      outlookLoaded.addEventListener("load", function () { then(); });
      outlookLoaded.addEventListener("error", function () { then(); });
    }

    // The engine's outlook of this page's tally, kept on the phone for when the network goes.
    function fetchOutlook() {
      if (!navigator.onLine || isCopy()) {
        return;
      }
      var version = pageVersion;
      fetch(page + "/outlook", { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          if (data.version === version) {
            data.page = page;
            // One outlook on the phone, the rubber's on screen: the storage is kept for hands.
            window.localStorage.setItem("sueca.outlook", JSON.stringify(data));
          }
        }).catch(function () {});
    }

    // follow.js put the server's newer page in place: its form is the one on screen (the list
    // of waiting hands is kept as it was).
    document.addEventListener("sueca:page", function () {
      form = document.querySelector("form[data-offline]") || form;
      form.addEventListener("submit", submitted);
      pageVersion = Number(field("version").value) || 0;
      sent = [];
      fetchOutlook();
      show();
    });
    fetchOutlook();

    // Undo needs the server: offline, a hand not yet sent is discarded from the list instead.
    document.addEventListener("submit", function (event) {
      if (event.target.matches("form[data-undo]") && !navigator.onLine) {
        event.preventDefault();
        var undo = event.submitter && event.submitter.closest("details");
        if (undo) {
          undo.open = false; // and the quick buttons it covered are back
        }
        say(panel.getAttribute("data-msg-undo-offline"));
      }
    });

    return {
      stored: "sueca.pending." + form.getAttribute("data-rubber"),

      // The API's body for the hand the form describes, or {error: "..."} for a box left wrong.
      handFrom: function (submitter) {
        var action = submitter && submitter.name === "action" ? submitter.value : "points";
        var body = {};
        var label = (submitter && submitter.getAttribute("aria-label")) || text(submitter);
        if (action === "points") {
          var typed = field("points").value.trim();
          if (!typed) {
            return { error: panel.getAttribute("data-msg-points") };
          }
          if (!/^[0-9]+$/.test(typed) || Number(typed) > 120) { // "0120" is 120, as on the server
            return { error: panel.getAttribute("data-msg-range") };
          }
          var team = checked("team");
          var points = [120 - Number(typed), 120 - Number(typed)];
          points[team ? Number(team.value) : 0] = Number(typed);
          body.points = points;
          label = form.getAttribute("data-team0") + " " + points[0] + " – " + points[1] + " " +
            form.getAttribute("data-team1");
          if (field("all_tricks").checked) {
            body.all_tricks = true;
            label += " · " + text(field("all_tricks").closest("label"));
          }
        } else if (action === "tie") {
          body.points = [60, 60];
        } else if (action === "spoiled") {
          body.spoiled = true;
        } else if (/^revoke-[01]$/.test(action)) {
          body.revoke = Number(action.slice(-1));
        } else if (/^bandeira-[01]$/.test(action)) {
          body.points = [0, 0];
          body.points[Number(action.slice(-1))] = 120;
          body.all_tricks = true;
        } else {
          return { error: panel.getAttribute("data-msg-points") };
        }
        var trump = checked("trump");
        if (trump) {
          body.trump = trump.value;
          label += " · " + text(trump.closest("label"));
        }
        return { body: body, label: label };
      },

      clear: function () {
        field("points").value = "";
        field("all_tricks").checked = false;
        form.querySelectorAll("input[name='trump']").forEach(function (box) { box.checked = false; });
      },

      project: function (items) {
        var detail = { version: pageVersion, sent: sent, items: items };
        window.suecaProjection = detail;
        if (items.length) {
          withOutlook(function () {});
        }
        document.dispatchEvent(new CustomEvent("sueca:projection", { detail: detail }));
      },

      // A revoke or a bandeira (one tap, 2 or 4 games, maybe the rubber) is kept only once
      // confirmed, its outcome from the engine's outlook (outlook.js); without one for this
      // page, the button's own words are asked.
      confirmed: function (submitter, hand, then) {
        var action = submitter && submitter.name === "action" ? submitter.value : "";
        if (!/^(revoke|bandeira)-[01]$/.test(action)) {
          then();
          return;
        }
        withOutlook(function () {
          var detail = {
            version: pageVersion, sent: sent, items: load(), body: hand.body, action: action,
            sentence: ""
          };
          document.dispatchEvent(new CustomEvent("sueca:outcome", { detail: detail }));
          if (window.confirm(detail.sentence || hand.label)) {
            then();
          }
        });
      }
    };
  }

  var lastKept = { body: "", at: 0 };

  function keep(hand) {
    // The same hand again within a moment is a double tap, not a second hand (online, the
    // form's key does this; offline, each kept hand gets a new key).
    var body = JSON.stringify(hand.body);
    if (body === lastKept.body && Date.now() - lastKept.at < 1500) {
      return;
    }
    lastKept = { body: body, at: Date.now() };
    var items = load();
    var key = field("key").value;
    var used = items.some(function (item) { return item.key === key; });
    items.push({
      key: key && !used ? key : newKey(),
      body: hand.body,
      label: hand.label,
      // Only the first hand waiting carries the version its page showed; each later one takes
      // the version the server answers for the hand before it.
      version: items.length ? null : Number(field("version").value) || null,
      state: "waiting",
      error: "",
      code: ""
    });
    save(items);
    field("key").value = newKey();
    own.clear();
    show();
  }

  // The line the server drew for its last hand: while hands wait, it says the newest of them
  // (the one just entered), not the hand before it; once none waits, the server's own line
  // again, its team's name in the team's colour.
  function lastHandLine(items) {
    var line = document.querySelector(".note-hand");
    if (!line) {
      return;
    }
    var newest = items[items.length - 1];
    if (newest) {
      if (!line.servedNodes) {
        line.servedNodes = Array.prototype.slice.call(line.childNodes);
      }
      var waiting = template.content.querySelector("[data-waiting]");
      line.textContent = newest.label + " · " + text(waiting);
    } else if (line.servedNodes) {
      line.replaceChildren.apply(line, line.servedNodes);
      line.servedNodes = null;
    }
  }

  function show() {
    var items = load();
    own.project(items);
    lastHandLine(items);
    list.textContent = "";
    items.forEach(function (item, index) {
      var row = template.content.firstElementChild.cloneNode(true);
      row.setAttribute("data-key", item.key);
      row.classList.add("pending-" + item.state);
      row.querySelector("[data-what]").textContent = item.label;
      row.querySelector("[data-waiting]").hidden = item.state !== "waiting";
      row.querySelector("[data-refused]").hidden = item.state !== "refused";
      var error = row.querySelector("[data-error]");
      error.hidden = !item.error;
      error.textContent = item.error;
      row.querySelector("[data-discard]").hidden = sending === item.key;
      row.querySelector("[data-resend]").hidden = !(index === 0 && item.code === "stale");
      list.appendChild(row);
    });
    // The worker's copy says "Sem rede" at its top already: the list says what waits.
    offlineNote.hidden = navigator.onLine || isCopy();
    // Sent, and nothing more on its way: the score on screen is older than the server's.
    sentNote.hidden = !(sentAny && !items.some(function (item) { return item.state === "waiting"; }));
    panel.hidden = !items.length && navigator.onLine && sentNote.hidden && !alert.textContent;
  }

  function say(message) {
    alert.textContent = message || "";
    show();
  }

  function later(ms) {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, ms);
  }

  // Nothing typed and nothing open (the box has the focus whenever the page opens: not use).
  function idle() {
    return !field("points").value && !document.querySelector("main details[open]");
  }

  function answered(item, status, data) {
    var items = load();
    var index = items.findIndex(function (other) { return other.key === item.key; });
    if (index === -1) {
      return; // discarded in another tab meanwhile
    }
    if (status === 200 || status === 201) {
      sent.push(item.body);
      items.splice(index, 1);
      if (typeof data.version === "number") {
        if (index === 0 && items.length) {
          items[0].version = data.version;
        }
        // This phone's own writes do not make its page stale.
        field("version").value = data.version;
      }
      sentAny = true;
      save(items);
      if (!items.length && idle()) {
        window.location.replace(page); // the new score, from the server
        return;
      }
      show();
      flush();
      return;
    }
    if (status >= 500) {
      later(15000);
      show();
      return;
    }
    items[index].state = "refused";
    items[index].code = data.code || "";
    items[index].error = data.code === "key_reused"
      ? panel.getAttribute("data-msg-key-used")
      : data.error || panel.getAttribute("data-msg-server");
    save(items);
    show();
  }

  function flush() {
    window.clearTimeout(retry);
    if (sending || !navigator.onLine) {
      show();
      return;
    }
    var item = load()[0];
    if (!item || item.state !== "waiting") {
      show(); // a refused hand holds back the ones after it: they stay in order
      return;
    }
    var body = Object.assign({}, item.body, { key: item.key });
    if (item.version) {
      body.version = item.version;
    }
    sending = item.key;
    show();
    fetch(form.getAttribute("data-api"), {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-Edit-Key": form.getAttribute("data-edit-key") },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        sending = null;
        answered(item, response.status, data);
      });
    }, function () {
      sending = null;
      later(15000); // the network is not back after all
      show();
    });
  }

  function submitted(event) {
    if (form.hasAttribute("data-plain")) {
      return;
    }
    var submitter = event.submitter;
    event.preventDefault();
    say("");
    if (!navigator.onLine || load().length) {
      // Offline, or hands already waiting: this one waits behind them.
      var hand = own.handFrom(submitter);
      if (hand.error) {
        say(hand.error);
        return;
      }
      var confirmed = own.confirmed || function (button, kept, then) { then(); };
      confirmed(submitter, hand, function () {
        keep(hand);
        flush();
      });
      return;
    }
    if (form.hasAttribute("data-busy")) {
      return; // a second tap while the first is on its way
    }
    form.setAttribute("data-busy", "");
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    // getAttribute: a control named "action" hides the form's own action property.
    fetch(form.getAttribute("action"), {
      method: "POST", body: data, credentials: "same-origin", redirect: "manual"
    }).then(function (response) {
      if (response.type === "opaqueredirect") {
        window.location.replace(page); // recorded: the page with its summary, as without JS
        return;
      }
      // The server answered with the form and its errors: let the browser post it and show it.
      form.removeAttribute("data-busy");
      form.setAttribute("data-plain", "");
      form.requestSubmit(submitter || undefined);
    }, function () {
      // The post never reached an answer: keep the hand, with the same key, so that a post
      // that did arrive is not recorded twice.
      form.removeAttribute("data-busy");
      var hand = own.handFrom(submitter);
      if (hand.error) {
        say(hand.error);
        return;
      }
      keep(hand);
      later(5000);
    });
  }

  form.addEventListener("submit", submitted);

  list.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    var row = button && button.closest("[data-key]");
    if (!row) {
      return;
    }
    var items = load();
    var index = items.findIndex(function (item) { return item.key === row.getAttribute("data-key"); });
    if (index === -1 || sending === items[index].key) {
      return;
    }
    if (button.hasAttribute("data-discard")) {
      var gone = items.splice(index, 1)[0];
      if (index === 0 && items.length) {
        items[0].version = gone.version;
      }
    } else if (button.hasAttribute("data-resend")) {
      // Recorded anyway, on top of what another phone added: a new write, so a new key.
      items[index] = Object.assign(items[index], {
        key: newKey(), version: null, state: "waiting", error: "", code: "", resent: true
      });
    }
    save(items);
    say("");
    flush();
  });

  window.addEventListener("online", function () {
    if (!load().length && isCopy() && idle()) {
      window.location.replace(page); // nothing to send: the live page instead of the copy
      return;
    }
    flush();
  });
  window.addEventListener("offline", show);
  window.addEventListener("storage", function (event) {
    if (event.key === own.stored) {
      show();
    }
  });
  show();
  if (isCopy()) {
    // The worker's copy: the network failed a moment ago. Waiting hands go when it is back
    // (the online event), or at the next try, not in a request that can only fail.
    later(15000);
  } else {
    flush();
  }
})();
