// Bidding Sueca at the table. A follower's page (the read-only link) asks the JSON API for the
// game every 5 seconds with its ETag and reloads when a hand was written. The scorer's page keeps
// hands recorded offline in the queue of hands.js, the rubber page's: this file gives it what a
// bidding hand is and what the hands waiting make of the screen.
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

  // The bidding game's pieces of the offline queue of hands.js (loaded after this file): the
  // hand its choices describe, the score the waiting hands make, and undo, which discards a
  // hand still on the phone. The queue calls it once, with its helpers for the hand form.
  window.suecaHands = function (field, checked, text) {
    var form = document.querySelector("form[data-offline]");
    var panel = document.querySelector("[data-pending]");
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

    function fill(message, values) {
      return message.replace(/\{(\w+)\}/g, function (whole, name) { return values[name]; });
    }

    function signed(points) {
      return points < 0 ? "\u2212" + (-points) : String(points);
    }

    // The hands the page's score walks: those waiting, up to a refused one or one sent anyway
    // (on top of another phone's hand, which this page does not show).
    function waiting(items) {
      var hands = [];
      for (var i = 0; i < items.length && items[i].state === "waiting" && !items[i].resent; i += 1) {
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

    // The number of the last of ``count`` hands on the phone.
    function lastNumber(count) {
      return (outlook ? outlook.hand : 1) + count - 1;
    }

    // With hands on the phone, the undo button discards the last of them: it never reached the
    // server, so undoing there would take back the hand before it.
    function offerUndo(items) {
      if (!undoButton) {
        return;
      }
      undoPanel.hidden = !items.length && !serverHands;
      undoButton.textContent = items.length
        ? fill(undoButton.getAttribute("data-msg-discard"), { number: lastNumber(items.length) })
        : undoLabel;
    }

    // Undo: a hand still on the phone is discarded there, as its own Discard button does; one on
    // the server needs the network. Either way the answer is said beside the button.
    document.addEventListener("submit", function (event) {
      if (!event.target.matches("form[data-undo]")) {
        return;
      }
      var discards = panel.querySelectorAll("[data-pending-list] [data-discard]");
      if (discards.length) {
        event.preventDefault();
        var last = discards[discards.length - 1];
        if (last.hidden) {
          return; // on its way: the page shows the server's answer in a moment
        }
        var number = lastNumber(discards.length);
        last.click();
        undoNote.textContent = fill(undoNote.getAttribute("data-msg-discarded"), { number: number });
        return;
      }
      if (!navigator.onLine) {
        event.preventDefault();
        undoNote.textContent = panel.getAttribute("data-msg-undo-offline");
      }
    });

    return {
      stored: "sueca.bidding.pending." + form.getAttribute("data-game"),

      // The API's body for the hand the form describes, or {error: "..."} for a choice left out.
      handFrom: function (submitter) {
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
      },

      clear: function () {
        form.querySelectorAll("input[type=radio]").forEach(function (box) { box.checked = false; });
        field("other_bid").value = "";
        field("points").value = "";
        field("called").value = "";
      },

      project: function (items) {
        project(items);
        offerUndo(items);
      }
    };
  };
})();
