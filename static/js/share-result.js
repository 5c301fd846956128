// "Share result": the text of the player's result and the deal's link, through the system
// share sheet on phones or the clipboard elsewhere; the status line says it was copied.
// Without JavaScript the button is a link to the deal.
(() => {
  "use strict";
  document.addEventListener("click", (e) => {
    const link = e.target.closest?.("a[data-share-result]");
    if (!link) return;
    const url = new URL(link.getAttribute("href"), location.href).href;
    const text = `${link.dataset.shareResult} ${url}`;
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      e.preventDefault();
      navigator.share({ text }).catch(() => {});
    } else if (navigator.clipboard && window.isSecureContext) {
      e.preventDefault();
      navigator.clipboard.writeText(text).then(() => {
        const status = document.getElementById("status");
        if (status) status.textContent = link.dataset.copied;
      });
    }
  });
})();
