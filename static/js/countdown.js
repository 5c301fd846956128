// The home page's countdown to the next daily deals: <time data-countdown="SECONDS"> ticks
// down as H:MM:SS from what the server said; at zero the page loads again for the new deals.
(() => {
  "use strict";
  const two = (n) => String(n).padStart(2, "0");
  for (const el of document.querySelectorAll("time[data-countdown]")) {
    const end = Date.now() + Number(el.dataset.countdown) * 1000;
    const tick = () => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000));
      el.textContent = `${Math.floor(left / 3600)}:${two(Math.floor(left / 60) % 60)}:${two(left % 60)}`;
      if (left === 0) {
        clearInterval(timer);
        location.reload();
      }
    };
    const timer = setInterval(tick, 1000);
  }
})();
