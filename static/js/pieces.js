// Pieces arriving in the page, one way for both games and the live table. The server sends the
// pieces that changed (app/web/pieces.py) as out-of-band swaps, in an action's answer or a live
// table's event; each goes through here, and the scripts that registered for its id get it.
// No other script listens to htmx's out-of-band events, so their load order does not matter
// (this file is loaded first, by templates/base.html).
//
//   Cardroom.pieces.on(match, {before, after})   match: an element id, a RegExp tried on ids,
//     or "*" (every piece).
//     before(piece, target, inner): before the swap. true takes the piece: the script puts it
//       in itself (put(), now or later) or leaves it out. At most one script takes a piece.
//       piece: the new element; target: the one in the page; inner: only its content goes in.
//     after(el): the piece is in the page (el: the element there now).
//   Cardroom.pieces.take(html)          pieces that came another way (a live table's event)
//   Cardroom.pieces.put(piece, inner)   a piece a script held back, put in now
//   Cardroom.pieces.drawn(el)           a script redrew a piece by itself: the after hooks run
(() => {
  "use strict";
  const hooks = []; // {match, before, after}
  const fits = (match, id) =>
    match === "*" || (match instanceof RegExp ? match.test(id) : match === id);
  const hooksFor = (id, kind) => hooks.filter((hook) => hook[kind] && fits(hook.match, id));

  const on = (match, { before, after }) => hooks.push({ match, before, after });

  const drawn = (el) => {
    if (!el?.id) return;
    for (const hook of hooksFor(el.id, "after")) hook.after(el);
  };

  const put = (piece, inner = false) => {
    const old = document.getElementById(piece.id);
    if (!old) return;
    if (inner) {
      // The element stays (a live region keeps being read); only its content changes.
      old.replaceChildren(...piece.childNodes);
      drawn(old);
      return;
    }
    old.replaceWith(piece);
    htmx.process(piece); // its hx- attributes work like those htmx put in
    drawn(piece);
  };

  // htmx's swap details of the pieces being swapped → their ids.
  const swapping = new WeakMap();

  document.addEventListener("htmx:oobBeforeSwap", (e) => {
    const { target, fragment } = e.detail;
    // htmx hands a fragment holding the new element for a whole swap, and the new element
    // itself (whose content goes in) for the other swap styles.
    const inner = !(fragment instanceof DocumentFragment);
    const piece = inner ? fragment : fragment.firstElementChild;
    for (const hook of hooksFor(target.id, "before")) {
      if (hook.before(piece, target, inner)) {
        e.detail.shouldSwap = false;
        return;
      }
    }
    swapping.set(e.detail, target.id);
  });

  // htmx fires this again for every piece swapped earlier in the same answer: each once here.
  document.addEventListener("htmx:oobAfterSwap", (e) => {
    const id = swapping.get(e.detail);
    if (id === undefined) return;
    swapping.delete(e.detail);
    drawn(document.getElementById(id));
  });

  // htmx swaps the out-of-band pieces of any HTML, so these take the same path as an answer's.
  const take = (html) => htmx.swap(document.body, html, { swapStyle: "none" }, {});

  window.Cardroom = { ...window.Cardroom, pieces: { on, take, put, drawn } };
})();
