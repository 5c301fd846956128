// Taps in order, none waiting and none lost (both games).
//
// A game's script hands each action to Cardroom.taps.add(): what the page can know by itself
// shows at once (the action's `predict`), and the actions go to the server one after another,
// each once the previous answer is in the page, so each carries the version that answer gave
// (the source form's version field). The server stays the authority: before an answer is
// swapped in, every element a prediction changed goes back to what the server last drew
// (`touch` keeps a copy), the answer's pieces go in, and the predictions of the actions still
// waiting are drawn again on top, all in one task, so nothing flickers.
//
// A busy room (503, the bots' queue: app/web/hearts/thinking.py) did nothing, and its status
// line says the action goes again by itself: after the answer's Retry-After the same action is
// sent again, a tap at the head of the queue (its prediction drawn again meanwhile), any other
// request of the page (a hint, the next hand, a review) from its element.
(() => {
  "use strict";
  const pending = []; // {source: () => form, url, values, predict(first)}, oldest first
  const saved = new Map(); // id → a copy of the element as the server last drew it
  let answering = null; // the source element of the request on its way
  let refused = false; // the last answer was a refusal (409)
  let busy = 0; // the last answer was a busy room (503): milliseconds before it goes again

  const busyFor = (xhr) =>
    xhr.status === 503 ? (Number(xhr.getResponseHeader("Retry-After")) || 1) * 1000 : 0;
  const after = (ms) => new Promise((resume) => setTimeout(resume, ms));

  // Call before a prediction changes the element (it needs an id): the server's copy is kept.
  const touch = (el) => {
    if (el?.id && !saved.has(el.id)) saved.set(el.id, el.cloneNode(true));
  };

  // Put back what the server drew. The element itself stays when it can (focus, identity).
  const restore = () => {
    for (const [id, copy] of saved) {
      const el = document.getElementById(id);
      if (!el) continue;
      if (el.localName !== copy.localName) {
        el.replaceWith(copy);
        continue;
      }
      for (const { name } of Array.from(el.attributes)) {
        if (!copy.hasAttribute(name)) el.removeAttribute(name);
      }
      for (const { name, value } of Array.from(copy.attributes)) el.setAttribute(name, value);
      el.replaceChildren(...copy.childNodes);
      el.getAnimations?.({ subtree: true }).forEach((motion) => motion.cancel());
    }
    saved.clear();
  };

  let pumping = false;
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    while (pending.length) {
      const action = pending[0];
      const source = action.source();
      answering = source;
      refused = false;
      busy = 0;
      try {
        await htmx.ajax("POST", action.url, { source, values: action.values, swap: "none" });
      } catch {
        // No answer (the network is gone): the page shows the server's last word again, and the
        // taps that could not be sent are dropped, saying so.
        restore();
        pending.length = 0;
        document.dispatchEvent(new Event("cardroom:unsent"));
        window.Cardroom.say(document.getElementById("status")?.dataset.offline);
        break;
      } finally {
        answering = null;
      }
      if (busy) {
        for (const next of pending) next.predict?.(false);
        await after(busy);
        continue;
      }
      pending.shift();
      saved.clear();
      // A refusal (a stale version, a move out of turn) answers with the board as it is now and
      // its version: the taps still waiting were aimed at another board, so they go (the status
      // line says why). Otherwise the answer is the server's word and they show on top of it.
      if (refused) pending.length = 0;
      for (const next of pending) next.predict?.(false);
    }
    pumping = false;
    // Nothing on its way: what was held back for the answers may go in (hearts-live.js).
    document.dispatchEvent(new Event("cardroom:idle"));
  };

  // Every answer (a refusal or an error included) is swapped onto what the server drew.
  document.addEventListener("htmx:beforeOnLoad", (e) => {
    const { elt, xhr, requestConfig } = e.detail;
    if (!answering || elt !== answering) {
      const wait = busyFor(xhr);
      if (wait && requestConfig) {
        after(wait).then(() => {
          if (elt.isConnected) htmx.ajax(requestConfig.verb, requestConfig.path, { source: elt });
        });
      }
      return;
    }
    refused = xhr.status === 409;
    busy = busyFor(xhr);
    restore();
  });

  // How many actions are on their way or waiting (tests and scripts may ask).
  const waiting = () => pending.length;

  const add = (action) => {
    action.predict?.(true);
    pending.push(action);
    pump();
  };

  window.Cardroom = { ...window.Cardroom, taps: { add, touch, waiting } };
})();
