// Placement help for Heart to Heart answers: a tap's answer does not resend every card whose
// outline or dimming alone changed (a selection dims nearly all of them); it sends #h2h-help,
// whose data-outlined / data-dimmed list the places ("3 7 24 waste"), and this sets each
// card's data-help from it. Cards that do arrive carry their own data-help already, and the
// full page renders it on every card (no script needed).
(() => {
  "use strict";
  const places = (help, name) => new Set((help.getAttribute(name) || "").split(" "));

  const apply = (help) => {
    const outlined = places(help, "data-outlined");
    const dimmed = places(help, "data-dimmed");
    for (const card of document.querySelectorAll("#h2h-heart button[data-pos], #h2h-waste")) {
      const place = card.id === "h2h-waste" ? "waste" : card.dataset.pos;
      const value = dimmed.has(place) ? "dimmed" : outlined.has(place) ? "outlined" : null;
      if (value === null) card.removeAttribute("data-help");
      else if (card.getAttribute("data-help") !== value) card.setAttribute("data-help", value);
    }
  };

  // Runs right after the piece is swapped in, before the browser paints.
  window.Cardroom.pieces.on("h2h-help", { after: apply });
})();
