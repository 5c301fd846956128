// The Hearts table: shows the cards an action played one by one (the server sends them all at
// once, in order, in a <template> in place of the trick; the final table is built from them),
// opens the hand/match dialogs when the cards have landed, lets refused actions (409) redraw
// the table, and copies the deal link.
(() => {
  "use strict";
  const CARD_DELAY = 450; // between two cards: fast enough not to bore, slow enough to follow
  const TRICK_PAUSE = 1100; // a finished trick stays in view before the next card
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  let running = null; // {finish} of the replay in progress, until its cards have landed
  let landed = Promise.resolve();

  const slotsOf = (trick) => Array.from(trick.querySelectorAll(":scope > .ht-slot"));

  function finishRunning() {
    if (running) running.finish();
    running = null;
    flushDeferred();
  }

  // The numbers, the hearts-broken mark, the turn and the narration change when the replayed
  // cards have landed, not before: their new pieces wait here (the newest piece per id wins).
  const deferred = new Map();
  const DEFERRED = /^(ht-seat-\d|ht-(hp|tot|left)-\d|ht-info|status)$/;
  function flushDeferred() {
    if (running) return;
    for (const apply of deferred.values()) apply();
    deferred.clear();
  }

  document.addEventListener("htmx:oobBeforeSwap", (e) => {
    const old = e.detail.target;
    // htmx hands over a fragment holding the new element for a whole swap, and the new
    // element itself (whose content goes in) for hx-swap-oob="innerHTML".
    const whole = e.detail.fragment instanceof DocumentFragment;
    const fresh = whole ? e.detail.fragment.firstElementChild : e.detail.fragment;
    if (DEFERRED.test(old?.id || "") && running) {
      e.detail.shouldSwap = false;
      const id = old.id;
      const piece = fresh.cloneNode(true);
      deferred.set(id, whole
        ? () => document.getElementById(id)?.replaceWith(piece)
        // The element stays (a live region keeps being read); only its content changes.
        : () => document.getElementById(id)?.replaceChildren(...piece.childNodes));
      return;
    }
    if (old?.id !== "ht-trick") return;
    finishRunning();
    if (fresh?.localName !== "template") return; // the whole table: htmx swaps it
    // The cards an action played: shown one by one on the table the page holds.
    e.detail.shouldSwap = false;
    landed = run(old, Array.from(fresh.content.children)).then(flushDeferred);
  });

  function setDone(trick, done) {
    if (done) trick.dataset.done = done;
    else delete trick.dataset.done;
  }

  // A step as the card the table shows (the table_card macro of templates/hearts/_pieces.html
  // with templates/_card.html's face): a step carries only the code, the seat and the name.
  function tableCard(step) {
    const code = step.dataset.card;
    const rank = code.slice(0, -1);
    const card = document.createElement("div");
    card.className = `card ${code.slice(-1).toLowerCase()}`;
    card.dataset.card = code;
    card.dataset.seat = step.dataset.seat;
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", step.textContent);
    for (const tag of ["i", "b"]) {
      const part = document.createElement(tag);
      part.textContent = rank;
      card.append(part);
    }
    return card;
  }

  // One played card onto the table: a finished trick is cleared first; a card that ends a
  // trick (data-ends: the winner's seat) rings the winner's card.
  function place(trick, step, arrive) {
    const slots = slotsOf(trick);
    if (trick.dataset.done) {
      slots.forEach((slot) => slot.replaceChildren());
      setDone(trick, null);
    }
    const card = tableCard(step);
    if (arrive) card.setAttribute("data-arrive", "");
    slots[Number(step.dataset.seat)].replaceChildren(card);
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

  async function run(trick, steps) {
    // The table after the last card, built at once: shown when the replay is cut short.
    const final = trick.cloneNode(true);
    for (const step of steps) place(final, step, false);
    let stopped = false;
    let shown = 0; // steps placed on the table
    const finish = () => {
      stopped = true;
      steps.slice(shown).forEach(takeFromCount);
      shown = steps.length;
      slotsOf(final).forEach((slot, i) => { slotsOf(trick)[i].innerHTML = slot.innerHTML; });
      setDone(trick, final.dataset.done || null);
    };
    const me = { finish };
    running = me;
    for (const [i, step] of steps.entries()) {
      if (stopped) break;
      place(trick, step, true);
      takeFromCount(step);
      shown = i + 1;
      if (i < steps.length - 1) await wait(trick.dataset.done ? TRICK_PAUSE : CARD_DELAY);
    }
    if (!stopped) {
      finish();
      // The last trick of a hand stays in view a moment before the scores cover it.
      if (trick.dataset.done) await wait(TRICK_PAUSE);
    }
    if (running === me) running = null;
  }

  // A tap on the table shows the end of the replay at once.
  document.addEventListener("click", (e) => {
    if (e.target.closest(".ht-table")) finishRunning();
  });

  function openDialogs(root) {
    const dialogs = root.matches?.("dialog[open]") ? [root] : root.querySelectorAll?.("dialog[open]") || [];
    for (const dialog of dialogs) {
      // Server-drawn dialogs come open; reopen them as modal (backdrop, Escape, focus trap).
      if (!dialog.matches(":modal")) {
        dialog.close();
        dialog.showModal();
      }
    }
  }

  document.addEventListener("htmx:load", (e) => {
    const el = e.target;
    if (el.id === "ht-dialog") {
      landed.then(() => openDialogs(el));
    } else if (el === document.body) {
      openDialogs(document);
    }
  });

  // Refused actions (409: stale version, illegal card) answer with the table as it is now.
  // A match that is gone (expired) sends the player to the current one.
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.xhr.status === 409) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    } else if (e.detail.xhr.status === 404 && document.getElementById("ht-hand")) {
      location.assign("/hearts");
    }
  });

  document.addEventListener("click", async (e) => {
    const opener = e.target.closest("[data-open]");
    if (opener) {
      const dialog = document.getElementById(opener.dataset.open);
      opener.closest("dialog")?.close();
      if (dialog && !dialog.open) dialog.showModal();
      return;
    }
    const closer = e.target.closest("dialog [data-close]");
    if (closer) {
      closer.closest("dialog").close();
      return;
    }
    const copy = e.target.closest(".ht-code[data-copy]");
    if (copy) {
      try {
        // The link may be relative (no public address is configured): copy it whole.
        await navigator.clipboard.writeText(new URL(copy.dataset.copy, location.href).href);
        copy.dataset.copied = "true";
        setTimeout(() => { delete copy.dataset.copied; }, 1500);
      } catch {
        // Without clipboard access, select the code so the player can copy it by hand.
        getSelection().selectAllChildren(copy.querySelector("[data-info=deal]"));
      }
    }
  });
})();
