// Menus (<details class="menu">) close on a tap anywhere outside them and on Escape; Escape
// puts the focus back on the menu's button.
(() => {
  "use strict";
  const openMenus = () => document.querySelectorAll("details.menu[open]");

  document.addEventListener("pointerdown", (e) => {
    for (const menu of openMenus()) {
      if (!menu.contains(e.target)) menu.open = false;
    }
  }, true);

  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    for (const menu of openMenus()) {
      menu.open = false;
      menu.querySelector("summary").focus();
      e.preventDefault();
    }
  });
})();
