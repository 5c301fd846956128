// Share a deal: links marked data-share open the system share sheet on phones, or copy the
// absolute link elsewhere, and say so in the status line. Without JavaScript they are links.
(function () {
  "use strict";
  function say(text) {
    var status = document.getElementById("status");
    if (status) status.textContent = text;
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-share]") : null;
    if (!link) return;
    var url = new URL(link.getAttribute("href"), location.href).href;
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      event.preventDefault();
      navigator.share({ title: document.title, url: url }).catch(function () {});
    } else if (navigator.clipboard && window.isSecureContext) {
      event.preventDefault();
      navigator.clipboard.writeText(url).then(function () { say(link.dataset.copied); });
    }
  });
})();
