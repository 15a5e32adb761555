// Card entry on a phone, a little quicker: the pile's total as cards are tapped, and the
// trick replay answered without a page load. Without this file every form still posts to the
// server, which decides everything; this only shows its answer sooner.
(function () {
  "use strict";

  function recount(form) {
    var total = 0;
    var count = 0;
    form.querySelectorAll("input[name=cards]:checked").forEach(function (box) {
      total += Number(box.getAttribute("data-points")) || 0;
      count += 1;
    });
    var deck = Number(form.getAttribute("data-deck-points")) || 0;
    form.querySelectorAll("[data-total]").forEach(function (out) { out.textContent = total; });
    form.querySelectorAll("[data-other]").forEach(function (out) { out.textContent = deck - total; });
    form.querySelectorAll("[data-count]").forEach(function (out) { out.textContent = count; });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-pile")) {
      recount(form);
      // A verdict (the melar check) was given on the cards as they were: it goes, with its
      // button, once one of them changes. The server checks the cards sent again anyway.
      form.querySelectorAll("[data-verdict]").forEach(function (verdict) { verdict.remove(); });
    }
  });

  document.addEventListener("click", function (event) {
    var clear = event.target.closest && event.target.closest("[data-clear]");
    if (!clear || !clear.form) {
      return;
    }
    event.preventDefault();
    clear.form.querySelectorAll("input[name=cards]").forEach(function (box) { box.checked = false; });
    clear.form.querySelectorAll(".has-error").forEach(function (cell) { cell.classList.remove("has-error"); });
    clear.form.querySelectorAll("[data-error-for]").forEach(function (note) { note.remove(); });
    clear.form.querySelectorAll("[data-verdict]").forEach(function (verdict) { verdict.remove(); });
    recount(clear.form);
  });

  // The record in progress is kept on the phone (localStorage, one per rubber, for the hand it
  // was entered for), so that a reload or a visit to the rubber page does not lose it: a page
  // that starts afresh offers it back and is held (inert) until the person says what to do.
  var FIELDS = ["record", "trump", "trump_card", "version"];

  function keeper() {
    return document.querySelector("main form[data-keep]");
  }

  function storeKey(form) {
    return "sueca.replay." + form.getAttribute("data-rubber");
  }

  function stored(form) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(storeKey(form)) || "null");
      return kept && kept.hand === form.getAttribute("data-hand") ? kept : null;
    } catch (error) {
      return null;
    }
  }

  // The cards of a kept record: a trump alone is no record to offer back.
  function cardsIn(record) {
    return (record || "").split(/[\s|]+/).filter(Boolean).length;
  }

  function remember(form) {
    var kept = { hand: form.getAttribute("data-hand") };
    FIELDS.forEach(function (name) {
      kept[name] = form.elements[name] ? form.elements[name].value : "";
    });
    try {
      if (cardsIn(kept.record) > 0) {
        window.localStorage.setItem(storeKey(form), JSON.stringify(kept));
      } else {
        window.localStorage.removeItem(storeKey(form));
      }
    } catch (error) {
      // Storage full or refused: the page works as before, the record only in the page.
    }
  }

  function offer(form) {
    var kept = stored(form);
    var prompt = document.querySelector("main [data-kept]");
    if (!kept || cardsIn(kept.record) === 0) {
      // Nothing for this hand (what is there belongs to a hand since recorded, or holds no
      // card): nothing to offer back.
      remember(form);
      return;
    }
    if (form.elements.record.value || !prompt) {
      remember(form);
      return;
    }
    var text = prompt.querySelector("[data-kept-text]");
    text.textContent = text.getAttribute("data-msg").replace("{count}", cardsIn(kept.record));
    prompt.hidden = false;
    form.inert = true;
    prompt.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) {
        return;
      }
      prompt.hidden = true;
      form.inert = false;
      if (button.hasAttribute("data-kept-discard")) {
        window.localStorage.removeItem(storeKey(form));
        return;
      }
      FIELDS.forEach(function (name) {
        var box = form.elements[name];
        if (!box) {
          box = form.appendChild(document.createElement("input"));
          box.type = "hidden";
          box.name = name;
        }
        box.value = kept[name] || "";
      });
      form.requestSubmit(); // the server checks the record again and shows it
    });
  }

  // The grid where the thumb is: the entry brought into view when the grid is not all on
  // screen; after that nothing above it grows (the finished tricks are listed below it).
  function settle() {
    var form = keeper();
    var entry = document.querySelector("main #entry");
    if (form && !form.inert) {
      remember(form);
    }
    if (!entry) {
      return;
    }
    var deck = entry.querySelector(".deck") || entry;
    if (entry.getBoundingClientRect().top < 0 || deck.getBoundingClientRect().bottom > window.innerHeight) {
      entry.scrollIntoView({ block: "start" });
    }
  }

  if (keeper()) {
    offer(keeper());
  }

  // A replay form posts in the background and the page's main part is swapped for the answer.
  var waiting = [];

  function sendNext() {
    while (waiting.length) {
      var next = waiting.shift();
      var button = document.querySelector(
        "main form[data-swap] button[name='" + next[0] + "'][value='" + next[1] + "']"
      );
      // A card tapped twice is greyed out by then: the second tap is dropped.
      if (button && !button.disabled) {
        button.form.requestSubmit(button);
        return;
      }
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    if (!form.hasAttribute("data-swap") || form.hasAttribute("data-plain") || !window.fetch) {
      return;
    }
    if (submitter && submitter.hasAttribute("formaction")) {
      return; // leaving for another page: let the browser go there
    }
    event.preventDefault();
    if (form.hasAttribute("data-busy")) {
      // Tapped while the last card is on its way: it goes next, once the page has answered.
      if (submitter && submitter.name) {
        waiting.push([submitter.name, submitter.value]);
      }
      return;
    }
    form.setAttribute("data-busy", "");
    var body = new FormData(form);
    if (submitter && submitter.name) {
      body.append(submitter.name, submitter.value);
    }
    // getAttribute: a control named "action" hides the form's own action property.
    var target = new URL(form.getAttribute("action") || "", document.baseURI);
    fetch(target, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.redirected || type.indexOf("text/html") !== 0) {
          window.location.assign(response.url);
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null) {
          return;
        }
        var page = new DOMParser().parseFromString(html, "text/html");
        var main = page.querySelector("main");
        if (!main) {
          throw new Error("no page");
        }
        document.querySelector("main").replaceWith(document.adoptNode(main));
        document.title = page.title;
        settle();
        sendNext();
      })
      .catch(function () {
        form.removeAttribute("data-busy");
        form.setAttribute("data-plain", "");
        if (submitter) {
          form.requestSubmit(submitter);
        } else {
          form.requestSubmit();
        }
      });
  });
})();
