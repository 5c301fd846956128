// Share a deal: links marked data-share open the system share sheet on phones, or copy the
// absolute link elsewhere, and say so in the status line. Without JavaScript they are links.
(() => {
  "use strict";
  const say = (text) => {
    const status = document.getElementById("status");
    if (status) status.textContent = text;
  };
  document.addEventListener("click", (e) => {
    const link = e.target.closest?.("a[data-share]");
    if (!link) return;
    const url = new URL(link.getAttribute("href"), location.href).href;
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      e.preventDefault();
      navigator.share({ title: document.title, url }).catch(() => {});
    } else if (navigator.clipboard && window.isSecureContext) {
      e.preventDefault();
      navigator.clipboard.writeText(url).then(() => say(link.dataset.copied));
    }
  });
})();
