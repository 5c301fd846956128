// The status line the server sends (the status piece of an answer, app/web/pieces.py) is said
// through Cardroom.say like the page's own words (static/js/room.js), once, when it is in the
// page (a Hearts answer's line waits until its cards have been shown). An answer that refuses
// (409, 429, 503) says its line at once, over anything still being read.
(() => {
  "use strict";
  const REFUSED = new Set([409, 429, 503]);
  let refused = false;
  document.addEventListener("htmx:beforeSwap", (e) => {
    refused = REFUSED.has(e.detail.xhr?.status);
  });
  document.addEventListener("htmx:afterSwap", () => { refused = false; });
  window.Cardroom.pieces.on("status", {
    after(el) {
      const detail = el.querySelector("[data-detail]") !== null; // app/web/pieces.py, status
      window.Cardroom.say(el.textContent.trim(), { urgent: refused, detail });
    },
  });
})();
