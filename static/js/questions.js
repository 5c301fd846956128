// Questions with one key or one button (templates/_ask.html): the answer is the server's words
// in the game's hidden answers piece (app/web/hearts/table.py and
// app/web/heart_to_heart/board.py, answers), said through Cardroom.say. "?" opens the list of
// keys. Letter keys are plain keys, taken only when no modifier is held, no dialog but the
// list is open and no field has the focus; screen readers keep them in browse mode and pass
// them in focus mode (the README says why).
(() => {
  "use strict";
  function answer(button) {
    const asked = button.dataset.ask;
    button.closest("dialog")?.close();
    if (asked === "hint") {
      document.querySelector('button[data-action="hint"]')?.click();
      return;
    }
    // The cards still showing one by one are said first, so the answer is about the table as
    // it is now.
    window.Cardroom.table?.skip();
    const text = document.querySelector(`[data-answer="${asked}"]`)?.textContent;
    window.Cardroom.say(text);
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest?.("#ask-dialog [data-ask]");
    if (button) answer(button);
    // Opened from a menu: the menu closes behind the dialog.
    const menu = e.target.closest?.('[data-open="ask-dialog"]')?.closest("details.menu");
    if (menu) menu.open = false;
  });

  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || e.key.length !== 1) return;
    if (e.target.closest?.("input, select, textarea, details[open]")) return;
    const list = document.getElementById("ask-dialog");
    if (!list) return;
    const open = document.querySelector("dialog[open]");
    if (open && open !== list) return;
    if (e.key === "?") {
      e.preventDefault();
      if (!list.open) list.showModal();
      return;
    }
    const button = list.querySelector(`[data-key="${CSS.escape(e.key.toUpperCase())}"]`);
    if (!button) return;
    e.preventDefault();
    answer(button);
  });
})();
