// Dialogs: the server sends <dialog open data-modal>; here they become modal (focus trapped,
// backdrop, Escape closes). Without JavaScript they stay open in the page and still work.
// A button with data-open="id" opens that dialog (closing the one it sits in); a button with
// data-close closes its own. Pieces that arrive (static/js/pieces.js) are upgraded too, those
// a script held back included (the Hearts table holds its dialogs until the cards land).
(() => {
  "use strict";
  const upgrade = (root) => {
    const dialogs = root.matches?.("dialog[open][data-modal]")
      ? [root]
      : root.querySelectorAll?.("dialog[open][data-modal]") ?? [];
    for (const dialog of dialogs) {
      if (dialog.matches(":modal")) continue;
      dialog.close();
      dialog.showModal();
    }
  };

  document.addEventListener("DOMContentLoaded", () => upgrade(document));
  window.Cardroom.pieces.on("*", { after: upgrade });
  // A dialog marked data-sticky asks a question that must be answered: Escape does not close it.
  document.addEventListener("cancel", (e) => {
    if (e.target.matches?.("dialog[data-sticky]")) e.preventDefault();
  }, true);

  document.addEventListener("click", (e) => {
    const opener = e.target.closest?.("[data-open]");
    if (opener) {
      const dialog = document.getElementById(opener.dataset.open);
      opener.closest("dialog")?.close();
      if (dialog && !dialog.open) dialog.showModal();
      return;
    }
    e.target.closest?.("dialog [data-close]")?.closest("dialog").close();
  });
})();
