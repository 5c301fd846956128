// Keyboard play for Heart to Heart, besides Tab and Enter on the cards themselves:
// D turns a card from the stock, W picks the waste, U (or Ctrl+Z) undoes, Escape lets go of
// the selected card. Keys do nothing while a dialog is open or a menu field has the focus.
(() => {
  "use strict";
  const keys = {
    d: '[data-pile="stock"]',
    w: '[data-pile="waste"]',
    u: "#h2h-undo button",
    escape: '#h2h-board [aria-pressed="true"]',
  };
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.metaKey || e.defaultPrevented) return;
    let key = e.key.toLowerCase();
    if (e.ctrlKey) {
      if (key !== "z") return;
      key = "u";
    }
    if (!keys[key] || document.querySelector("dialog[open]")) return;
    if (e.target.closest?.("input, select, textarea, details[open]")) return;
    const button = document.querySelector(keys[key]);
    if (!button) return;
    e.preventDefault();
    button.click();
  });
})();
