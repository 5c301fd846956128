// Placement help for Heart to Heart answers: a tap's answer does not resend every card whose
// outline or dimming alone changed (a selection dims nearly all of them); it sends #h2h-help,
// whose data-outlined / data-dimmed list the places ("3 7 24 waste"), and this sets each
// card's data-help from it. Cards that do arrive carry their own data-help already, and the
// full page renders it on every card (no script needed).
(function () {
  "use strict";

  function places(help, name) {
    return new Set((help.getAttribute(name) || "").split(" "));
  }

  function apply(help) {
    var outlined = places(help, "data-outlined");
    var dimmed = places(help, "data-dimmed");
    document.querySelectorAll("#h2h-heart button[data-pos], #h2h-waste").forEach(function (card) {
      var place = card.id === "h2h-waste" ? "waste" : card.dataset.pos;
      var value = dimmed.has(place) ? "dimmed" : outlined.has(place) ? "outlined" : null;
      if (value === null) card.removeAttribute("data-help");
      else if (card.getAttribute("data-help") !== value) card.setAttribute("data-help", value);
    });
  }

  // Runs right after each out-of-band swap, before the browser paints.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id === "h2h-help") apply(event.target);
  });
})();
