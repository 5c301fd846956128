// A table with friends, live, from one source: the table's event stream in the page's form
// (…/events?pieces=1&after=VERSION; app/web/hearts/tables/board.py, PageFeed), one per page,
// closed while the page is hidden and opened again when it is shown. Each event brings pieces
// that go in through static/js/pieces.js like an action's answer:
// - the table, when a piece changed: every piece, the cards played since the version the
//   stream last sent in place of the trick (hearts-table.js shows them one by one);
// - the table's own pieces, every time: the "I'm back" form, and #tb-live, the marks that
//   change without a move, which this puts on the seat badges (each player's state, the turn
//   limit's countdown, the card the bot played when time ran out) and on the trick, again
//   whenever those are redrawn; and the reactions, shown a moment at their sender's seat.
// Before the match starts, a change redraws the lobby's seats (table-lobby.js); the start draws
// the page afresh.
(() => {
  "use strict";
  const root = document.querySelector(".tb[data-events]");
  if (!root) return;
  const { pieces } = window.Cardroom;
  const started = root.dataset.started === "true";
  const REACTION_SHOWN = 3000;
  let source = null;
  let reactionsSeen = Number(root.dataset.version); // reactions up to this version are old
  let received = 0; // when #tb-live came: its clocks count down from then
  let latest = null; // the newest event with a table, until the page can take it

  const held = () => Number(document.getElementById("ht-version")?.value || root.dataset.version);
  const badge = (seat) => document.getElementById(`ht-seat-${seat}`);
  const marks = (selector) => document.getElementById("tb-live")?.querySelectorAll(selector) ?? [];

  function clockAt(at, seconds) {
    let clock = at.querySelector(".tb-clock");
    if (!clock) {
      clock = document.createElement("time");
      clock.className = "tb-clock";
      clock.setAttribute("aria-label", root.dataset.clockLabel);
      at.append(clock);
    }
    window.Cardroom.countdown(clock, seconds);
  }

  // The marks on the badges as they are now.
  function decorate() {
    for (const mark of marks("i[data-seat]")) {
      const at = badge(mark.dataset.seat);
      if (!at) continue;
      for (const name of ["human", "connected", "away"]) at.dataset[name] = mark.dataset[name];
      const auto = mark.hasAttribute("data-auto");
      at.toggleAttribute("data-auto", auto);
      if (auto) at.title = root.dataset.autoLabel;
      else at.removeAttribute("title");
      if (mark.dataset.clock === undefined) at.querySelector(".tb-clock")?.remove();
      else clockAt(at, Math.max(0, Number(mark.dataset.clock) - (Date.now() - received) / 1000));
    }
    markAutoplayedCards();
    showBubbles();
  }

  function markAutoplayedCards() {
    for (const card of document.querySelectorAll("#ht-trick .card[data-auto]")) card.removeAttribute("data-auto");
    for (const mark of marks("i[data-card]")) {
      const { card: code, seat } = mark.dataset;
      const card = document.querySelector(`#ht-trick .card[data-card="${code}"][data-seat="${seat}"]`);
      if (card) {
        card.dataset.auto = "true";
        card.title = root.dataset.autoLabel;
      }
    }
  }

  function nameOf(seat) {
    return badge(seat)?.querySelector(".ht-seat-name")?.firstChild?.textContent?.trim() || "";
  }

  // Reactions on show: the page's seat -> {symbol, reaction, version, until}.
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
    let newest = reactionsSeen;
    for (const mark of marks("b[data-reaction]")) {
      const version = Number(mark.dataset.version);
      const { seat, reaction } = mark.dataset;
      const button = document.querySelector(`.tb-react[data-reaction="${reaction}"]`);
      if (version <= reactionsSeen || !button) continue;
      newest = Math.max(newest, version);
      bubbles.set(seat, { symbol: button.textContent.trim(), reaction, version, until: Date.now() + REACTION_SHOWN });
      setTimeout(showBubbles, REACTION_SHOWN);
      const said = document.getElementById("tb-said");
      if (said) said.textContent = `${nameOf(seat)}: ${button.getAttribute("aria-label")}`;
    }
    reactionsSeen = newest;
  }

  // "While you were away, your bot played …" stays until the player's next move; closed, it
  // stays closed when the event stream brings it again.
  let seenAway = null; // the cards of the note the player closed
  const closeAwayNote = (note) => {
    seenAway = note.dataset.playedAway;
    note.remove();
  };
  document.addEventListener("click", (e) => {
    const note = e.target.closest?.('[data-action="seen-away"]')?.closest("[data-played-away]");
    if (!note) return;
    closeAwayNote(note);
    document.querySelector('#ht-hand [tabindex="0"]')?.focus();
  });
  pieces.on("tb-back", {
    after(el) {
      const note = el.querySelector("[data-played-away]");
      if (note && note.dataset.playedAway === seenAway) closeAwayNote(note);
    },
  });

  pieces.on("tb-live", {
    after() {
      received = Date.now();
      showReactions();
      decorate();
    },
  });
  // Redrawn badges and trick cards get their marks back.
  pieces.on(/^ht-seat-\d$/, { after: decorate });
  pieces.on("ht-trick", { after: markAutoplayedCards });

  // The newest table, unless the page has it already. While the player's own taps are on their
  // way, their answers bring the table: it waits for them (taps.js says cardroom:idle).
  function drawLatest() {
    if (!latest || window.Cardroom.taps.waiting()) return;
    const { board, after, version } = latest;
    latest = null;
    const from = held();
    if (version <= from) return;
    if (after !== from) {
      resume();
      return;
    }
    pieces.take(board);
  }

  // The stream's news starts from another version than the page holds (its own answer took it
  // further): some of the cards and words are the page's already. The stream opens again from
  // the page's version, so each is said once.
  function resume() {
    close();
    open();
  }
  document.addEventListener("cardroom:idle", drawLatest);

  function onEvent(e) {
    const event = JSON.parse(e.data);
    if (event.started !== started) {
      location.reload();
      return;
    }
    if (!started) {
      if (event.version > held()) window.Cardroom.lobby.refresh(event.version);
      return;
    }
    pieces.take(event.live);
    if (event.board) {
      latest = event;
      drawLatest();
    }
  }

  function open() {
    if (source) return;
    const url = new URL(root.dataset.events, location.href);
    url.searchParams.set("pieces", "1");
    url.searchParams.set("after", String(held()));
    source = new EventSource(url);
    source.onmessage = onEvent;
  }

  function close() {
    if (source) source.close();
    source = null;
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
