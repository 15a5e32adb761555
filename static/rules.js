// The new-rubber forms (the home page's and a group's): each house rule's "as the preset says"
// choice follows the preset chosen above it, from the values the server wrote beside the
// choices, and the first dealer's list names the players as they are typed, each empty seat
// its number. Without this file the form says what the page was sent with; the server decides
// the rules either way.
(function () {
  "use strict";

  function follow(preset) {
    document.querySelectorAll("[data-preset-values]").forEach(function (box) {
      var values = JSON.parse(box.getAttribute("data-preset-values"));
      var words = box.getAttribute("data-as-preset") || "{value}";
      var option = box.querySelector("option[value=''], input[value=''] + span");
      if (option && values[preset] !== undefined) {
        option.textContent = words.replace("{value}", values[preset]);
      }
    });
  }

  function name(seat) {
    var dealer = document.querySelector("select[data-seats]");
    var typed = document.querySelector("input[name='player" + seat + "']");
    var option = dealer && dealer.querySelector("option[value='" + seat + "']");
    if (option && typed) {
      option.textContent = typed.value.trim() || JSON.parse(dealer.getAttribute("data-seats"))[seat];
    }
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "preset" && event.target.tagName === "SELECT") {
      follow(event.target.value);
    }
  });
  document.addEventListener("input", function (event) {
    var seat = event.target && /^player([0-3])$/.exec(event.target.name || "");
    if (seat) {
      name(seat[1]);
    }
  });
})();
