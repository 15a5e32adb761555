// The score, the cross and the next hand as the hands waiting on this phone will make them.
// The phone scores nothing: the server sent its engine's outlook of the rubber (/r/<id>/outlook,
// kept by hands.js for the version the page shows): the class of every hand a phone can record
// and, for each tally reached from the page's, the tally each class leads to. This walks it
// along the hands sent since the page was served and those still waiting, and marks what it
// shows as not yet sent. Every sentence comes from that answer, in the page's language.
(function () {
  "use strict";

  var form = document.querySelector("form[data-offline]");
  if (!form) {
    return;
  }
  var page = form.getAttribute("data-page");
  var SENT = "sueca.sent." + form.getAttribute("data-rubber");
  var ROLES = ["deals", "shuffles", "cuts", "leads"];
  var before = { version: null, hands: [] };

  // Hands sent in an earlier life of this page's version (the worker's copy reloaded between
  // two sends), read once per version.
  function sentBefore(version) {
    if (before.version !== version) {
      try {
        var kept = JSON.parse(window.localStorage.getItem(SENT) || "null");
        before = kept && kept.version === version ? kept : { version: version, hands: [] };
      } catch (error) {
        before = { version: version, hands: [] };
      }
    }
    return before.hands;
  }

  // What the page's score has to walk: every hand sent since its version, then the waiting
  // ones up to a refused one, or one sent anyway on top of another phone's hands (which this
  // page does not show).
  function hands(detail) {
    var sent = sentBefore(detail.version).concat(detail.sent);
    try {
      window.localStorage.setItem(SENT, JSON.stringify({ version: detail.version, hands: sent }));
    } catch (error) {}
    var walked = sent.slice();
    detail.items.some(function (item) {
      if (item.state !== "waiting" || item.resent) {
        return true;
      }
      walked.push(item.body);
      return false;
    });
    return walked;
  }

  function kept(version) {
    try {
      var data = JSON.parse(window.localStorage.getItem("sueca.outlook") || "null");
      return data && data.page === page && data.version === version ? data : null;
    } catch (error) {
      return null;
    }
  }

  function classOf(data, body) {
    if (body.spoiled) {
      return data.spoiled;
    }
    if (typeof body.revoke === "number") {
      return data.revoke[body.revoke];
    }
    var letter = data.played[body.all_tricks ? 1 : 0].charAt(body.points[0]);
    return letter === "-" || !letter ? -1 : parseInt(letter, 36);
  }

  // Where the hands lead: the node reached, how far the deal moved, and how many hands were
  // followed (fewer than sent where the outlook stops: a hand refused, or past its depth; the
  // graph merges tallies that show the same, so a walk could go on round a melar's loop).
  function walk(data, hands) {
    var node = 0;
    var moved = 0;
    var count = 0;
    hands.every(function (body) {
      if (count === data.words.hand.length - 1) {
        return false;
      }
      var kind = classOf(data, body);
      var next = kind < 0 ? -1 : data.nodes[node][6][kind];
      if (next < 0) {
        return false;
      }
      node = next;
      moved += data.deal_steps[kind];
      count += 1;
      return true;
    });
    return { node: data.nodes[node], moved: moved, count: count };
  }

  // The page as the server drew it, remembered the first time it is changed.
  function served(element, value) {
    if (!element.hasAttribute("data-served")) {
      element.setAttribute("data-served", value);
    }
    return element.getAttribute("data-served");
  }

  function restore() {
    document.querySelectorAll("[data-served]").forEach(function (element) {
      if (element.matches("h2")) {
        element.firstChild.nodeValue = element.getAttribute("data-served");
      } else {
        element.textContent = element.getAttribute("data-served");
      }
      element.removeAttribute("data-served");
    });
    document.querySelectorAll("[data-projected]").forEach(function (element) {
      element.remove();
    });
    document.querySelectorAll(".cross .projected, .cross .struck").forEach(function (dot) {
      dot.classList.remove("projected", "struck");
      if (dot.matches("circle.place")) {
        dot.setAttribute("r", "3");
      }
    });
    var alert = document.querySelector("[data-pending-alert]");
    if (form.hasAttribute("data-won") && alert.textContent === form.getAttribute("data-won")) {
      alert.textContent = "";
    }
    form.removeAttribute("data-won");
    document.querySelectorAll("[data-projected-hidden]").forEach(function (element) {
      element.hidden = false;
      element.removeAttribute("data-projected-hidden");
    });
    document.querySelectorAll(".score > p.pending[hidden]").forEach(function (note) {
      note.hidden = false;
    });
    var seats = document.querySelectorAll(".seats .seat");
    ROLES.forEach(function (role) {
      var mark = document.querySelector(".seats .role-" + role + "[data-served-seat]");
      if (mark) {
        seats[Number(mark.getAttribute("data-served-seat"))].appendChild(mark);
        mark.removeAttribute("data-served-seat");
      }
    });
  }

  function hide(element) {
    if (!element.hidden) {
      element.hidden = true;
      element.setAttribute("data-projected-hidden", "");
    }
  }

  function draw(data, reached) {
    var node = reached.node;
    if (node[4]) {
      // Won with the hands waiting: hands.js keeps no more (the server would refuse them), and
      // the page looks finished, as the server's will: no panel (the sentence that says why is
      // in the waiting hands' box, in sight), no turn arrow, no one to deal.
      form.setAttribute("data-won", data.words.finished);
      document.querySelector("[data-pending-alert]").textContent = data.words.finished;
      document.querySelectorAll("#record, .table-view h2 > span, .seats .role").forEach(hide);
    }
    var games = document.querySelector(".scoreline .games");
    served(games, games.textContent);
    games.textContent = node[0] + " – " + node[1];
    var scoreline = document.querySelector(".scoreline");
    var marker = document.createElement("p");
    marker.setAttribute("data-projected", "");
    marker.className = "projected-note";
    marker.textContent = data.words.marker;
    scoreline.insertAdjacentElement("afterend", marker);

    [0, 1].forEach(function (team) {
      var held = document.querySelectorAll(".cross .dot.team" + team);
      var places = document.querySelectorAll(".cross circle.place.team" + team);
      var change = node[team] - held.length;
      for (var i = 0; i < Math.min(change, places.length); i += 1) {
        places[i].classList.add("projected");
        places[i].setAttribute("r", "6");
      }
      for (var j = Math.max(held.length + change, 0); j < held.length; j += 1) {
        held[j].classList.add("struck"); // a game the hands take away (revoke: minus two)
      }
    });

    document.querySelectorAll(".score > p.pending").forEach(function (note) {
      note.hidden = true;
    });
    [["extra", node[2]], ["multiplier", node[3]]].forEach(function (pair) {
      var words = data.words[pair[0]][String(pair[1])];
      if (words) {
        var note = document.createElement("p");
        note.className = "pending projected";
        note.setAttribute("data-projected", "");
        note.textContent = words;
        marker.insertAdjacentElement("afterend", note);
      }
    });

    var heading = document.querySelector(".table-view h2");
    if (heading) {
      served(heading, heading.firstChild.nodeValue);
      heading.firstChild.nodeValue = (node[4] ? data.words.won[node[5]] : data.words.hand[reached.count]) + " ";
      var places = [].slice.call(document.querySelectorAll(".seats .seat"));
      var deals = document.querySelector(".seats .role-deals");
      if (deals && !node[4]) {
        var seat = (places.indexOf(deals.closest(".seat")) + reached.moved) % 4;
        var seats = [seat].concat(data.roles[seat]);
        ROLES.forEach(function (role, index) {
          var mark = document.querySelector(".seats .role-" + role);
          mark.setAttribute("data-served-seat", String(places.indexOf(mark.closest(".seat"))));
          places[seats[index]].appendChild(mark);
        });
      }
    }
  }

  function project(detail) {
    form = document.querySelector("form[data-offline]") || form; // follow.js's newer page
    restore();
    // Undo takes back the server's last hand, not one of these: "Descartar" does that.
    document.querySelectorAll("details.undo").forEach(function (undo) {
      undo.hidden = detail.items.length > 0;
    });
    var walked = hands(detail);
    var data = kept(detail.version);
    if (!data || !walked.length) {
      return;
    }
    // Past what the outlook follows (its depth, or a tally it stopped at), the page keeps the
    // server's score rather than show one of fewer hands than wait.
    var reached = walk(data, walked);
    if (reached.count === walked.length) {
      draw(data, reached);
    }
  }

  // Won with the hands waiting: no hand more is kept (the server would refuse it). Before
  // hands.js hears the submit, which it would keep.
  document.addEventListener("submit", function (event) {
    if (event.target === form && form.hasAttribute("data-won")) {
      event.preventDefault();
      event.stopPropagation();
      form.querySelector("[name='points']").value = "";
      document.querySelector("[data-pending-alert]").textContent = form.getAttribute("data-won");
    }
  }, true);

  // A revoke's or a bandeira's outcome, for hands.js to ask before keeping it: the node the
  // waiting hands and it reach, in the words the server sent; nothing past what the outlook
  // follows.
  document.addEventListener("sueca:outcome", function (event) {
    var detail = event.detail;
    var data = kept(detail.version);
    var words = data && data.words.outcome && data.words.outcome[detail.action];
    if (!words) {
      return;
    }
    var walked = hands(detail).concat([detail.body]);
    var reached = walk(data, walked);
    if (reached.count === walked.length) {
      var node = reached.node;
      detail.sentence = words[node[4] ? 1 : 0].replace("{0}", node[0]).replace("{1}", node[1]);
    }
  });

  document.addEventListener("sueca:projection", function (event) {
    project(event.detail);
  });
  if (window.suecaProjection) {
    project(window.suecaProjection);
  }
})();
