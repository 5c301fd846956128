// Hint marks (both games): a hint's answer brings a hidden piece listing what to tap
// (data-targets: "heart:7 waste", "stock", or Hearts cards "QS 2C"), and this sets data-hint on
// those elements while the answer is swapped in, before the browser paints. A mark goes when
// its element is tapped or redrawn; a tap elsewhere, or undo, clears them all.
(() => {
  "use strict";
  const MARKS = ["h2h-hint", "ht-hint-marks"];

  const elementFor = (target) => {
    if (target === "stock" || target === "waste") {
      return document.querySelector(`[data-pile="${target}"]`);
    }
    if (target.startsWith("heart:")) {
      return document.querySelector(`#h2h-heart [data-pos="${target.slice(6)}"]`);
    }
    return document.querySelector(`#ht-hand [data-card="${CSS.escape(target)}"]`);
  };

  const clear = () => {
    for (const el of document.querySelectorAll("[data-hint]")) el.removeAttribute("data-hint");
  };

  const apply = (marks) => {
    clear();
    for (const target of (marks.dataset.targets || "").split(" ")) {
      if (target) elementFor(target)?.setAttribute("data-hint", "true");
    }
  };

  for (const id of MARKS) window.Cardroom.pieces.on(id, { after: apply });
  document.addEventListener("DOMContentLoaded", () => {
    for (const id of MARKS) {
      const marks = document.getElementById(id);
      if (marks) apply(marks);
    }
  });

  // On the window, so this runs before the games' tap scripts (on the document) whatever the
  // load order, and a tapped mark is gone from the copy they keep of the element.
  window.addEventListener("click", (e) => {
    const el = e.target.closest?.("button");
    if (!el || el.dataset.action === "hint") return;
    if (el.hasAttribute("data-hint")) el.removeAttribute("data-hint");
    else if (el.closest("#h2h-board, #ht-hand") || el.getAttribute("form") === "h2h-board") clear();
  }, true);
})();
