// Dialogs: the server sends <dialog open data-modal>; here they become modal (focus trapped,
// backdrop). Without JavaScript they stay open in the page and still work.
// A button with data-open="id" opens that dialog (closing the one it sits in); a button with
// data-close closes its own. Pieces that arrive (static/js/pieces.js) are upgraded too, those
// a script held back included (the Hearts table holds its dialogs until the cards land).
// Every dialog opens scrolled to its top, its heading in view (its buttons stay at its bottom
// edge: app.css); Escape and a tap on the backdrop close it, unless it is marked data-sticky:
// a question that must be answered.
(() => {
  "use strict";
  const open = (dialog) => {
    dialog.showModal();
    // Focusing a button low in a tall dialog must not leave the heading scrolled away.
    dialog.scrollTop = 0;
  };

  const upgrade = (root) => {
    const dialogs = root.matches?.("dialog[open][data-modal]")
      ? [root]
      : root.querySelectorAll?.("dialog[open][data-modal]") ?? [];
    for (const dialog of dialogs) {
      if (dialog.matches(":modal")) continue;
      dialog.close();
      open(dialog);
    }
  };

  document.addEventListener("DOMContentLoaded", () => upgrade(document));
  window.Cardroom.pieces.on("*", { after: upgrade });
  document.addEventListener("cancel", (e) => {
    if (e.target.matches?.("dialog[data-sticky]")) e.preventDefault();
  }, true);

  // A tap on the backdrop reaches the dialog itself, outside its box.
  const onBackdrop = (dialog, e) => {
    const box = dialog.getBoundingClientRect();
    return e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom;
  };

  document.addEventListener("click", (e) => {
    const opener = e.target.closest?.("[data-open]");
    if (opener) {
      const dialog = document.getElementById(opener.dataset.open);
      opener.closest("dialog")?.close();
      if (dialog && !dialog.open) open(dialog);
      return;
    }
    if (e.target.matches?.("dialog:modal:not([data-sticky])") && onBackdrop(e.target, e)) {
      e.target.close();
      return;
    }
    e.target.closest?.("dialog [data-close]")?.closest("dialog").close();
  });
})();
