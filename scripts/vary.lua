-- wrk script: every request asks for another scenario, so no answer can be reused, not even
-- from the server's store of embeds last rendered: the monthly requests run from 5 M to 999 M,
-- each thread's values ending in its own digit and none repeated within 994,000 requests.
-- Usage: wrk -s scripts/vary.lua http://host:port -- '/api/v1/evaluate?'
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  prefix = args[1] or "/?"
  k = 0
end

function request()
  k = k + 1
  return wrk.format("GET", prefix .. "requests=" .. (5000000 + ((k * 7919) % 994000) * 1000 + (id or 1)))
end
