// The Hearts table: shows the cards an action played one by one (the server sends them all at
// once, in order, in a <template> in place of the trick; the final table is built from them),
// each travelling from its player's seat, the turn marker following; a finished trick rests a
// beat, then goes to its winner. The hand waits (aria-busy) and the numbers, the bar and the
// hand/match dialogs change only when the cards have landed. (Dialogs are static/js/dialogs.js's;
// the deal link is static/js/share.js's.)
(() => {
  "use strict";
  // The bots' pace in ms, from the table's data attributes (app/web/hearts/pace.py, which the
  // server keeps to when it plays for a player who is away): between two cards, how long a
  // finished trick stays in view, a card's flight to the table or a trick's to its winner.
  const paceMs = (name) => Number(document.querySelector(".ht-table")?.dataset[name]) || 0;
  const pace = () => window.Cardroom.motionPace();
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  let running = null; // {finish} of the replay in progress, until its cards have landed
  let landed = Promise.resolve();

  const slotsOf = (trick) => Array.from(trick.querySelectorAll(":scope > .ht-slot"));

  const hand = () => document.getElementById("ht-hand");

  function finishRunning() {
    if (running) running.finish();
    running = null;
    flushDeferred();
  }

  // The numbers, the hearts-broken mark, the turn, the narration, the bar and the end-of-hand
  // dialog change when the replayed cards have landed, not before: their new pieces wait here
  // (the newest piece per id wins).
  // "Next hand" closes the hand's dialog at once, and its buttons cannot be pressed twice while
  // the answer (and the bots' first cards) come. A hand's dialog opens once: the one the page
  // shows stays as the player left it when a later answer carries it again (a refusal carries
  // every piece), and the dialog of a hand the player left never opens again.
  let left = null; // data-end of the dialog whose hand the player left
  const nextHandButtons = () => document.querySelectorAll("[data-action=next-hand]");
  function leaveHand() {
    const dialog = document.getElementById("ht-end-dialog");
    left = dialog?.dataset.end ?? null;
    dialog?.close();
    for (const button of nextHandButtons()) button.disabled = true;
  }
  document.addEventListener("cardroom:unsent", () => {
    for (const button of nextHandButtons()) button.disabled = false;
    left = null;
  });
  // (Registered before the hold below, so that a held dialog has been looked at.)
  window.Cardroom.pieces.on("ht-dialog", {
    before(fresh, old) {
      const dialog = fresh.querySelector("dialog[data-end]");
      if (!dialog) return false;
      if (dialog.dataset.end === left) dialog.removeAttribute("open");
      else if (old.querySelector("dialog")?.dataset.end === dialog.dataset.end) return true;
      return false;
    },
  });

  const deferred = new Map(); // id → {piece, inner}
  const DEFERRED = /^(ht-seat-\d|ht-(hp|tot|left)-\d|ht-info|ht-why|ht-bar|ht-dialog|status)$/;
  function flushDeferred() {
    if (running) return;
    for (const { piece, inner } of deferred.values()) window.Cardroom.pieces.put(piece, inner);
    deferred.clear();
    hand()?.removeAttribute("aria-busy");
  }

  window.Cardroom.pieces.on(DEFERRED, {
    before(piece, old, inner) {
      if (!running) return false;
      deferred.set(old.id, { piece, inner });
      return true;
    },
  });

  window.Cardroom.pieces.on("ht-trick", {
    before(fresh, old) {
      finishRunning();
      if (fresh.localName !== "template") {
        led = null;
        return false; // the whole table: swapped as it is
      }
      // The cards an action played: shown one by one on the table the page holds.
      hand()?.setAttribute("aria-busy", "true");
      window.Cardroom.say(fresh.dataset.say); // before the cards: an undo, the cards received
      landed = run(old, Array.from(fresh.content.children)).then(flushDeferred);
      return true;
    },
  });

  // An answer without cards to show: the hand is the player's again.
  document.addEventListener("htmx:afterRequest", () => {
    if (!running) hand()?.removeAttribute("aria-busy");
  });

  function setDone(trick, done) {
    if (done) trick.dataset.done = done;
    else delete trick.dataset.done;
    delete trick.dataset.gathered;
  }

  // A card as the table shows it (the table_card macro of templates/hearts/_pieces.html with
  // templates/_card.html's face), from its code, seat and name.
  function tableCard({ code, seat, label }) {
    const rank = code.slice(0, -1);
    const card = document.createElement("div");
    card.className = `card ${code.slice(-1).toLowerCase()}`;
    card.dataset.card = code;
    card.dataset.seat = seat;
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
    for (const tag of ["i", "b"]) {
      const part = document.createElement(tag);
      part.textContent = rank;
      card.append(part);
    }
    return card;
  }

  // One played card onto the table: a finished trick is cleared first; a card that ends a
  // trick (data-ends: the winner's seat) rings the winner's card.
  const stepOf = (step) => ({ code: step.dataset.card, seat: step.dataset.seat, label: step.textContent });

  // A card flies from where it was (a rectangle on the screen) to its place.
  function travel(card, from) {
    if (!pace() || !from) return;
    const to = card.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    card.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
      { duration: paceMs("travelMs") * pace(), easing: "ease-out" },
    );
  }

  function clearDone(trick) {
    if (!trick.dataset.done) return;
    slotsOf(trick).forEach((slot) => slot.replaceChildren());
    setDone(trick, null);
  }

  // The card the player just played, on the table before the server's answer (from
  // hearts-hand.js); the answer's first step then finds it there.
  let led = null;
  function lead(code, label, from) {
    finishRunning();
    const trick = document.getElementById("ht-trick");
    clearDone(trick);
    const card = tableCard({ code, seat: "0", label });
    slotsOf(trick)[0].replaceChildren(card);
    led = code;
    travel(card, from);
  }

  function place(trick, step, arrive) {
    const slots = slotsOf(trick);
    clearDone(trick);
    const seat = Number(step.dataset.seat);
    const card = tableCard(stepOf(step));
    const shown = arrive && seat === 0 && led === step.dataset.card;
    if (shown) led = null;
    // The card the tap already put there stays (it has landed once).
    if (!shown || slots[0].firstElementChild?.dataset.card !== card.dataset.card) {
      slots[seat].replaceChildren(card);
    }
    if (arrive && !shown) travel(card, document.getElementById(`ht-seat-${seat}`)?.getBoundingClientRect());
    const ends = step.dataset.ends;
    if (ends !== undefined) {
      slots[Number(ends)].querySelector(".card")?.setAttribute("data-won", "true");
      setDone(trick, "true");
    }
  }

  // A card landing takes one from its player's count of cards (the server sends a count only
  // when that does not give it, as in a new hand).
  function takeFromCount(step) {
    const count = document.getElementById(`ht-left-${step.dataset.seat}`);
    if (count) count.textContent = String(Number(count.textContent) - 1);
  }

  // Each card is said as it lands (a skipped replay says the rest at once: nothing is lost).
  // The player's own card is left out of "fewer announcements" (data-brief: the rest of its line).
  const tell = (step) => window.Cardroom.say(step.dataset.say, { brief: step.dataset.brief });

  async function run(trick, steps) {
    // The table after the last card, built at once: shown when the replay is cut short.
    const final = trick.cloneNode(true);
    for (const step of steps) place(final, step, false);
    let stopped = false;
    let shown = 0; // steps placed on the table
    const finish = () => {
      stopped = true;
      for (const step of steps.slice(shown)) {
        takeFromCount(step);
        tell(step);
      }
      shown = steps.length;
      slotsOf(final).forEach((slot, i) => { slotsOf(trick)[i].innerHTML = slot.innerHTML; });
      setDone(trick, final.dataset.done || null);
      if (steps.length) markTurn(turnAfter(steps[steps.length - 1]));
      window.Cardroom.pieces.drawn(trick);
    };
    const me = { finish };
    running = me;
    hintSkip();
    for (const [i, step] of steps.entries()) {
      if (stopped) break;
      place(trick, step, true);
      window.Cardroom.pieces.drawn(trick); // the trick's cards are the page's own drawing now
      takeFromCount(step);
      tell(step);
      shown = i + 1;
      const ends = step.dataset.ends;
      markTurn(turnAfter(step));
      if (ends !== undefined) {
        await wait(paceMs("trickPauseMs") * (pace() || 1));
        if (!stopped) await gather(trick, Number(ends));
      } else if (i < steps.length - 1) {
        await wait(paceMs("cardMs") * (pace() || 1));
      }
    }
    if (running === me) running = null;
  }

  // The first replay this browser sees says that a tap (or a click, with a mouse) on the table
  // skips it.
  function hintSkip() {
    const table = document.querySelector(".ht-table")?.dataset;
    const hint = matchMedia("(pointer: coarse)").matches ? table?.skipHint : table?.skipHintClick;
    if (!hint || localStorage.getItem("cardroom.skip-hint")) return;
    localStorage.setItem("cardroom.skip-hint", "shown");
    window.Cardroom.say(hint);
  }

  // Whose turn it is once a step's card is down: the trick's winner when it ends one.
  const turnAfter = (step) =>
    step.dataset.ends === undefined ? (Number(step.dataset.seat) + 1) % 4 : Number(step.dataset.ends);

  // The turn marker follows the replay (the seats' own pieces come when it has landed).
  function markTurn(seat) {
    for (const badge of document.querySelectorAll(".ht-seat")) {
      if (Number(badge.dataset.seat) === seat) badge.setAttribute("aria-current", "true");
      else badge.removeAttribute("aria-current");
    }
  }

  // A finished trick goes to its winner's seat; its cards stay in the page, out of sight, until
  // the next card (the last trick of a hand is the one the scores talk about).
  async function gather(trick, winner) {
    const seat = document.getElementById(`ht-seat-${winner}`)?.getBoundingClientRect();
    if (seat && pace()) {
      const flights = Array.from(trick.querySelectorAll(".card"), (card) => {
        const at = card.getBoundingClientRect();
        const dx = seat.left + seat.width / 2 - (at.left + at.width / 2);
        const dy = seat.top + seat.height / 2 - (at.top + at.height / 2);
        return card.animate(
          [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
          { duration: paceMs("travelMs") * pace(), easing: "ease-in", fill: "forwards" },
        ).finished.catch(() => {});
      });
      await Promise.all(flights);
    }
    if (trick.dataset.done) trick.dataset.gathered = "true";
  }

  // A play that never reached the server leaves the table.
  document.addEventListener("cardroom:unsent", () => {
    if (led) document.querySelector(`#ht-trick [data-card="${led}"]`)?.remove();
    led = null;
  });

  window.Cardroom = { ...window.Cardroom, table: { lead, skip: finishRunning, leaveHand } };

  // A tap on the table shows the end of the replay at once; not the second tap of a double tap
  // (on "Next hand", whose dialog has closed under it).
  document.addEventListener("click", (e) => {
    if (e.target.closest(".ht-table") && e.detail < 2) finishRunning();
  });

  // A match that is gone (expired) sends the player to the current one. (Refusals, 409, answer
  // with the table as it is now and are swapped like any answer: templates/base.html.)
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.xhr.status === 404 && document.getElementById("ht-hand")) location.assign("/hearts");
  });
})();
