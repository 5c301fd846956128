// A Heart to Heart win: the records it set ("New best!", from /stats/news/heart-to-heart) join
// the win's dialog, and the heart's cards cascade down the screen. A tap or a key skips the
// cascade; there is none when motion is off (the setting, or the system's reduced motion).
(() => {
  "use strict";
  const NEWS_URL = "/stats/news/heart-to-heart";
  const CARDS = 25;
  const FALL_MS = 1800;

  async function addNews(dialog) {
    let answer;
    try {
      answer = await fetch(NEWS_URL, { headers: { accept: "text/html" } });
    } catch {
      return;
    }
    if (!answer.ok) return;
    const html = await answer.text();
    if (!html.trim() || dialog.querySelector("[data-news]")) return;
    const line = document.createRange().createContextualFragment(html);
    const after = dialog.querySelector("p") || dialog.querySelector("h2");
    after.after(line);
  }

  function cascade(dialog) {
    const scale = window.Cardroom.motionPace();
    if (!scale) return;
    const layer = document.createElement("div");
    layer.className = "cascade";
    layer.dataset.cascade = "";
    layer.setAttribute("aria-hidden", "true");
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    const falls = [];
    for (let i = 0; i < CARDS; i++) {
      const card = document.createElement("div");
      card.className = "card h";
      const rank = ranks[i % ranks.length];
      card.innerHTML = "<i></i><b></b>";
      card.querySelector("i").textContent = rank;
      card.querySelector("b").textContent = rank;
      card.style.left = ((i * 37) % 100) + "vw";
      layer.appendChild(card);
      const turn = (i % 2 ? 1 : -1) * (90 + (i * 53) % 270);
      falls.push(card.animate(
        [{ transform: "translateY(-120%) rotate(0deg)" },
         { transform: "translateY(110vh) rotate(" + turn + "deg)" }],
        { duration: FALL_MS * scale, delay: (i * 70) * scale, easing: "cubic-bezier(.3,.1,.7,1)",
          fill: "both" }
      ).finished);
    }
    // Inside the dialog, so it shows above the dialog's backdrop.
    dialog.appendChild(layer);
    const stop = () => {
      layer.remove();
      window.removeEventListener("keydown", stop, true);
    };
    // On the click, not the pointerdown: the tap must not go on to the button under the card.
    layer.addEventListener("click", stop);
    window.addEventListener("keydown", stop, true);
    Promise.all(falls).then(stop, stop);
  }

  function celebrate(dialog) {
    if (dialog.dataset.celebrated) return;
    dialog.dataset.celebrated = "true";
    document.dispatchEvent(new CustomEvent("cardroom:sound", { detail: "win" }));
    cascade(dialog);
    addNews(dialog);
  }

  const WON = "dialog[data-outcome='won']";
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType !== 1) continue;
        const dialog = node.matches(WON) ? node : node.querySelector(WON);
        if (dialog) celebrate(dialog);
      }
    }
  }).observe(document, { subtree: true, childList: true });
})();
