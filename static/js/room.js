// What every page's scripts share: what the page says, and the animation speed.
(() => {
  "use strict";
  // The one way the page speaks (templates/base.html): every announcement is a line added to
  // #announcements (role=log, polite, out of sight): screen readers read each addition once, in
  // order, and none replaces one still waiting to be read. #status shows the latest line to
  // the eye; it is not a live region itself, so nothing is said twice. What must interrupt (a
  // refusal and why) goes to #alert (assertive) instead. The log keeps the last lines, so a
  // screen reader can read back what happened.
  //   say(text, {urgent, detail, brief})   detail: the player's own doings, left out when they
  //     chose fewer announcements (<body data-announce="fewer">); brief: what is said instead
  //     then (a line that also tells another's doing keeps that part). #status shows the text.
  const KEPT = 400;
  const say = (text, { urgent = false, detail = false, brief } = {}) => {
    if (!text) return;
    const status = document.getElementById("status");
    if (status && status.textContent !== text) status.textContent = text;
    if (document.body.dataset.announce === "fewer") {
      if (detail || brief === "") return;
      if (brief !== undefined) text = brief;
    }
    const log = document.getElementById(urgent ? "alert" : "announcements");
    if (!log) return;
    if (urgent) {
      log.textContent = text;
      return;
    }
    const line = document.createElement("p");
    line.textContent = text;
    log.append(line);
    while (log.childElementCount > KEPT) log.firstElementChild.remove();
  };

  // The player's animation speed, the CSS variable --motion on <body> (static/css/room.css):
  // 0 = no motion, 0.5 fast, 1 normal, 1.6 slow, 0 under prefers-reduced-motion when the player
  // chose no speed. Durations are multiplied by it. Without room.css there is no value: 0 then,
  // as nothing else on the page moves either.
  const motionPace = () =>
    parseFloat(getComputedStyle(document.body).getPropertyValue("--motion")) || 0;

  window.Cardroom = { ...window.Cardroom, say, motionPace };
})();
