// Countdowns from what the server said, ticking once a second.
// - The home page's countdown to the next daily deals: <time data-countdown="SECONDS"> shows
//   H:MM:SS; at zero the page loads again for the new deals.
// - Cardroom.countdown(el, seconds) for a page that learns a time later (a table's turn limit,
//   static/js/hearts-live.js): M:SS in ``el`` until zero; it stops when ``el`` leaves the page
//   or is given another countdown.
(() => {
  "use strict";
  const two = (n) => String(n).padStart(2, "0");
  const long = (left) => `${Math.floor(left / 3600)}:${two(Math.floor(left / 60) % 60)}:${two(left % 60)}`;
  const short = (left) => `${Math.floor(left / 60)}:${two(left % 60)}`;
  const timers = new WeakMap();

  function countdown(el, seconds, { format = short, atZero = null } = {}) {
    clearInterval(timers.get(el));
    const end = Date.now() + Number(seconds) * 1000;
    const tick = () => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000));
      el.textContent = format(left);
      el.dataset.left = String(left);
      el.setAttribute("datetime", `PT${left}S`);
      if (left === 0 || !el.isConnected) {
        clearInterval(timers.get(el));
        if (left === 0 && atZero) atZero();
      }
    };
    tick();
    timers.set(el, setInterval(tick, 1000));
  }

  for (const el of document.querySelectorAll("time[data-countdown]")) {
    countdown(el, el.dataset.countdown, { format: long, atZero: () => location.reload() });
  }
  window.Cardroom = { ...window.Cardroom, countdown };
})();
