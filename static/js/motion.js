// Motion for Heart to Heart: a paired card fades out where it stood, and a card turned from the
// stock slides onto the waste. Nothing moves for players who ask for reduced motion.
// The server's out-of-band swaps replace elements outright, so the leaving card is a copy.
(function () {
  "use strict";
  var still = window.matchMedia("(prefers-reduced-motion: reduce)");
  var ghosts = [];
  var drew = false;

  function newElement(detail, id) {
    var fragment = detail.fragment;
    return fragment.firstElementChild && fragment.firstElementChild.id === id
      ? fragment.firstElementChild
      : fragment.querySelector("#" + id);
  }

  function rememberLeaving(card) {
    var ghost = card.cloneNode(true);
    ["id", "data-pos", "name", "value", "aria-pressed", "data-help"].forEach(function (name) {
      ghost.removeAttribute(name);
    });
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.classList.add("ghost");
    // Outside the heart (so the heart holds only its 25 places), at the card's spot on the board.
    var heart = card.parentElement;
    ghost.style.left = heart.offsetLeft + card.offsetLeft + "px";
    ghost.style.top = heart.offsetTop + card.offsetTop + "px";
    ghosts.push(ghost);
  }

  function flush() {
    var board = document.getElementById("h2h-board");
    ghosts.forEach(function (ghost) {
      if (!board) return;
      board.appendChild(ghost);
      ghost.animate(
        [{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-18%) scale(.8)" }],
        { duration: 220, easing: "ease-in" }
      ).onfinish = function () { ghost.remove(); };
    });
    ghosts = [];
    var waste = document.getElementById("h2h-waste");
    if (drew && waste && waste.matches("button")) {
      waste.animate(
        [{ transform: "translateX(-70%) rotateY(80deg)", opacity: .4 }, { transform: "none", opacity: 1 }],
        { duration: 200, easing: "ease-out" }
      );
    }
    drew = false;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (still.matches) return;
    var old = event.detail.target;
    var cards = old.id === "h2h-heart" ? old.querySelectorAll("button[data-pos]")
      : old.matches("button[data-pos]") ? [old] : [];
    Array.prototype.forEach.call(cards, function (card) {
      var next = newElement(event.detail, card.id);
      if (next && !next.matches("button")) rememberLeaving(card);
    });
    if (old.id === "h2h-stock") {
      var next = newElement(event.detail, "h2h-stock");
      var before = old.querySelector(".count"), after = next && next.querySelector(".count");
      drew = !!before && (!after || +after.textContent < +before.textContent);
    }
    if (ghosts.length || drew) setTimeout(flush, 0);
  });
})();
