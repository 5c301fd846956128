// Sound and vibration, by the player's settings (<body data-sound|data-vibration="on">).
// Sounds are made here with the Web Audio API, no files. The audio context is made on the
// player's first tap or key (never before), and only when sound is on.
// What happened is read from the page itself, whoever drew it: a card lifted, a pair leaving
// the heart, the stock turning, a card landing on the Hearts table, a trick won (the Q♠ in it).
// Other scripts send document events "cardroom:sound" (detail: a sound's name; the win comes
// from static/js/celebrate.js) and "cardroom:refused" (a move the rules refuse: a buzz).
(() => {
  "use strict";
  const root = document.body;
  const soundOn = () => root.dataset.sound === "on";
  let context = null;
  let tapped = false;

  function start() {
    if (!context && tapped && soundOn()) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) context = new Context();
    }
    if (context && context.state === "suspended") context.resume();
  }
  function firstTap() {
    tapped = true;
    start();
  }
  // Events that let a page start audio (a touch's pointerdown does not).
  for (const type of ["click", "touchend", "keydown"]) window.addEventListener(type, firstTap, true);
  document.addEventListener("cardroom:settings", () => {
    start();
    play("take"); // turning sound on says so
  });

  // Each sound: notes of [start s, frequency Hz, length s, wave].
  const SOUNDS = {
    take: [[0, 660, 0.06, "sine"]],
    pair: [[0, 523, 0.08, "triangle"], [0.07, 784, 0.12, "triangle"]],
    draw: [[0, 330, 0.05, "triangle"], [0.04, 392, 0.05, "triangle"]],
    trick: [[0, 262, 0.08, "sine"], [0.06, 330, 0.1, "sine"]],
    queen: [[0, 147, 0.3, "square"], [0.12, 139, 0.35, "square"]],
    win: [[0, 523, 0.12, "triangle"], [0.12, 659, 0.12, "triangle"], [0.24, 784, 0.12, "triangle"],
          [0.36, 1047, 0.3, "triangle"]],
  };
  const PRIORITY = ["win", "queen", "trick", "pair", "draw", "take"];

  function play(name) {
    if (!soundOn() || !context) return;
    if (context.state !== "running") {
      // A context made on this very tap may still be starting.
      context.resume().then(() => play(name), () => {});
      return;
    }
    const now = context.currentTime;
    for (const [at, frequency, length, wave] of SOUNDS[name]) {
      const note = context.createOscillator();
      const volume = context.createGain();
      note.type = wave;
      note.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, now + at);
      volume.gain.exponentialRampToValueAtTime(0.18, now + at + 0.01);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      note.connect(volume).connect(context.destination);
      note.start(now + at);
      note.stop(now + at + length + 0.02);
    }
  }

  // What one frame's changes sound like: the most telling of them, once.
  let heard = new Set();
  function hear(name) {
    if (!heard.size) requestAnimationFrame(() => {
      const name = PRIORITY.find((n) => heard.has(n));
      heard = new Set();
      play(name);
    });
    heard.add(name);
  }
  document.addEventListener("cardroom:sound", (event) => hear(event.detail));

  let stockCount = null;
  const countOf = (stock) => +((stock && stock.querySelector(".count") || {}).textContent || 0);
  function added(node) {
    if (node.nodeType !== 1) return;
    if (node.id === "h2h-stock") {
      const count = countOf(node);
      if (stockCount !== null && count !== stockCount) hear("draw");
      stockCount = count;
    }
    if (node.matches(".gap[id^='p']")) hear("pair");
    const landed = node.matches("[data-card]") ? [node] : node.querySelectorAll(".ht-trick [data-card]");
    for (const card of landed) {
      if (!card.closest(".ht-trick")) continue;
      hear("take");
      if (card.dataset.won === "true") trickWon(card);
    }
  }
  // The card that took the trick: the Q♠ in the trick has its own sound.
  function trickWon(card) {
    const trick = card.closest(".ht-trick");
    hear(trick && trick.querySelector("[data-card='QS']") ? "queen" : "trick");
  }
  new MutationObserver((changes) => {
    for (const change of changes) {
      const target = change.target;
      if (change.type === "childList") change.addedNodes.forEach(added);
      else if (change.attributeName === "data-won") {
        if (target.dataset.won === "true" && target.closest(".ht-trick")) trickWon(target);
      } else if (target.getAttribute("aria-pressed") === "true") hear("take");
    }
  }).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["aria-pressed", "data-won"],
  });
  document.addEventListener("DOMContentLoaded", () => {
    stockCount = countOf(document.getElementById("h2h-stock"));
  });

  // Vibration: a refused move (the games' scripts tell it as they shake the card).
  document.addEventListener("cardroom:refused", () => {
    if (root.dataset.vibration === "on" && navigator.vibrate) navigator.vibrate(60);
  });
})();
