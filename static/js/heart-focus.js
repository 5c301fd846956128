// Heart to Heart with a keyboard: the heart is one Tab stop (a roving tabindex, as the Hearts
// hand), the arrow keys move between its cards by where they lie, Home and End go to the first
// and the last; and the focus stays in the game when a tap takes its button away (a pair
// leaves, a card or the stock is drawn again): the same control when it is back, else the
// nearest card of the heart, else the stock.
(() => {
  "use strict";
  const heart = () => document.getElementById("h2h-heart");
  const cardsOf = () => Array.from(heart()?.querySelectorAll("button.card") ?? []);
  const position = (el) => Number(el.dataset.pos);
  const usable = (el) => el.getAttribute("aria-disabled") !== "true";

  let roving = null; // the id of the heart card the arrows last reached
  let kept = null; // the id of the game's control that had the focus last

  function rove() {
    const cards = cardsOf();
    const stop = cards.find((card) => card.id === roving) ?? cards.find(usable) ?? cards[0];
    for (const card of cards) card.tabIndex = card === stop ? 0 : -1;
  }

  document.addEventListener("focusin", (e) => {
    const control = e.target.closest?.("#h2h-board button, #h2h-undo button");
    if (!control) return;
    kept = control.id || control.closest("[id]").id;
    if (heart()?.contains(control)) {
      roving = control.id;
      rove();
    }
  });

  // A tap or click elsewhere lets go: the page does not pull the focus back.
  document.addEventListener("pointerdown", (e) => {
    if (!e.target.closest?.("#h2h-board, #h2h-undo")) kept = null;
  }, true);

  // The card nearest to ``from`` in the direction (dx, dy), by the cards' centres; across the
  // direction counts twice as much as along it.
  function nearest(from, dx, dy) {
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x, y] = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const card of cardsOf()) {
      if (card === from) continue;
      const [cx, cy] = centre(card);
      const along = (cx - x) * dx + (cy - y) * dy;
      if (along <= 1) continue;
      const across = Math.abs((cx - x) * dy) + Math.abs((cy - y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) [best, bestScore] = [card, score];
    }
    return best;
  }

  const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", (e) => {
    const card = e.target.closest?.("#h2h-heart button.card");
    if (!card || e.altKey || e.ctrlKey || e.metaKey) return;
    const cards = cardsOf();
    let next = null;
    if (e.key === "Home") next = cards[0];
    else if (e.key === "End") next = cards[cards.length - 1];
    else if (DIRECTIONS[e.key]) next = nearest(card, ...DIRECTIONS[e.key]);
    else return;
    e.preventDefault();
    next?.focus();
  });

  // The focus went with its button: put it back.
  function keep() {
    rove();
    if (!kept || (document.activeElement && document.activeElement !== document.body)) return;
    if (document.querySelector("dialog[open]")) return;
    const same = document.getElementById(kept);
    let target = same?.matches("button") ? same : same?.querySelector("button");
    if (!target && /^p\d+$/.test(kept)) {
      const at = Number(kept.slice(1));
      const cards = cardsOf().sort((a, b) => Math.abs(position(a) - at) - Math.abs(position(b) - at));
      target = cards.find(usable) ?? cards[0];
    }
    (target ?? document.getElementById("h2h-stock"))?.focus();
  }
  // After the page's own drawing of a tap (static/js/heart-to-heart-taps.js, in the same click)
  // and after every piece of an answer.
  document.addEventListener("click", (e) => {
    if (e.target.closest?.("#h2h-board, .bar")) keep();
  }, true);
  window.Cardroom.pieces.on("*", { after: keep });
  document.addEventListener("DOMContentLoaded", rove);
})();
