// The service worker, served as /sw.js after a first line that sets self.CARDROOM: this
// build's cache name, its static files and the offline page (app/web/install.py).
// Static files come from the cache (their URLs carry their content version); pages come from
// the network, and when there is none, the offline page says the game is safe on the server.
// The offline page is kept in the language of the last page shown (its Content-Language): a
// page in another language, after a switch, fetches it again in that language.
"use strict";
const { cache: CACHE, files: FILES, offline: OFFLINE } = self.CARDROOM;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      event.waitUntil(keepOfflineIn(response.headers.get("Content-Language")));
      return response;
    }, () => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});

async function keepOfflineIn(lang) {
  if (!lang) return;
  const cache = await caches.open(CACHE);
  const kept = await cache.match(OFFLINE);
  if (kept?.headers.get("Content-Language") === lang) return;
  const fresh = await fetch(OFFLINE).catch(() => null);
  if (fresh?.ok) await cache.put(OFFLINE, fresh);
}
