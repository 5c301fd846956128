// A replay's timeline (templates/replay/): the server gives every step in data-steps (the
// words already in the page's language) and this draws the step chosen. The range is the
// thumb's control; the buttons step, jump to the start or the end, and play at the chosen
// speed. Keys, while the focus is not in a field: ← → step, Home End, space plays or pauses.
(() => {
  "use strict";
  const root = document.querySelector("[data-replay]");
  if (!root) return;
  const data = JSON.parse(root.dataset.steps);
  const steps = data.steps;
  const control = (name) => root.querySelector(`[data-rp="${name}"]`);
  const range = control("range");
  const play = control("play");
  const say = control("say");
  const note = control("note");
  const pos = control("pos");
  let current = 0;
  let timer = null;
  range.max = String(steps.length - 1);

  // -- Hearts: four hands face up, the trick on the table --------------------------------
  const deck = root.querySelector('template[data-rp="deck"]');
  const cardNode = (code) => deck.content.querySelector(`[data-card="${code}"]`).cloneNode(true);

  function fill(box, codes, marked) {
    box.replaceChildren(...codes.map((code) => {
      const node = cardNode(code);
      if (marked && marked.has(code)) node.dataset.marked = "true";
      return node;
    }));
  }

  function drawHearts(step) {
    const [handIndex, kind, count] = step;
    const hand = data.hands[handIndex];
    const held = kind === 0 ? hand.dealt : hand.held;
    const gone = new Set(hand.plays.slice(0, count).map((p) => p[1]));
    // Before the pass, the cards each seat gives are marked; after, the cards it got.
    const passed = new Set();
    if (kind <= 1 && data.steps.some((s) => s[0] === handIndex && s[1] === 1)) {
      const source = kind === 0 ? hand.dealt : hand.held;
      const other = kind === 0 ? hand.held : hand.dealt;
      source.forEach((cards, seat) => cards.forEach((c) => {
        if (!other[seat].includes(c)) passed.add(c);
      }));
    }
    for (let seat = 0; seat < 4; seat += 1) {
      fill(root.querySelector(`[data-rp-hand="${seat}"]`),
           held[seat].filter((c) => !gone.has(c)), passed);
    }
    const trickStart = count === 0 ? 0 : Math.floor((count - 1) / 4) * 4;
    const table = kind === 2 ? hand.plays.slice(trickStart, count) : [];
    const trick = control("trick");
    trick.replaceChildren(...table.map(([seat, code]) => {
      const node = cardNode(code);
      node.dataset.seat = String(seat);
      return node;
    }));
    const taken = hand.taken[kind === 3 ? 13 : Math.floor(count / 4)];
    root.querySelectorAll("[data-rp-points]").forEach((box) => {
      box.textContent = `${taken[Number(box.dataset.rpPoints)]}`;
    });
    const handSelect = control("hand");
    if (handSelect) handSelect.value = String(handIndex);
    const trickSelect = control("trick-jump");
    if (trickSelect) trickSelect.value = String(Math.min(13, Math.max(1, Math.ceil(count / 4))));
  }

  // -- Heart to Heart: the heart, the stock, the waste ------------------------------------
  function drawHeart(step) {
    const [removed, stock, waste, top, winnable, , , , covered] = step;
    for (let p = 0; p < 25; p += 1) {
      const card = document.getElementById(`p${p}`);
      if (!card) continue;
      const gone = Boolean(removed & (1 << p));
      card.toggleAttribute("data-gone", gone);
      if (covered & (1 << p)) card.dataset.covered = "true";
      else card.removeAttribute("data-covered");
      card.removeAttribute("data-hint");
    }
    document.getElementById("h2h-waste")?.removeAttribute("data-hint");
    const next = steps[current + 1];
    if (next && data.lost !== null && current === data.lost) {
      next[7].forEach((t) => {
        const target = t === "waste" ? document.getElementById("h2h-waste") : document.getElementById(`p${t}`);
        if (target) target.dataset.hint = "true";
      });
    }
    const stockBox = document.getElementById("h2h-stock");
    if (stockBox) {
      stockBox.className = `card pile ${stock ? "back" : "empty"}`;
      stockBox.replaceChildren();
      if (stock) {
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = String(stock);
        stockBox.append(count);
      }
    }
    const wasteBox = document.getElementById("h2h-waste");
    if (wasteBox) {
      if (waste && top) {
        const [rank, name] = top;
        wasteBox.className = "card h pile";
        const small = document.createElement("i");
        const big = document.createElement("b");
        small.textContent = rank;
        big.textContent = rank;
        wasteBox.replaceChildren(small, big);
        wasteBox.setAttribute("aria-label", root.dataset.wasteLabel.replace("%s", name));
      } else {
        wasteBox.className = "card pile empty";
        wasteBox.replaceChildren();
        wasteBox.setAttribute("aria-label", root.dataset.emptyWaste);
      }
    }
    root.dataset.winnable = winnable ? "true" : "false";
  }

  // -- the timeline -------------------------------------------------------------------------
  const hearts = root.dataset.replay === "hearts";
  if (!hearts) {
    // The verdicts along the timeline: every step winnable up to the first that is not.
    const firstLost = steps.findIndex((s) => !s[4]);
    const share = firstLost < 0 ? 1 : firstLost / Math.max(1, steps.length - 1);
    root.style.setProperty("--winnable", `${(share * 100).toFixed(2)}%`);
  }
  const wordsAt = (step) => (hearts ? [step[3], step[4]] : [step[5], step[6]]);

  function show(index, spoken = true) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    if (hearts) drawHearts(step); else drawHeart(step);
    const [words, extra] = wordsAt(step);
    range.value = String(current);
    const where = `${current + 1} / ${steps.length}`;
    range.setAttribute("aria-valuetext", `${where}: ${words}`);
    pos.textContent = where;
    say.textContent = spoken ? words : "";
    note.textContent = extra || "";
    note.hidden = !extra;
    if (!spoken) say.textContent = words;
    if (current === steps.length - 1) pause();
  }

  function speed() {
    return Number(control("speed").value) || 1;
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    play.textContent = play.dataset.play;
  }

  function start() {
    if (current === steps.length - 1) show(0);
    play.setAttribute("aria-pressed", "true");
    play.textContent = play.dataset.pause;
    if (timer !== null) clearInterval(timer);
    timer = setInterval(() => show(current + 1), 900 / speed());
  }

  const toggle = () => (timer === null ? start() : pause());

  range.addEventListener("input", () => { pause(); show(Number(range.value)); });
  root.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-rp]");
    if (!button) return;
    const name = button.dataset.rp;
    if (name === "play") { toggle(); return; }
    pause();
    if (name === "first") show(0);
    else if (name === "prev") show(current - 1);
    else if (name === "next") show(current + 1);
    else if (name === "last") show(steps.length - 1);
    else if (name === "to-lost") show(Number(button.dataset.step));
  });
  control("speed").addEventListener("change", () => { if (timer !== null) start(); });
  const handSelect = control("hand");
  if (handSelect) {
    handSelect.addEventListener("change", () => {
      pause();
      show(steps.findIndex((s) => s[0] === Number(handSelect.value)));
    });
  }
  const trickSelect = control("trick-jump");
  if (trickSelect) {
    trickSelect.addEventListener("change", () => {
      pause();
      const handIndex = steps[current][0];
      const wanted = 4 * (Number(trickSelect.value) - 1) + 1;
      show(steps.findIndex((s) => s[0] === handIndex && s[1] === 2 && s[2] === wanted));
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || document.querySelector("dialog[open]")) return;
    if (e.target.closest("input:not([type=range]), select, textarea, summary")) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
    if (e.key in moves) {
      if (e.target === range) return; // the range steps by itself
      e.preventDefault(); pause(); show(current + moves[e.key]);
    } else if (e.key === "Home" && e.target !== range) {
      e.preventDefault(); pause(); show(0);
    } else if (e.key === "End" && e.target !== range) {
      e.preventDefault(); pause(); show(steps.length - 1);
    } else if (e.key === " " && !e.target.closest("button, a")) {
      e.preventDefault(); toggle();
    }
  });
  show(0, false);
})();
