// Install and keep awake: registers the service worker (/sw.js, which keeps the static files
// and the offline page), and on a game's page asks the screen to stay on while the page is
// shown (Screen Wake Lock, where the browser has it; the lock ends by itself when hidden).
(() => {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }

  const playing = () => document.body.matches(".h2h, .hearts");
  let lock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || !playing() || document.visibilityState !== "visible") return;
    if (lock && !lock.released) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      document.body.dataset.awake = "true";
      lock.addEventListener("release", () => { delete document.body.dataset.awake; });
    } catch {
      lock = null; // refused (say, power saving): the screen behaves as usual
    }
  }
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("visibilitychange", keepAwake);
})();
