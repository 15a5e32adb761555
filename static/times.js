// The pages that show times (home, the history, a group's, an edited hand's): each <time> in the
// phone's own zone (docs/decisions/languages.md, "Times"). The server writes them in the zone of
// the tz cookie, else the language's country's; the phone says its own once, and writes the
// page's times in it at once; a <time data-clock> (an edited hand's) as its hour alone. Apart
// from app.js: the rubber page writes its one kind of time from the server only.
(function () {
  "use strict";

  var root = document.documentElement;
  var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  var english = (root.lang || "").indexOf("en") === 0;
  function localTimes() {
    var format = new Intl.DateTimeFormat(english ? "en-US" : "pt-PT", {
      timeZone: zone, day: english ? "numeric" : "2-digit", month: english ? "short" : "2-digit",
      year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
    document.querySelectorAll("time[datetime]").forEach(function (element) {
      var when = new Date(element.getAttribute("datetime"));
      if (isNaN(when)) {
        return;
      }
      var part = {};
      format.formatToParts(when).forEach(function (each) { part[each.type] = each.value; });
      element.textContent = element.hasAttribute("data-clock") ? part.hour + ":" + part.minute :
        english ?
        part.day + " " + part.month + " " + part.year + ", " + part.hour + ":" + part.minute :
        part.day + "/" + part.month + "/" + part.year + " " + part.hour + ":" + part.minute;
    });
  }
  if (zone && /^[\w+\-\/]+$/.test(zone)) { // an IANA name: a cookie's value as it is
    if (document.cookie.split("; ").indexOf("tz=" + zone) < 0) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
    }
    localTimes();
    document.addEventListener("sueca:page", localTimes);
  }
})();
