// A table's lobby (templates/hearts/_lobby.html): the invite link and the watch link shared
// (the system's share sheet, where the browser has one) or copied, and the seats redrawn when
// someone sits down (hearts-live.js calls refresh() on each change of the table): only #tb-room
// is swapped, so a name being typed and the room's settings being chosen stay as they are.
(() => {
  "use strict";
  const root = document.querySelector(".tb-lobby");
  if (!root) return;
  // Each link to send (the invite; the watch link, for the creator): shared or copied.
  for (const card of document.querySelectorAll("[data-link-card]")) {
    const link = card.querySelector("[data-invite]");
    // The server gives a relative link when the site's address is not set: made whole here.
    link.value = new URL(link.value, location.href).href;

    const share = card.querySelector("[data-share-link]");
    if (navigator.share) {
      share.hidden = false;
      share.addEventListener("click", () => {
        navigator.share({ title: document.title, url: link.value }).catch(() => {});
      });
    }

    const copy = card.querySelector("[data-copy-link]");
    copy.addEventListener("click", () => {
      const copied = () => window.Cardroom.say(copy.dataset.copied);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(link.value).then(copied, () => link.select());
      } else {
        link.select(); // the player copies it themselves
      }
    });
  }

  let wanted = 0; // the newest version asked for
  async function refresh(version) {
    wanted = Math.max(wanted, version);
    const answer = await fetch(location.href, { headers: { Accept: "text/html" } });
    if (!answer.ok || version < wanted) return;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.querySelector(".tb[data-events]");
    if (!fresh || fresh.dataset.started === "true" || fresh.dataset.seat !== root.dataset.seat) {
      location.reload();
      return;
    }
    const room = document.getElementById("tb-room");
    const focused = document.activeElement?.closest("#tb-room [data-seat-row]")?.dataset.seatRow;
    room.replaceWith(page.getElementById("tb-room"));
    root.dataset.version = fresh.dataset.version;
    if (focused !== undefined) {
      document.querySelector(`#tb-room [data-seat-row="${focused}"] button`)?.focus();
    }
  }

  window.Cardroom = { ...window.Cardroom, lobby: { refresh } };
})();
