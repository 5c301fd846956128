// A table with friends, live: one event stream per page (the API's events, each the table's
// version), closed while the page is hidden and opened again when it is shown. A change the
// page has not seen fetches the pieces since its version (the cards played since come first,
// shown one by one by hearts-table.js); before the match starts, the page is drawn afresh.
(() => {
  "use strict";
  const root = document.querySelector(".tb[data-events]");
  if (!root) return;
  const started = root.dataset.started === "true";
  let source = null;

  const held = () => Number(document.getElementById("ht-version")?.value || root.dataset.version);

  function onEvent(e) {
    const view = JSON.parse(e.data);
    if (view.started !== started) { location.reload(); return; }
    if (view.version <= held()) return;
    if (!started) { location.reload(); return; }
    htmx.ajax("GET", `${root.dataset.pieces}?after=${held()}`, { swap: "none" });
  }

  function open() {
    if (source) return;
    source = new EventSource(root.dataset.events);
    source.onmessage = onEvent;
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) close(); else open();
  });
  if (!document.hidden) open();
})();
