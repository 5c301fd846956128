// A table with friends, live: one event stream per page (the API's events, each the table's
// view at a version), closed while the page is hidden and opened again when it is shown. A
// change the page has not seen fetches the pieces since its version (the cards played since
// come first, shown one by one by hearts-table.js); before the match starts, the page is drawn
// afresh.
//
// Each view also says what the pieces do not: the turn limit's countdown at the awaited seats,
// the turns the bot played for a player whose time ran out (marked on the seat and the card),
// whether this player is away (the "I'm back" button), and the reactions, shown a moment at
// their sender's seat. The seat badges are redrawn by the pieces, so these marks are put back
// whenever a badge is.
(() => {
  "use strict";
  const root = document.querySelector(".tb[data-events]");
  if (!root) return;
  const started = root.dataset.started === "true";
  const mySeat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
  const REACTION_SHOWN = 3000;
  let source = null;
  let latest = null; // the last view the stream brought
  let reactionsSeen = Number(root.dataset.version); // reactions up to this version are old

  const held = () => Number(document.getElementById("ht-version")?.value || root.dataset.version);
  // The page draws its own seat at the bottom: table seat -> the page's seat number.
  const onPage = (seat) => (seat - (mySeat ?? 0) + 4) % 4;
  const badge = (seat) => document.getElementById(`ht-seat-${onPage(seat)}`);

  function clockAt(seat, seconds) {
    const at = badge(seat);
    if (!at) return;
    let clock = at.querySelector(".tb-clock");
    if (!clock) {
      clock = document.createElement("time");
      clock.className = "tb-clock";
      clock.setAttribute("aria-label", root.dataset.clockLabel);
      at.append(clock);
    }
    window.Cardroom.countdown(clock, seconds);
  }

  // The countdown, the bot's marks, a seat's own state: put (back) on the badges as they are.
  function decorate() {
    if (!latest || !latest.started) return;
    const deadlineAt = latest.turn_deadline === null ? null : latest.received + latest.turn_deadline * 1000;
    for (const seat of latest.seats) {
      const at = badge(seat.seat);
      if (!at) continue;
      at.dataset.away = String(seat.away);
      at.dataset.human = String(seat.human);
      at.dataset.connected = String(seat.connected);
      at.toggleAttribute("data-auto", seat.autoplayed);
      if (seat.autoplayed) at.title = root.dataset.autoLabel;
      else at.removeAttribute("title");
      const awaited = deadlineAt !== null && latest.awaited.includes(seat.seat);
      if (awaited) clockAt(seat.seat, Math.max(0, (deadlineAt - Date.now()) / 1000));
      else at.querySelector(".tb-clock")?.remove();
    }
    markAutoplayedCards();
    showBubbles();
  }

  function markAutoplayedCards() {
    if (!latest) return;
    for (const card of document.querySelectorAll("#ht-trick .card[data-auto]")) card.removeAttribute("data-auto");
    for (const seat of latest.seats) {
      if (!seat.autoplayed_card) continue;
      const card = document.querySelector(`#ht-trick .card[data-card="${seat.autoplayed_card}"][data-seat="${onPage(seat.seat)}"]`);
      if (card) {
        card.dataset.auto = "true";
        card.title = root.dataset.autoLabel;
      }
    }
  }

  function showBack() {
    const back = document.querySelector(".tb-back");
    if (back && mySeat !== null) back.hidden = !latest.seats[mySeat].away;
  }

  function nameOf(seat) {
    return badge(seat)?.querySelector(".ht-seat-name")?.firstChild?.textContent?.trim() || "";
  }

  // Reactions on show: table seat -> {symbol, reaction, until}.
  const bubbles = new Map();

  function showBubbles() {
    const now = Date.now();
    for (const [seat, shown] of bubbles) {
      const at = badge(seat);
      const old = at?.querySelector(".tb-bubble");
      if (now >= shown.until) {
        old?.remove();
        bubbles.delete(seat);
        continue;
      }
      if (!at || old?.dataset.version === String(shown.version)) continue;
      old?.remove();
      const bubble = document.createElement("span");
      bubble.className = "tb-bubble";
      bubble.setAttribute("aria-hidden", "true");
      bubble.dataset.reaction = shown.reaction;
      bubble.dataset.version = String(shown.version);
      bubble.textContent = shown.symbol;
      at.append(bubble);
    }
  }

  function showReactions() {
    for (const { seat, reaction, version } of latest.reactions) {
      if (version <= reactionsSeen) continue;
      const button = document.querySelector(`.tb-react[data-reaction="${reaction}"]`);
      if (!button) continue;
      bubbles.set(seat, { symbol: button.textContent.trim(), reaction, version, until: Date.now() + REACTION_SHOWN });
      setTimeout(showBubbles, REACTION_SHOWN);
      const said = document.getElementById("tb-said");
      if (said) said.textContent = `${nameOf(seat)}: ${button.getAttribute("aria-label")}`;
    }
    reactionsSeen = Math.max(reactionsSeen, latest.version);
    showBubbles();
  }

  // The table apart from what changes without a move (reactions, presence, the clock).
  const board = (view) => JSON.stringify({
    ...view, version: 0, reactions: [], received: 0, turn_deadline: 0,
    seats: view.seats.map((seat) => ({ ...seat, connected: false })),
  });

  function onEvent(e) {
    const view = JSON.parse(e.data);
    if (view.started !== started) { location.reload(); return; }
    view.received = Date.now();
    const before = latest;
    latest = view;
    if (started) {
      showReactions();
      showBack();
      decorate();
    }
    if (view.version <= held()) return;
    if (!started) { location.reload(); return; }
    // A reaction alone leaves the pieces as they are (the next change catches up from here).
    if (before && before.version === held() && board(before) === board(view)) return;
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

  // The badges and the trick's cards are replaced by the pieces: mark them again.
  const table = document.querySelector(".ht-table");
  if (table) {
    new MutationObserver(decorate).observe(table, { childList: true });
    new MutationObserver(markAutoplayedCards).observe(table, { childList: true, subtree: true });
  }

  // A reaction sent: the buttons rest a moment (the server allows a few at a time).
  document.addEventListener("htmx:afterRequest", (e) => {
    const form = e.detail.elt.closest?.(".tb-reactions");
    if (!form) return;
    for (const button of form.querySelectorAll("button")) button.disabled = true;
    setTimeout(() => form.querySelectorAll("button").forEach((b) => { b.disabled = false; }), 1500);
  });

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) close(); else open();
  });
  if (!document.hidden) open();
})();
