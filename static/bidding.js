// Bidding Sueca at the table. A follower's page (the read-only link) asks the JSON API for the
// game every 5 seconds with its ETag and reloads when a hand was written. The scorer's hand
// form posts as it always does (fetched, so that a lost connection is noticed); offline, or when
// that post cannot reach the server, the hand is kept on the phone (localStorage), listed as not
// yet sent, and sent through the JSON API with its idempotency key when the network returns: in
// order, one at a time. A hand the server refuses stays listed with its reason until discarded.
// Every sentence shown comes from the page, in its language; the server scores everything.
(function () {
  "use strict";

  if (!window.fetch || !window.JSON) {
    return;
  }

  var follower = document.querySelector("[data-follow]");
  if (follower) {
    var address = follower.getAttribute("data-follow");
    var version = Number(follower.getAttribute("data-version"));
    var etag = null;
    var ask = function () {
      if (document.hidden || !navigator.onLine) {
        window.setTimeout(ask, 5000);
        return;
      }
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(address, { cache: "no-store", credentials: "same-origin", headers: headers })
        .then(function (response) {
          if (response.status !== 200) {
            return null;
          }
          etag = response.headers.get("ETag");
          return response.json();
        })
        .then(function (data) {
          if (data && data.version !== version) {
            window.location.reload(); // the new hand, from the server
            return;
          }
          window.setTimeout(ask, 5000);
        }, function () {
          window.setTimeout(ask, 5000);
        });
    };
    window.setTimeout(ask, 5000);
  }

  var form = document.querySelector("form[data-offline]");
  var panel = document.querySelector("[data-pending]");
  if (!form || !panel) {
    return;
  }
  var list = panel.querySelector("[data-pending-list]");
  var template = panel.querySelector("template[data-pending-item]");
  var alert = panel.querySelector("[data-pending-alert]");
  var offlineNote = panel.querySelector("[data-offline-state]");
  var STORED = "sueca.bidding.pending." + form.getAttribute("data-game");
  var page = form.getAttribute("data-page");
  var sending = null;
  var retry = null;
  // The engine's outlook of the game (engine/bidding_outlook.py): the page's scores, each
  // outcome's share of the bid by seat, and who deals and bids first in each next hand.
  var outlook = JSON.parse(form.getAttribute("data-outlook") || "null");
  var names = JSON.parse(form.getAttribute("data-names") || "[]");
  var heading = document.querySelector("[data-heading]");
  var seats = document.querySelectorAll(".player-score");
  var dealsTag = document.querySelector(".role-deals");
  var opensTag = document.querySelector(".role-opens");
  var undoPanel = document.querySelector("[data-undo-panel]");
  var undoButton = document.querySelector("[data-undo-button]");
  var undoNote = document.querySelector("[data-undo-note]");
  var undoLabel = undoButton ? undoButton.textContent : "";
  var serverHands = undoPanel ? !undoPanel.hidden : false;

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(STORED) || "[]");
    } catch (error) {
      return [];
    }
  }

  function save(items) {
    if (items.length) {
      window.localStorage.setItem(STORED, JSON.stringify(items));
    } else {
      window.localStorage.removeItem(STORED);
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

  // The API's body for the hand the form describes, or {error: "..."} for a choice left out.
  function handFrom(submitter) {
    var action = submitter && submitter.name === "action" ? submitter.value : "made";
    if (action === "passed") {
      return { body: { passed: true }, label: text(submitter) };
    }
    var bidder = checked("bidder");
    var partner = checked("partner");
    var typed = field("other_bid").value.trim();
    var bid = /^[0-9]{1,3}$/.test(typed) ? Number(typed) : (checked("bid") ? Number(checked("bid").value) : null);
    if (!bidder || !partner || !bid) {
      return { error: panel.getAttribute("data-msg-choose") };
    }
    var body = {
      bidder: Number(bidder.value),
      bid: bid,
      partner: partner.value === "alone" ? Number(bidder.value) : Number(partner.value)
    };
    var points = field("points").value.trim();
    if (/^[0-9]{1,3}$/.test(points)) {
      body.points = Number(points);
    } else if (action === "points") {
      return { error: panel.getAttribute("data-msg-points") };
    }
    if (action === "made" || action === "failed") {
      body.made = action === "made";
    }
    var trump = checked("trump");
    if (trump) {
      body.trump = trump.value;
    }
    var called = field("called").value.trim();
    if (called) {
      body.called = called;
    }
    var label = text(bidder.closest("label")) + " " + bid + " · " + text(partner.closest("label")) +
      " · " + (action === "points" ? body.points : text(submitter));
    return { body: body, label: label };
  }

  function clearForm() {
    form.querySelectorAll("input[type=radio]").forEach(function (box) { box.checked = false; });
    field("other_bid").value = "";
    field("points").value = "";
    field("called").value = "";
  }

  function keep(hand) {
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
      error: ""
    });
    save(items);
    field("key").value = newKey();
    clearForm();
    show();
  }

  function fill(message, values) {
    return message.replace(/\{(\w+)\}/g, function (whole, name) { return values[name]; });
  }

  function signed(points) {
    return points < 0 ? "\u2212" + (-points) : String(points);
  }

  // The hands the page's score walks: those waiting, up to a refused one.
  function waiting(items) {
    var hands = [];
    for (var i = 0; i < items.length && items[i].state === "waiting"; i += 1) {
      hands.push(items[i].body);
    }
    return hands;
  }

  // The score, the hand's number, the dealer and the first bidder as the waiting hands will
  // make them, marked as not yet sent; the server scores each again as it arrives.
  function project(items) {
    if (!outlook || !heading) {
      return;
    }
    var hands = waiting(items);
    var scores = outlook.scores.slice();
    hands.forEach(function (body) {
      if (body.passed) {
        return;
      }
      var made = typeof body.made === "boolean" ? body.made : body.points >= outlook.made_from[body.bid];
      var share = outlook.shares[body.bidder + " " + body.partner + " " + (made ? "made" : "failed")];
      (share || []).forEach(function (part, seat) { scores[seat] += part * body.bid; });
    });
    var deal = outlook.deals[Math.min(hands.length, outlook.deals.length - 1)];
    seats.forEach(function (seat, index) {
      seat.querySelector(".points").textContent = signed(scores[index]);
      seat.classList.toggle("unsent", hands.length > 0);
    });
    if (dealsTag && opensTag) {
      seats[deal[0]].querySelector(".roles").appendChild(dealsTag);
      seats[deal[1]].querySelector(".roles").appendChild(opensTag);
    }
    heading.textContent = fill(heading.getAttribute("data-heading"), {
      number: outlook.hand + hands.length, player: names[deal[0]], opener: names[deal[1]]
    });
  }

  // With hands on the phone, the undo button discards the last of them: it never reached the
  // server, so undoing there would take back the hand before it.
  function offerUndo(items) {
    if (!undoButton) {
      return;
    }
    undoPanel.hidden = !items.length && !serverHands;
    undoButton.textContent = items.length
      ? fill(undoButton.getAttribute("data-msg-discard"), { number: lastNumber(items) })
      : undoLabel;
  }

  function lastNumber(items) {
    return (outlook ? outlook.hand : 1) + items.length - 1;
  }

  function show() {
    var items = load();
    project(items);
    offerUndo(items);
    list.textContent = "";
    items.forEach(function (item) {
      var row = template.content.firstElementChild.cloneNode(true);
      row.setAttribute("data-key", item.key);
      row.querySelector("[data-what]").textContent = item.label;
      row.querySelector("[data-waiting]").hidden = item.state !== "waiting";
      row.querySelector("[data-refused]").hidden = item.state !== "refused";
      var error = row.querySelector("[data-error]");
      error.hidden = !item.error;
      error.textContent = item.error;
      row.querySelector("[data-discard]").hidden = sending === item.key;
      list.appendChild(row);
    });
    offlineNote.hidden = navigator.onLine;
    panel.hidden = !items.length && navigator.onLine && !alert.textContent;
  }

  function say(message) {
    alert.textContent = message || "";
    show();
  }

  function later(ms) {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, ms);
  }

  function answered(item, status, data) {
    var items = load();
    var index = items.findIndex(function (other) { return other.key === item.key; });
    if (index === -1) {
      return; // discarded in another tab meanwhile
    }
    if (status === 200 || status === 201) {
      items.splice(index, 1);
      if (index === 0 && items.length && typeof data.version === "number") {
        items[0].version = data.version;
      }
      if (typeof data.version === "number") {
        field("version").value = data.version; // this phone's own writes leave it current
      }
      save(items);
      if (!items.length) {
        window.location.replace(page); // the new score, from the server
        return;
      }
      flush();
      return;
    }
    if (status >= 500) {
      later(15000);
      show();
      return;
    }
    items[index].state = "refused";
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

  form.addEventListener("submit", function (event) {
    if (form.hasAttribute("data-plain")) {
      return;
    }
    var submitter = event.submitter;
    event.preventDefault();
    say("");
    if (!navigator.onLine || load().length) {
      // Offline, or hands already waiting: this one waits behind them.
      var hand = handFrom(submitter);
      if (hand.error) {
        say(hand.error);
        return;
      }
      keep(hand);
      flush();
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
      // No answer: keep the hand with the same key, so a post that did arrive counts once.
      form.removeAttribute("data-busy");
      var hand = handFrom(submitter);
      if (hand.error) {
        say(hand.error);
        return;
      }
      keep(hand);
      later(5000);
    });
  });

  // Undo: a hand still on the phone is discarded there; one on the server needs the network.
  // Either way the answer is said beside the button.
  document.addEventListener("submit", function (event) {
    if (!event.target.matches("form[data-undo]")) {
      return;
    }
    var items = load();
    if (items.length) {
      event.preventDefault();
      var last = items[items.length - 1];
      if (sending === last.key) {
        return; // on its way: the page shows the server's answer in a moment
      }
      var number = lastNumber(items);
      items.pop();
      save(items);
      undoNote.textContent = fill(undoNote.getAttribute("data-msg-discarded"), { number: number });
      say("");
      return;
    }
    if (!navigator.onLine) {
      event.preventDefault();
      undoNote.textContent = panel.getAttribute("data-msg-undo-offline");
    }
  });

  list.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-discard]");
    var row = button && button.closest("[data-key]");
    if (!row) {
      return;
    }
    var items = load();
    var index = items.findIndex(function (item) { return item.key === row.getAttribute("data-key"); });
    if (index === -1 || sending === items[index].key) {
      return;
    }
    var gone = items.splice(index, 1)[0];
    if (index === 0 && items.length) {
      items[0].version = gone.version;
    }
    save(items);
    say("");
    flush();
  });

  window.addEventListener("online", flush);
  window.addEventListener("offline", show);
  window.addEventListener("storage", function (event) {
    if (event.key === STORED) {
      show();
    }
  });
  show();
  if (document.documentElement.hasAttribute("data-offline-copy")) {
    later(15000); // the worker's copy: the network failed a moment ago
  } else {
    flush();
  }
})();
