-- wrk script of bench/web.py: Heart to Heart taps, each wrk thread one player on one
-- connection (wrk -t N -c N), playing its own games through the solver's line.
--
--   wrk -t N -c N -s bench/taps.lua URL -- GAMES_FILE MODE
--
-- GAMES_FILE (written by bench/web.py) sets `players`: per player its cookie and games, each
-- game {id=, version=, taps={...}}. MODE is "page" (the page's htmx form post) or "api" (the
-- JSON API). Each tap carries the version the previous answer gave; a player whose line is
-- done moves to its next game. At the end one line "RESULT {json}" gives the counts. No
-- Accept-Encoding is sent: the answers must be read here (a tap's answer is under the 1 kB
-- that compression starts at anyway; the API's state is not, see bench/README.md).
--
-- "/healthz" as MODE asks for the floor instead (no games).

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("player_index", counter)
  table.insert(threads, thread)
end

local mode, player, game_index, tap_index, version
answered, errors, stale, exhausted = 0, 0, 0, 0

function init(args)
  mode = args[2]
  if mode == "/healthz" then
    return
  end
  dofile(args[1])
  player = players[player_index]
  game_index, tap_index = 1, 1
  version = player.games[1].version
end

local function current()
  return player.games[game_index]
end

function request()
  if mode == "/healthz" then
    return wrk.format("GET", "/healthz")
  end
  local game = current()
  if game == nil then
    exhausted = exhausted + 1
    return wrk.format("GET", "/healthz")
  end
  local target = game.taps[tap_index]
  local headers = {
    ["Cookie"] = player.cookie,
    ["Accept-Language"] = "en",
  }
  if mode == "page" then
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    headers["HX-Request"] = "true"
    local body = "target=" .. target:gsub(":", "%%3A") .. "&version=" .. version
    return wrk.format("POST", "/heart-to-heart/games/" .. game.id .. "/tap", headers, body)
  end
  headers["Content-Type"] = "application/json"
  local body = '{"target":"' .. target .. '","version":' .. version .. "}"
  return wrk.format("POST", "/api/heart-to-heart/games/" .. game.id .. "/tap", headers, body)
end

function response(status, headers, body)
  if mode == "/healthz" or current() == nil then
    return
  end
  answered = answered + 1
  local found
  if status ~= 200 then
    errors = errors + 1
  elseif mode == "page" then
    if body:find("The game had changed", 1, true) then
      stale = stale + 1
    end
    found = body:match('id="h2h%-version" name="version" value="(%d+)"')
  else
    found = body:match('"version":(%d+)')
  end
  if found then
    version = tonumber(found)
  end
  tap_index = tap_index + 1
  if tap_index > #current().taps then
    game_index, tap_index = game_index + 1, 1
    if current() ~= nil then
      version = current().version
    end
  end
end

function done(summary, latency, requests)
  local totals = { answered = 0, errors = 0, stale = 0, exhausted = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do
      totals[name] = totals[name] + thread:get(name)
    end
  end
  io.write(string.format(
    'RESULT {"requests":%d,"seconds":%.6f,"p50_us":%d,"p99_us":%d,"socket_errors":%d,'
      .. '"non_2xx":%d,"answered":%d,"errors":%d,"stale":%d,"exhausted":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, totals.answered, totals.errors, totals.stale, totals.exhausted))
end
