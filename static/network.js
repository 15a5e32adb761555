// A form that needs the server (starting a rubber or a game) says so when the phone has no
// network, instead of a browser error page: the worker never answers a write (see sw.js).
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var message = form.getAttribute("data-needs-network");
    if (!message || navigator.onLine) {
      return;
    }
    event.preventDefault();
    var note = form.querySelector("[data-no-network]");
    if (!note) {
      note = form.appendChild(document.createElement("p"));
      note.className = "error";
      note.setAttribute("role", "alert");
      note.setAttribute("data-no-network", "");
    }
    note.textContent = message;
  });

  window.addEventListener("online", function () {
    document.querySelectorAll("[data-no-network]").forEach(function (note) { note.remove(); });
  });
})();
