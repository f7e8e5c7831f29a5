-- wrk script: every request asks for another scenario (the monthly requests vary from 5 M to
-- 999 M, 995 distinct values, each thread starting elsewhere), so no answer can be reused.
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
  n = (id or 1) * 331
end

function request()
  n = n + 1
  return wrk.format("GET", prefix .. "requests=" .. (5 + (n * 7919) % 995) .. "M")
end
