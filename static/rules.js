// The new-rubber form: each house-rule box's "as the preset says" option follows the preset
// chosen above it, from the values the server wrote beside the box. Without this file the
// option says the preset the page was sent with; the server decides the rules either way.
(function () {
  "use strict";

  function follow(preset) {
    document.querySelectorAll("select[data-preset-values]").forEach(function (box) {
      var values = JSON.parse(box.getAttribute("data-preset-values"));
      var words = box.getAttribute("data-as-preset") || "{value}";
      var option = box.querySelector("option[value='']");
      if (option && values[preset] !== undefined) {
        option.textContent = words.replace("{value}", values[preset]);
      }
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "preset" && event.target.tagName === "SELECT") {
      follow(event.target.value);
    }
  });
})();
