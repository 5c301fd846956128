// The Heart to Heart clock: shows m:ss, ticks only while the game runs and the tab is visible,
// and keeps the hidden "elapsed" field current so every action reports the play time.
// The server sends data-elapsed / data-running on #h2h-time; each new copy resets the clock.
(function () {
  "use strict";
  var counted = 0;      // seconds counted up to `since`
  var since = null;     // performance.now() when counting resumed, or null while paused
  var running = false;
  var shown = "";

  function now() { return performance.now() / 1000; }
  function total() { return counted + (since === null ? 0 : now() - since); }

  function pause() {
    if (since !== null) { counted = total(); since = null; }
  }
  function resume() {
    if (running && since === null && !document.hidden) since = now();
  }
  function draw() {
    var el = document.getElementById("h2h-time");
    var field = document.getElementById("h2h-elapsed");
    if (!el) return;
    var seconds = total();
    if (field) field.value = seconds.toFixed(1);
    var whole = Math.floor(seconds);
    var text = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
    if (text !== shown || el.textContent !== text) { el.textContent = text; shown = text; }
  }
  function sync() {
    var el = document.getElementById("h2h-time");
    if (!el) return;
    counted = parseFloat(el.dataset.elapsed) || 0;
    running = el.dataset.running === "true";
    since = null;
    resume();
    draw();
  }

  document.addEventListener("DOMContentLoaded", function () {
    sync();
    setInterval(draw, 250);
  });
  document.addEventListener("htmx:load", function (event) {
    if (event.target.id === "h2h-time") sync();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) pause(); else resume();
    draw();
  });
})();
