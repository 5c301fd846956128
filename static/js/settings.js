// Settings: the form on /settings saves each change at once (PUT /api/settings) and shows it on
// this page straight away, through the same <body data-…> attributes the server writes on every
// page (app/web/preferences.py). Without JavaScript the form's Save button posts it whole.
(() => {
  "use strict";
  const root = document.body;

  // The page's attributes for a settings object, as html_attributes() writes them.
  function apply(settings) {
    root.dataset.sound = settings.sound ? "on" : "off";
    root.dataset.vibration = settings.vibration ? "on" : "off";
    root.dataset.cardBack = settings.card_back;
    root.dataset.table = settings.table_colour;
    root.dataset.hand = settings.left_handed ? "left" : "right";
    root.dataset.announce = settings.announcements;
    root.dataset.cardsPlayed = settings.hearts_cards_played ? "on" : "off";
    if (settings.animation_speed) root.dataset.motion = settings.animation_speed;
    else delete root.dataset.motion;
    document.dispatchEvent(new CustomEvent("cardroom:settings", { detail: settings }));
  }

  function valueOf(input) {
    if (input.type === "checkbox") return input.checked;
    if (input.name === "animation_speed" && input.value === "system") return null;
    return input.value;
  }

  document.addEventListener("change", async (event) => {
    const input = event.target;
    const form = input.closest && input.closest("form[data-settings]");
    if (!form || !input.name) return;
    let answer;
    try {
      answer = await fetch("/api/settings", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ [input.name]: valueOf(input) }),
      });
    } catch {
      answer = null;
    }
    if (answer && answer.ok) {
      apply(await answer.json());
      window.Cardroom.say(form.dataset.saved);
    } else {
      window.Cardroom.say(form.dataset.failed);
    }
  });
})();
