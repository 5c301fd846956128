// Sharing: a link marked data-share (a deal, a table's invitation) shares its address; one
// marked data-share-result ("Share result") shares that text followed by the address. Phones
// open the system share sheet; elsewhere it is copied and the status line says so (data-copied).
// Without JavaScript they are links.
(() => {
  "use strict";
  document.addEventListener("click", (e) => {
    const link = e.target.closest?.("a[data-share], a[data-share-result]");
    if (!link) return;
    const url = new URL(link.getAttribute("href"), location.href).href;
    const result = link.dataset.shareResult;
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      e.preventDefault();
      const shared = result === undefined ? { title: document.title, url } : { text: `${result} ${url}` };
      navigator.share(shared).catch(() => {});
    } else if (navigator.clipboard && window.isSecureContext) {
      e.preventDefault();
      const text = result === undefined ? url : `${result} ${url}`;
      navigator.clipboard.writeText(text).then(() => window.Cardroom.say(link.dataset.copied));
    }
  });
})();
