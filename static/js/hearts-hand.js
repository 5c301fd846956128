// The Hearts hand: choosing three cards to pass, lifting and playing, arrow keys.
// The server draws the hand; this file only flips aria-pressed and lets htmx post the play.
(() => {
  "use strict";
  const PASS_SIZE = 3;
  let pointerType = "mouse";
  let focusHand = false; // an action outside the hand was sent: its answer focuses the hand

  const hand = () => document.getElementById("ht-hand");
  const cardsOf = (el) => Array.from(el.querySelectorAll("button.card"));
  const pressed = (card) => card.getAttribute("aria-pressed") === "true";

  // Remember what kind of pointer started the click: a touch lifts first, a mouse plays at once.
  document.addEventListener("pointerdown", (e) => { pointerType = e.pointerType; }, true);

  function lower(except) {
    const el = hand();
    if (!el) return;
    for (const card of cardsOf(el)) {
      if (card !== except && pressed(card)) card.setAttribute("aria-pressed", "false");
    }
  }

  function syncPass() {
    const el = hand();
    const bar = document.getElementById("ht-bar");
    if (!el || !bar) return;
    const chosen = cardsOf(el).filter(pressed).map((card) => card.dataset.card);
    const input = bar.querySelector("input[name=cards]");
    const button = bar.querySelector(".ht-pass-button");
    const count = bar.querySelector(".ht-count");
    if (!input || !button) return;
    input.value = chosen.join(",");
    button.disabled = chosen.length !== PASS_SIZE;
    if (count) count.textContent = `${chosen.length}/${PASS_SIZE}`;
  }

  function togglePass(card) {
    const el = hand();
    if (!pressed(card) && cardsOf(el).filter(pressed).length >= PASS_SIZE) {
      // A fourth card: the player must first put one of the three back.
      shake(card);
      window.Cardroom.say(document.querySelector(".ht-pass")?.dataset.full, { urgent: true });
      return;
    }
    card.setAttribute("aria-pressed", pressed(card) ? "false" : "true");
    syncPass();
  }

  const taps = () => window.Cardroom.taps;

  // Every action goes through Cardroom.taps (in order, each with the version the previous
  // answer gave); the hand form is the source, so the version field comes with it.
  function send(url, values, predict) {
    taps().add({ source: hand, url, values, predict });
  }

  // A button that was pressed cannot be pressed twice while its answer is on the way.
  function hold(button) {
    taps().touch(button.closest("[id]"));
    button.disabled = true;
  }

  // The played card leaves the hand and travels to the table at once.
  function play(card) {
    const first = taps().waiting() === 0 && card.getAttribute("aria-disabled") !== "true";
    send(hand().getAttribute("hx-post"), { card: card.dataset.card }, (now) => {
      if (!now || !first || !card.isConnected) return;
      const from = card.getBoundingClientRect();
      taps().touch(card);
      card.dataset.played = "true";
      hand().setAttribute("aria-busy", "true");
      window.Cardroom.table?.lead(card.dataset.card, card.getAttribute("aria-label"), from);
    });
  }

  function passChosen(button) {
    const form = button.form;
    const cards = form.querySelector("input[name=cards]").value;
    send(form.getAttribute("hx-post"), { cards }, (now) => {
      if (!now) return;
      for (const card of cardsOf(hand()).filter(pressed)) {
        taps().touch(card);
        card.dataset.played = "true";
      }
      hold(button);
    });
  }

  document.addEventListener("click", (e) => {
    const el = hand();
    if (!el) return;
    const action = e.target.closest(".ht form[hx-post]:not(#ht-hand) button[type=submit]");
    if (action) {
      e.preventDefault();
      e.stopPropagation();
      if (action.disabled) return;
      // The next action is in the hand: the answer brings the focus there (restoreFocus).
      focusHand = true;
      if (action.classList.contains("ht-pass-button")) passChosen(action);
      else if (action.dataset.action === "next-hand") {
        send(action.form.getAttribute("hx-post"), {}, (now) => now && window.Cardroom.table?.leaveHand());
      } else {
        // The form's own fields go too (the moon's choice); the version comes from the hand.
        const values = Object.fromEntries(new FormData(action.form));
        send(action.form.getAttribute("hx-post"), values, (now) => now && hold(action));
      }
      return;
    }
    const card = e.target.closest("#ht-hand button.card");
    if (!card) {
      // A tap on the table or anywhere else lowers a lifted card.
      if (el.dataset.phase === "playing") lower(null);
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    // A tap on the hand during the bots' cards shows them at once: the hand is the player's.
    window.Cardroom.table?.skip();
    const phase = el.dataset.phase;
    if (phase === "passing") {
      togglePass(card);
      return;
    }
    if (phase !== "playing" || card.dataset.played) return;
    if (card.getAttribute("aria-disabled") === "true" && taps().waiting() === 0) {
      refuse(card);
      return;
    }
    // e.detail is 0 for a click made with the keyboard (Enter): that plays at once.
    const touch = (pointerType === "touch" || pointerType === "pen") && e.detail > 0;
    if (touch && !pressed(card)) {
      lower(card);
      card.setAttribute("aria-pressed", "true");
      return;
    }
    lower(card);
    play(card);
  }, true);

  // A card that cannot be played shakes, and the status line says why (the server sends the
  // reason with the hand: #ht-why).
  function refuse(card) {
    shake(card);
    window.Cardroom.say(document.getElementById("ht-why")?.dataset.text, { urgent: true });
  }

  function shake(card) {
    document.dispatchEvent(new CustomEvent("cardroom:refused")); // static/js/sound.js buzzes
    const pace = window.Cardroom.motionPace();
    if (!pace) return;
    card.animate?.(
      [{ translate: "0 0" }, { translate: "-4px 0" }, { translate: "4px 0" }, { translate: "-3px 0" },
        { translate: "0 0" }],
      { duration: 240 * pace },
    );
  }

  document.addEventListener("keydown", (e) => {
    const card = e.target.closest?.("#ht-hand button.card");
    if (!card) return;
    const cards = cardsOf(hand());
    const at = cards.indexOf(card);
    let next = {
      ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: cards.length - 1,
    }[e.key];
    // A suit's letter (C, D, H, S in both languages) goes to the next card of that suit.
    const suit = e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey
      && "CDHS".includes(e.key.toUpperCase()) ? e.key.toUpperCase() : null;
    if (suit) {
      const order = [...cards.slice(at + 1), ...cards.slice(0, at + 1)];
      const found = order.find((c) => c.dataset.card.endsWith(suit));
      if (!found) return;
      next = cards.indexOf(found);
    }
    if (next === undefined) return;
    e.preventDefault();
    cards[Math.max(0, Math.min(cards.length - 1, next))].focus();
  });

  // A card whose only changes are whether it can be played and its received mark comes as
  // its id and those attributes alone (data-patch): they are copied, the card stays.
  const PATCHED = ["aria-disabled", "data-received", "aria-describedby"];
  window.Cardroom.pieces.on(/^ht-c-/, {
    before(patch, card, inner) {
      if (inner || !patch.hasAttribute("data-patch")) return false;
      for (const name of PATCHED) {
        const value = patch.getAttribute(name);
        if (value === null) card.removeAttribute(name);
        else card.setAttribute(name, value);
      }
      return true;
    },
    after: () => rove(), // a card drawn again is a Tab stop of its own until then
  });

  // The hand is one Tab stop (a roving tabindex): the card the arrows last reached while it is
  // in the hand, or else the first that can be played.
  let roving = null; // that card's code
  function rove() {
    const el = hand();
    if (!el) return null;
    const cards = cardsOf(el).filter((card) => !card.dataset.played);
    const stop = cards.find((card) => card.dataset.card === roving)
      ?? cards.find((card) => card.getAttribute("aria-disabled") !== "true") ?? cards[0];
    for (const card of cardsOf(el)) card.tabIndex = card === stop ? 0 : -1;
    return stop ?? null;
  }
  document.addEventListener("focusin", (e) => {
    const card = e.target.closest?.("#ht-hand button.card");
    if (!card) return;
    roving = card.dataset.card;
    rove();
  });
  rove();

  // Keep the keyboard focus in the hand when the server redraws it or takes the played card
  // out (the card now at the same place gets it), and bring it there after the bar's and the
  // dialogs' actions (Pass, Undo, Next hand, Hint), whose buttons go away or wait.
  let focusIndex = -1;
  document.addEventListener("htmx:beforeRequest", () => {
    const el = hand();
    focusIndex = el ? cardsOf(el).indexOf(document.activeElement) : -1;
  });
  function restoreFocus() {
    const stop = rove();
    const el = hand();
    const cards = el ? cardsOf(el) : [];
    if (el && !el.contains(document.activeElement)) {
      if (focusIndex >= 0 && cards.length) cards[Math.min(focusIndex, cards.length - 1)].focus();
      else if (focusHand) stop?.focus();
    }
    focusIndex = -1;
    focusHand = false;
  }
  document.addEventListener("htmx:afterSettle", restoreFocus);
  window.Cardroom.pieces.on("ht-hand", {
    after() {
      syncPass();
      restoreFocus();
    },
  });
})();
