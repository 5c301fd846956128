// Heart to Heart taps: each tap on the board shows at once what the page can tell by itself
// (a selection, a pair leaving the heart, the stock count going down with a card turning onto
// the waste), then goes to the server through Cardroom.taps, which sends the taps in order and
// lets the answer correct the page. Motion follows the animation speed setting (none for players
// who ask for reduced motion and chose no speed).
// Without JavaScript the board is a plain form and every tap posts it.
(() => {
  "use strict";
  const pace = () => window.Cardroom.motionPace();
  const taps = () => window.Cardroom.taps;

  const board = () => document.getElementById("h2h-board");
  const rankOf = (card) => card.querySelector("i")?.textContent || null;
  const isCard = (el) => el?.localName === "button" && el.getAttribute("aria-disabled") !== "true";
  const selected = () => board().querySelector('[name="target"][aria-pressed="true"]');
  const elementOf = (target) =>
    document.getElementById(target === "waste" ? "h2h-waste" : `p${target.split(":")[1]}`);

  function press(card, on) {
    taps().touch(card);
    if (on) card.setAttribute("aria-pressed", "true");
    else card.removeAttribute("aria-pressed");
  }

  // A copy of the card fades where it stood (the card itself is gone from the heart at once).
  function fadeOut(card) {
    const ghost = card.cloneNode(true);
    for (const name of ["id", "data-pos", "name", "value", "aria-pressed", "data-help"]) {
      ghost.removeAttribute(name);
    }
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.classList.add("ghost");
    const place = board().getBoundingClientRect();
    const at = card.getBoundingClientRect();
    ghost.style.left = `${at.left - place.left}px`;
    ghost.style.top = `${at.top - place.top}px`;
    board().append(ghost);
    ghost.animate(
      [{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-18%) scale(.8)" }],
      { duration: 220 * pace(), easing: "ease-in" },
    ).onfinish = () => ghost.remove();
  }

  // The waste while its card is unknown to the page (still turning, or under a paired card).
  function blankWaste(look) {
    const waste = document.getElementById("h2h-waste");
    taps().touch(waste);
    const blank = document.createElement(look === "back" ? "button" : "span");
    blank.id = "h2h-waste";
    blank.className = `card pile ${look}`;
    blank.setAttribute("aria-label", waste.getAttribute("aria-label") || "");
    if (look === "back") {
      Object.assign(blank, { name: "target", value: "waste" });
      blank.dataset.pile = "waste";
    } else {
      blank.setAttribute("role", "img");
    }
    waste.replaceWith(blank);
    return blank;
  }

  function leave(card, animate) {
    if (card.id === "h2h-waste") {
      blankWaste("empty");
      return;
    }
    if (animate && pace()) fadeOut(card);
    taps().touch(card);
    const gap = document.createElement("span");
    gap.id = card.id;
    gap.className = "gap";
    card.replaceWith(gap);
  }

  function turnStock(animate) {
    const stock = document.getElementById("h2h-stock");
    if (!isCard(stock)) return;
    const count = stock.querySelector(".count");
    taps().touch(stock);
    if (!count) {
      // A redeal: the waste turns over and becomes the stock (its count comes with the answer).
      stock.className = "card pile back";
      stock.replaceChildren();
      blankWaste("empty");
      return;
    }
    const left = Number(count.textContent) - 1;
    if (left > 0) {
      count.textContent = String(left);
    } else {
      stock.className = "card pile empty";
      const turn = document.createElement("span");
      turn.className = "turn";
      turn.setAttribute("aria-hidden", "true");
      turn.textContent = "↻";
      stock.replaceChildren(turn);
    }
    const waste = blankWaste("back");
    if (animate && pace()) {
      const from = stock.getBoundingClientRect();
      const to = waste.getBoundingClientRect();
      // While it flies from the stock, the card must not catch the next quick tap on the stock.
      waste.style.pointerEvents = "none";
      waste.animate(
        [{ transform: `translateX(${from.left - to.left}px) rotateY(80deg)` }, { transform: "none" }],
        { duration: 200 * pace(), easing: "ease-out" },
      ).onfinish = () => waste.style.removeProperty("pointer-events");
    }
  }

  // A covered card shakes and the status line says why (the tap still goes to the server,
  // which changes nothing).
  function refuse(card) {
    document.dispatchEvent(new CustomEvent("cardroom:refused")); // static/js/sound.js buzzes
    if (pace()) {
      card.animate([{ translate: "0 0" }, { translate: "-4px 0" }, { translate: "4px 0" },
        { translate: "0 0" }], { duration: 240 * pace() });
    }
    window.Cardroom.say(board().dataset.covered, { urgent: true });
  }

  // The spec's selection rules, as far as the page can see them.
  function predict(target, animate) {
    if (target === "stock") {
      const chosen = selected();
      if (chosen?.id === "h2h-waste") press(chosen, false);
      turnStock(animate);
      return;
    }
    const card = elementOf(target);
    if (!isCard(card)) return;
    const chosen = selected();
    if (!chosen) press(card, true);
    else if (chosen === card) press(card, false);
    else if (!rankOf(chosen) || !rankOf(card)) return; // a card still turning: the answer tells
    else if (rankOf(chosen) !== rankOf(card)) {
      press(chosen, false);
      press(card, true);
    } else {
      leave(chosen, animate);
      leave(card, animate);
    }
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest?.(
      '#h2h-board button[name="target"], button[hx-post][form="h2h-board"]',
    );
    if (!button || !board()) return;
    e.preventDefault();
    e.stopPropagation();
    const source = board;
    if (button.getAttribute("aria-disabled") === "true" && button.dataset.pos) refuse(button);
    if (button.name === "target") {
      const target = button.value;
      taps().add({
        source,
        url: board().getAttribute("hx-post"),
        values: { target },
        predict: (first) => predict(target, first),
      });
    } else {
      taps().add({ source, url: button.getAttribute("hx-post"), values: {} });
    }
  }, true);
})();
