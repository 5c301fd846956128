// What every page's scripts share: the status line and the animation speed.
(() => {
  "use strict";
  // The status line (#status, a live region in templates/base.html): its text changes, the
  // element stays, so screen readers announce it. Nothing to say leaves it as it is.
  const say = (text) => {
    const status = document.getElementById("status");
    if (status && text) status.textContent = text;
  };

  // The player's animation speed, the CSS variable --motion on <body> (static/css/room.css):
  // 0 = no motion, 0.5 fast, 1 normal, 1.6 slow, 0 under prefers-reduced-motion when the player
  // chose no speed. Durations are multiplied by it. Without room.css there is no value: 0 then,
  // as nothing else on the page moves either.
  const motionPace = () =>
    parseFloat(getComputedStyle(document.body).getPropertyValue("--motion")) || 0;

  window.Cardroom = { ...window.Cardroom, say, motionPace };
})();
