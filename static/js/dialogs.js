// Dialogs: the server sends <dialog open data-modal>; here they become modal (focus trapped,
// backdrop, Escape closes). Without JavaScript they stay open in the page and still work.
(function () {
  "use strict";
  function upgrade(root) {
    var dialogs = root.querySelectorAll ? root.querySelectorAll("dialog[open][data-modal]") : [];
    if (root.matches && root.matches("dialog[open][data-modal]")) dialogs = [root];
    Array.prototype.forEach.call(dialogs, function (dialog) {
      if (dialog.matches(":modal")) return;
      dialog.close();
      dialog.showModal();
    });
  }
  document.addEventListener("DOMContentLoaded", function () { upgrade(document); });
  // htmx:load fires for every piece htmx puts in the page, out-of-band pieces included.
  document.addEventListener("htmx:load", function (event) { upgrade(event.target); });
  // A dialog marked data-sticky asks a question that must be answered: Escape does not close it.
  document.addEventListener("cancel", function (event) {
    if (event.target.matches && event.target.matches("dialog[data-sticky]")) event.preventDefault();
  }, true);
})();
