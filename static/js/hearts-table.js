// The Hearts table: shows the cards an action played one by one (the server sends them all at
// once, in order, in a <template>), opens the hand/match dialogs when the cards have landed,
// lets refused actions (409) redraw the table, and copies the deal link.
(() => {
  "use strict";
  const CARD_DELAY = 450; // between two cards: fast enough not to bore, slow enough to follow
  const TRICK_PAUSE = 1100; // a finished trick stays in view before the next card
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  let replay = null; // {slots, done, steps, token} prepared before the swap
  let running = null; // {token, finish} of the replay in progress
  let landed = Promise.resolve();

  const slotsOf = (trick) => Array.from(trick.querySelectorAll(":scope > .ht-slot"));

  function finishRunning() {
    if (running) running.finish();
    running = null;
    flushDeferred();
  }

  // The scores, the hearts-broken mark and the narration change when the replayed cards have
  // landed, not before: their new pieces wait here (the newest piece per id wins).
  const deferred = new Map();
  const DEFERRED = /^(ht-seat-\d|ht-left-\d|ht-info|status)$/;
  function flushDeferred() {
    if (running || replay) return;
    for (const apply of deferred.values()) apply();
    deferred.clear();
  }

  // Before a new trick piece goes in: put the table back as it was, and keep the final state.
  document.addEventListener("htmx:oobBeforeSwap", (e) => {
    const old = e.detail.target;
    if (DEFERRED.test(old?.id || "") && (replay || running)) {
      e.detail.shouldSwap = false;
      if (old.id === "status") {
        // The live region stays; only its words change (so screen readers read them).
        const words = e.detail.fragment.textContent;
        deferred.set(old.id, () => { old.textContent = words; });
      } else {
        const piece = e.detail.fragment.firstElementChild.cloneNode(true);
        deferred.set(old.id, () => document.getElementById(old.id)?.replaceWith(piece));
      }
      return;
    }
    if (old?.id !== "ht-trick") return;
    finishRunning();
    const fresh = e.detail.fragment.querySelector?.("#ht-trick") || e.detail.fragment.firstElementChild;
    const template = fresh?.querySelector("template.ht-steps");
    if (!template) return;
    const before = slotsOf(old).map((slot) => slot.innerHTML);
    replay = {
      steps: Array.from(template.content.querySelectorAll(".ht-step")),
      final: slotsOf(fresh).map((slot) => slot.innerHTML),
      finalDone: fresh.dataset.done || null,
      startDone: old.dataset.done || null,
    };
    slotsOf(fresh).forEach((slot, i) => { slot.innerHTML = before[i]; });
    setDone(fresh, replay.startDone);
  });

  function setDone(trick, done) {
    if (done) trick.dataset.done = done;
    else delete trick.dataset.done;
  }

  async function run(trick, plan) {
    let stopped = false;
    const slots = slotsOf(trick);
    const finish = () => {
      stopped = true;
      slots.forEach((slot, i) => { slot.innerHTML = plan.final[i]; });
      setDone(trick, plan.finalDone);
    };
    running = { finish };
    let full = plan.startDone === "true";
    for (const [i, step] of plan.steps.entries()) {
      if (stopped) return;
      if (full) {
        slots.forEach((slot) => { slot.innerHTML = ""; });
        setDone(trick, null);
        full = false;
      }
      const card = step.firstElementChild.cloneNode(true);
      card.setAttribute("data-arrive", "");
      slots[Number(card.dataset.seat)].replaceChildren(card);
      if (step.dataset.winner !== undefined) {
        slots[Number(step.dataset.winner)].querySelector(".card")?.setAttribute("data-won", "true");
        setDone(trick, "true");
        full = true;
      }
      if (i < plan.steps.length - 1) await wait(full ? TRICK_PAUSE : CARD_DELAY);
    }
    if (stopped) return;
    finish();
    running = null;
    // The last trick of a hand stays in view a moment before the scores cover it.
    if (full) await wait(TRICK_PAUSE);
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
    if (el.id === "ht-trick" && replay) {
      const plan = replay;
      replay = null;
      landed = run(el, plan).then(flushDeferred);
    } else if (el.id === "ht-dialog") {
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
        await navigator.clipboard.writeText(copy.dataset.copy);
        copy.dataset.copied = "true";
        setTimeout(() => { delete copy.dataset.copied; }, 1500);
      } catch {
        // Without clipboard access, select the code so the player can copy it by hand.
        getSelection().selectAllChildren(copy.querySelector("[data-info=deal]"));
      }
    }
  });
})();
