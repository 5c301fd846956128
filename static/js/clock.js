// The Heart to Heart clock: shows m:ss, ticks only while the game runs and the tab is visible,
// and keeps the hidden "elapsed" field current so every action reports the play time.
// The server sends data-elapsed / data-running on #h2h-time; each new copy resets the clock.
(() => {
  "use strict";
  let counted = 0; // seconds counted up to `since`
  let since = null; // performance.now() when counting resumed, or null while paused
  let running = false;
  let shown = "";

  const now = () => performance.now() / 1000;
  const total = () => counted + (since === null ? 0 : now() - since);

  const pause = () => {
    if (since !== null) {
      counted = total();
      since = null;
    }
  };
  const resume = () => {
    if (running && since === null && !document.hidden) since = now();
  };
  const draw = () => {
    const el = document.getElementById("h2h-time");
    const field = document.getElementById("h2h-elapsed");
    if (!el) return;
    const seconds = total();
    if (field) field.value = seconds.toFixed(1);
    const whole = Math.floor(seconds);
    const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    if (text !== shown || el.textContent !== text) {
      el.textContent = text;
      shown = text;
    }
  };
  const sync = () => {
    const el = document.getElementById("h2h-time");
    if (!el) return;
    counted = parseFloat(el.dataset.elapsed) || 0;
    running = el.dataset.running === "true";
    since = null;
    resume();
    draw();
  };

  document.addEventListener("DOMContentLoaded", () => {
    sync();
    setInterval(draw, 250);
  });
  window.Cardroom.pieces.on("h2h-time", { after: sync });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) pause();
    else resume();
    draw();
  });
})();
