// The café's TV: a click or a tap anywhere asks the browser for the whole screen (there is no
// control to show; a browser in kiosk or full-screen mode needs none).
(function () {
  "use strict";

  document.addEventListener("click", function () {
    var root = document.documentElement;
    if (!document.fullscreenElement && root.requestFullscreen) {
      root.requestFullscreen().catch(function () {
        // Refused (an embedded browser): the page fills the window as it is.
      });
    }
  });
})();
