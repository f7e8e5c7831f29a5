#!/usr/bin/env python3
"""The outside checks of SECURITY.md, against the release binary, on this machine only.

Each check starts its own server (a fresh SQLite in a temporary folder, on a free loopback
port), drives it from this process, stops it, and prints one summary line of figures. Every
loop is bounded in count and time; nothing is sent anywhere but 127.0.0.1.

  fuzz   100,000 generated API queries and 10,000 each on /, /embed, the CSV and one chart:
         no 5xx, every answer within 10 s, no NaN/inf in CSV or SVG, no hostile text unescaped
  saves  concurrent saves while the server is killed with SIGKILL 20 times: every
         acknowledged save is still there with its query, and SQLite's integrity check is clean
  flood  thousands of idle and half-sent connections: /healthz answers, and how fast
  xss    hostile names, notes and query values saved and viewed: no raw markup in any page
  soak   3 minutes of mixed traffic: error count, throughput, resident memory over time
  imports  a 124,000-entry price table: refused, naming the limit, in under 2 s
  uploads  48 usage exports of 16 MiB at once, from 48 clients and from one: every answer 200,
         or 429 or 503 with Retry-After; /healthz under 100 ms; resident memory under 400 MB
  slow   two clients sending their uploads a few bytes a second hold two turns of three: the
         others' exports are read all the while, and the slow ones are answered 408 at 25 s

Usage: scripts/security.py [--binary PATH] [--site PATH] [CHECK...] (default: all)
Sizes can be lowered for a quick run: SERVECOST_FUZZ_API, SERVECOST_FUZZ_PAGES,
SERVECOST_KILLS, SERVECOST_FLOOD, SERVECOST_SOAK_SECS, SERVECOST_UPLOADS.
"""

import argparse
import concurrent.futures as futures
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HOSTILE = [
    "<script>probe()</script>",
    '"><img src=x onerror=probe()>',
    "</title><svg onload=probe()>",
    "'><iframe srcdoc=probe>",
    "javascript:probe()",
]
MARKERS = ["<script>probe", "<img src=x", "<svg onload", "<iframe srcdoc"]
NUMBERS = [
    "0", "1", "-1", "0.5", "1e-300", "1e-320", "5e-324", "1e-9", "1e308", "1e400", "NaN", "inf",
    "-inf", "1_000", "0x10", "", " ", "1e", "1.5.2", "%", "99%", "5T", "20M", "3k", "1,000",
    "9999999999999999999999", "2.5T", "1e16", "1e17",
]
ENUMS = {
    "v": ["1", "2"],
    "workload": ["coding-agent", "chat", "rag", "batch", "nope"],
    "mix": ["2:7:1", "0:0:1", "1e-300:1:1", "0:0:0", "1:2", "-1:1:1"],
    "curve_mix": ["2:7:1", "0:0:1", "1e-300:1:1", "0:0:0"],
    "profile": ["flat", "business", "diurnal", "1,2,3", ",".join(["1e-300"] * 24)],
    "points": ["128:33041,191:23251", "1:1", "0:0", "1e-300:5", "50:1e9,60:1e-300"],
    "scaling": ["fixed", "hourly", "x"],
    "hybrid": ["1", "0", "yes", "2"],
    "own": ["1", "0"],
    "model": ["muse-spark-open", "nope"],
    "api": ["muse-spark-open-api", "nope"],
    "curve": ["inferencex-b300-fp4", "inferencex-mi355x-fp4", "sglang-gb300-tp4", "nope"],
    "chip": ["b300", "mi355x", "nope"],
}
CHARTS = ["volume", "classes", "breakdown", "tps", "tornado"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """The release binary on a fresh SQLite, on a free loopback port."""

    def __init__(self, binary, site, env=None, folder=None):
        self.binary, self.site = binary, site
        self.folder = folder or tempfile.mkdtemp(prefix="servecost-security-")
        self.port = free_port()
        self.extra = env or {}
        self.proc = None

    @property
    def db(self):
        return os.path.join(self.folder, "servecost.db")

    def start(self):
        env = dict(os.environ)
        env.update(
            LEPTOS_SITE_ADDR=f"127.0.0.1:{self.port}",
            DATABASE_URL=f"sqlite://{self.db}",
            LEPTOS_SITE_ROOT=self.site,
            RUST_LOG="error",
        )
        env.update(self.extra)
        log = open(os.path.join(self.folder, "server.log"), "ab")
        self.proc = subprocess.Popen([self.binary], env=env, stdout=log, stderr=log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if get(self.port, "/healthz", timeout=1)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_kb(self):
        value = proc_field(self.proc.pid, "status", "VmRSS:", 1)
        return int(value) if value else 0

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def proc_field(pid, name, prefix, column):
    """Column `column` of the line of /proc/PID/NAME that starts with `prefix` (None if none)."""
    try:
        with open(f"/proc/{pid}/{name}") as f:
            for line in f:
                if line.startswith(prefix):
                    return line.split()[column]
    except (OSError, IndexError):
        return None
    return None


_local = threading.local()


def conn(port, timeout):
    c = getattr(_local, "conn", None)
    if c is None or getattr(_local, "port", None) != port:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        _local.conn, _local.port = c, port
    c.timeout = timeout
    return c


def request(port, method, path, body=None, headers=None, timeout=10):
    """(status, body text, seconds); a keep-alive connection per thread."""
    for attempt in range(2):
        c = conn(port, timeout)
        start = time.time()
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            text = r.read().decode("utf-8", "replace")
            if r.getheader("connection", "").lower() == "close":
                c.close()
                _local.conn = None
            return r.status, text, time.time() - start
        except (http.client.HTTPException, ConnectionError, BrokenPipeError):
            c.close()
            _local.conn = None
            if attempt == 1:
                raise
    raise RuntimeError("unreachable")


def get(port, path, timeout=10):
    return request(port, "GET", path, timeout=timeout)


def parameter_names(port):
    """The scenario parameters, from the server's own OpenAPI document."""
    _, text, _ = get(port, "/api/v1/openapi.json")
    doc = json.loads(text)
    return [p["name"] for p in doc["paths"]["/api/v1/evaluate"]["get"]["parameters"]]


def value(rng, name):
    roll = rng.random()
    if roll < 0.1:
        return rng.choice(HOSTILE)
    if name in ENUMS and roll < 0.8:
        return rng.choice(ENUMS[name])
    if roll < 0.5:
        return rng.choice(NUMBERS)
    return repr(10 ** rng.uniform(-12, 17) * rng.choice([1, 1, 1, -1]))


def query(rng, names):
    pairs = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.03:
            pairs.append((rng.choice(HOSTILE), rng.choice(HOSTILE)))
        else:
            name = rng.choice(names)
            pairs.append((name, value(rng, name)))
    return urllib.parse.urlencode(pairs)


def non_finite_token(text):
    for token in text.replace('"', " ").replace(",", " ").replace("\n", " ").split():
        if token.lower() in ("nan", "inf", "-inf", "infinity", "-infinity"):
            return token
    return None


def check_fuzz(args):
    n_api = int(os.environ.get("SERVECOST_FUZZ_API", "100000"))
    n_pages = int(os.environ.get("SERVECOST_FUZZ_PAGES", "10000"))
    server = Server(args.binary, args.site).start()
    try:
        names = parameter_names(server.port)
        rng = random.Random(args.seed)
        jobs = [("/api/v1/evaluate", query(rng, names)) for _ in range(n_api)]
        for route in ["/", "/embed", "/api/v1/export.csv", "/api/v1/charts/volume.svg"]:
            jobs += [(route, query(rng, names)) for _ in range(n_pages)]
        stats = {"requests": 0, "5xx": 0, "slow": 0, "nonfinite": 0, "unescaped": 0, "ok": 0}
        worst = [0.0]
        failures = []
        lock = threading.Lock()

        def one(job):
            route, q = job
            status, text, secs = get(server.port, f"{route}?{q}", timeout=15)
            bad = []
            if status >= 500:
                bad.append("5xx")
            if secs > 10:
                bad.append("slow")
            if status == 200 and route in ("/api/v1/export.csv", "/api/v1/charts/volume.svg"):
                if non_finite_token(text):
                    bad.append("nonfinite")
            if route in ("/", "/embed") and any(m in text for m in MARKERS):
                bad.append("unescaped")
            with lock:
                stats["requests"] += 1
                stats["ok"] += status == 200
                worst[0] = max(worst[0], secs)
                for b in bad:
                    stats[b] += 1
                if bad and len(failures) < 10:
                    failures.append(f"{bad} {status} {route}?{q}")

        started = time.time()
        with futures.ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(one, jobs, chunksize=64))
        elapsed = time.time() - started
        print(
            f"fuzz: {stats['requests']:,} requests ({n_api:,} API, {n_pages:,} each on /, /embed, "
            f"CSV, volume SVG) in {elapsed:.0f} s: {stats['ok']:,} answered 200, "
            f"{stats['5xx']} 5xx, {stats['slow']} over 10 s (slowest {worst[0] * 1000:.0f} ms), "
            f"{stats['nonfinite']} with NaN/inf, {stats['unescaped']} with hostile markup"
        )
        for f in failures:
            print("  ", f[:300])
        health = get(server.port, "/healthz")[0]
        print(f"fuzz: /healthz after the run: {health}")
        return not failures and health == 200
    finally:
        server.cleanup()


def check_saves(args):
    kills = int(os.environ.get("SERVECOST_KILLS", "20"))
    # Saves from many clients: the test names them with X-Forwarded-For, which the server
    # believes only because loopback is configured as a trusted proxy for this run.
    server = Server(args.binary, args.site, env={"SERVECOST_TRUSTED_PROXIES": "127.0.0.1"})
    server.start()
    acknowledged = {}
    lock = threading.Lock()
    stop = threading.Event()
    counter = [0]
    errors = [0]

    def saver(worker):
        while not stop.is_set():
            with lock:
                counter[0] += 1
                n = counter[0]
            body = json.dumps({"query": f"requests={n}k", "name": f"kill test {n}"})
            headers = {
                "content-type": "application/json",
                "x-forwarded-for": f"10.{worker}.{n // 250 % 250}.{n % 250}",
            }
            try:
                status, text, _ = request(server.port, "POST", "/api/v1/scenarios", body, headers, 5)
            except OSError:
                errors[0] += 1
                time.sleep(0.05)
                continue
            if status in (200, 201):
                answer = json.loads(text)
                with lock:
                    acknowledged[answer["id"]] = answer["query"]

    threads = [threading.Thread(target=saver, args=(w,), daemon=True) for w in range(8)]
    for t in threads:
        t.start()
    try:
        for _ in range(kills):
            time.sleep(random.uniform(0.8, 1.6))
            server.kill()
            time.sleep(0.2)
            server.start()
        time.sleep(1)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=10)
    lost = 0
    wrong = 0
    for sid, q in list(acknowledged.items()):
        status, text, _ = get(server.port, f"/api/v1/scenarios/{sid}")
        if status != 200:
            lost += 1
        elif json.loads(text)["query"] != q:
            wrong += 1
    server.stop()
    integrity = sqlite3.connect(server.db).execute("PRAGMA integrity_check").fetchone()[0]
    print(
        f"saves: {len(acknowledged):,} acknowledged saves under {kills} SIGKILLs "
        f"({errors[0]} refused while the server was down): {lost} lost, {wrong} changed; "
        f"integrity check: {integrity}"
    )
    server.cleanup()
    return lost == 0 and wrong == 0 and integrity == "ok"


def check_flood(args):
    target = int(os.environ.get("SERVECOST_FLOOD", "15000"))
    server = Server(args.binary, args.site).start()
    socks = []
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, target + 1000), hard))
        started = time.time()
        for i in range(target):
            try:
                s = socket.create_connection(("127.0.0.1", server.port), timeout=2)
            except OSError:
                break
            if i % 3 == 0:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        opened = time.time() - started
        times = []
        statuses = []
        for _ in range(20):
            t0 = time.time()
            try:
                statuses.append(get(server.port, "/healthz", timeout=5)[0])
            except OSError:
                statuses.append(0)
            times.append(time.time() - t0)
            _local.conn = None
            time.sleep(0.1)
        fds = len(os.listdir(f"/proc/{server.proc.pid}/fd"))
        times.sort()
        ok = sum(1 for s in statuses if s == 200)
        print(
            f"flood: {len(socks):,} idle or half-sent connections opened in {opened:.1f} s; "
            f"/healthz {ok}/20 answered 200, median {times[10] * 1000:.1f} ms, "
            f"slowest {times[-1] * 1000:.1f} ms; server holds {fds:,} file descriptors "
            f"(limit {server_limit(server)})"
        )
        return ok == 20
    finally:
        for s in socks:
            s.close()
        server.cleanup()


def server_limit(server):
    return proc_field(server.proc.pid, "limits", "Max open files", 3) or "?"


def check_xss(args):
    server = Server(args.binary, args.site).start()
    try:
        pages = 0
        raw = []
        probes = HOSTILE + [
            "<scr<script>ipt>probe()</script>",
            "&lt;script&gt;probe()&lt;/script&gt;",
            "\"onmouseover=\"probe()",
            "<a href=javascript:probe()>x</a>",
        ]
        for i, p in enumerate(probes):
            for note in probes:
                body = json.dumps({"query": f"requests={i + 1}M", "name": p, "note": note})
                status, text, _ = request(
                    server.port,
                    "POST",
                    "/api/v1/scenarios",
                    body,
                    {"content-type": "application/json", "connection": "close"},
                )
                _local.conn = None
                if status == 429:
                    time.sleep(61)
                    status, text, _ = request(
                        server.port, "POST", "/api/v1/scenarios", body,
                        {"content-type": "application/json", "connection": "close"},
                    )
                    _local.conn = None
                if status not in (200, 201):
                    raw.append(f"save refused: {status} {text[:200]}")
                    continue
                sid = json.loads(text)["id"]
                for path in (f"/s/{sid}", f"/embed/s/{sid}", "/oembed?url=" + urllib.parse.quote(
                        f"http://127.0.0.1:{server.port}/s/{sid}")):
                    _, html, _ = get(server.port, path)
                    pages += 1
                    if any(m in html for m in MARKERS + ["<scr<script>", "<a href=javascript"]):
                        raw.append(path)
            for path in (f"/?{urllib.parse.urlencode({'model': p, p: p})}",
                         f"/embed?{urllib.parse.urlencode({'profile': p, 'mix': p})}",
                         f"/data?{urllib.parse.urlencode({p: p})}",
                         f"/method?{urllib.parse.urlencode({p: p})}"):
                _, html, _ = get(server.port, path)
                pages += 1
                if any(m in html for m in MARKERS):
                    raw.append(path)
        print(f"xss: {pages} pages probed with {len(probes)} hostile texts as names, notes and "
              f"query values: {len(raw)} with raw markup")
        for r in raw[:10]:
            print("  ", r)
        return not raw
    finally:
        server.cleanup()


def check_soak(args):
    secs = int(os.environ.get("SERVECOST_SOAK_SECS", "180"))
    server = Server(args.binary, args.site).start()
    try:
        names = parameter_names(server.port)
        stop = time.time() + secs
        counts = {"requests": 0, "errors": 0}
        lock = threading.Lock()

        def worker(seed):
            rng = random.Random(seed)
            routes = ["/api/v1/evaluate", "/", "/embed", "/api/v1/export.csv",
                      f"/api/v1/charts/{rng.choice(CHARTS)}.svg"]
            while time.time() < stop:
                route = rng.choice(routes)
                q = f"requests={rng.randint(1, 99_999)}k" if rng.random() < 0.7 else query(rng, names)
                try:
                    status = get(server.port, f"{route}?{q}", timeout=15)[0]
                except OSError:
                    status = 0
                with lock:
                    counts["requests"] += 1
                    counts["errors"] += status >= 500 or status == 0

        rss = [server.rss_kb()]
        threads = [threading.Thread(target=worker, args=(s,), daemon=True) for s in range(16)]
        for t in threads:
            t.start()
        while time.time() < stop:
            time.sleep(min(15, max(0.1, stop - time.time())))
            rss.append(server.rss_kb())
        for t in threads:
            t.join(timeout=20)
        print(
            f"soak: {secs} s at 16 connections: {counts['requests']:,} requests "
            f"({counts['requests'] / secs:,.0f}/s), {counts['errors']} errors; resident memory "
            f"{rss[0] // 1024} MB at start, {max(rss) // 1024} MB at most, {rss[-1] // 1024} MB "
            f"at the end (samples every 15 s: {', '.join(str(r // 1024) for r in rss)})"
        )
        return counts["errors"] == 0
    finally:
        server.cleanup()


# Probes /healthz on the port given every 100 ms until a line arrives on its input; prints
# "status seconds" a probe.
HEALTH_PROBE = """
import http.client, sys, threading, time
port = int(sys.argv[1])
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
while not stop.is_set():
    start = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", "/healthz")
        status = c.getresponse().status
        c.close()
    except OSError:
        status = 0
    print(status, time.time() - start, flush=True)
    time.sleep(0.1)
"""


def usage_export(size):
    """A valid CSV usage export of about `size` bytes: hourly buckets over three years, one row
    per model and hour, so the server reads every row of it."""
    lines = ["time,model,uncached,cached,output"]
    total = len(lines[0]) + 1
    start = 1767225600  # 2026-01-01T00:00:00Z
    hour, model = 0, 0
    while True:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + hour * 3600))
        line = f"{stamp},m{model},{1000 + hour % 97},{200 + hour % 13},{300 + model}"
        if total + len(line) + 1 > size:
            break
        lines.append(line)
        total += len(line) + 1
        model += 1
        if model == 20:
            model, hour = 0, (hour + 1) % 26_000
    return ("\n".join(lines) + "\n").encode()


def upload(port, body, client, timeout=60):
    """POST /api/v1/usage with `body`, as a browser does: the answer is read as soon as it comes,
    even while the body is still being sent (an upload refused before its body is read).
    (status, headers, seconds); status 0 when the connection failed without an answer."""
    start = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    head = (
        f"POST /api/v1/usage HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
        f"Content-Length: {len(body)}\r\nX-Forwarded-For: {client}\r\nConnection: close\r\n\r\n"
    ).encode()
    data = memoryview(head + body)
    received = b""
    s.setblocking(False)
    try:
        import select
        while time.time() - start < timeout:
            want_write = [s] if data else []
            readable, writable, _ = select.select([s], want_write, [], 1)
            if readable:
                try:
                    chunk = s.recv(65536)
                except (BlockingIOError, InterruptedError):
                    chunk = None
                except ConnectionError:
                    break
                if chunk == b"":
                    break
                if chunk:
                    received += chunk
                    if b"\r\n\r\n" in received:
                        head_end = received.index(b"\r\n\r\n")
                        lines = received[:head_end].decode("latin-1").split("\r\n")
                        length = next((int(l.split(":", 1)[1]) for l in lines[1:]
                                       if l.lower().startswith("content-length:")), 0)
                        if len(received) - head_end - 4 >= length:
                            break
            if writable and data:
                try:
                    sent = s.send(data[:262144])
                    data = data[sent:]
                except (BlockingIOError, InterruptedError):
                    pass
                except ConnectionError:
                    data = memoryview(b"")
    finally:
        s.close()
    if not received.startswith(b"HTTP/1.1 "):
        return 0, {}, time.time() - start
    lines = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    return int(lines[0].split()[1]), headers, time.time() - start


def check_uploads(args):
    """48 uploads of 16 MiB at once, each from a client of its own (through a trusted proxy),
    then 48 more from one client: /healthz answers within 100 ms all the while, resident
    memory stays under 400 MB, and every upload answers 200, or 429 or 503 with Retry-After."""
    parallel = int(os.environ.get("SERVECOST_UPLOADS", "48"))
    body = usage_export(16 * 1024 * 1024 - 64)
    server = Server(args.binary, args.site, env={"SERVECOST_TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        base = server.rss_kb()
        done = threading.Event()
        rss = [base]
        # /healthz is probed from a process of its own, so that the time measured is the
        # server's, not this process's threads waiting for their turn to run.
        probe = subprocess.Popen(
            [sys.executable, "-c", HEALTH_PROBE, str(server.port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def watch():
            while not done.is_set():
                rss.append(server.rss_kb())
                time.sleep(0.1)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        results = []
        for label, client in (("distinct", lambda i: f"198.51.100.{i + 1}"), ("one", lambda i: "203.0.113.7")):
            with futures.ThreadPoolExecutor(parallel) as pool:
                answers = list(pool.map(lambda i: upload(server.port, body, client(i)), range(parallel)))
            results.append((label, answers))
        done.set()
        watcher.join(timeout=10)
        out, _ = probe.communicate("stop\n", timeout=30)
        health = [(int(a), float(b)) for a, b in (l.split() for l in out.split("\n") if l.strip())]
        ok = True
        for label, answers in results:
            counts = {}
            for status, headers, _ in answers:
                counts[status] = counts.get(status, 0) + 1
                if status not in (200, 429, 503) or (status in (429, 503) and "retry-after" not in headers):
                    ok = False
            slowest = max(t for _, _, t in answers)
            print(f"uploads ({parallel} at once, {label} client{'s' if label == 'distinct' else ''}): "
                  f"{', '.join(f'{n} answered {s}' for s, n in sorted(counts.items()))}; slowest {slowest:.1f} s")
        times = sorted(t for _, t in health) or [0.0]
        worst, median = times[-1], times[len(times) // 2]
        failed = sum(1 for s, _ in health if s != 200)
        peak = max(rss)
        print(f"uploads: /healthz {len(health)} probes, {failed} failed, median {median * 1000:.1f} ms, "
              f"slowest {worst * 1000:.0f} ms; "
              f"resident memory {base // 1024} MB at start, {peak // 1024} MB at most")
        return ok and failed == 0 and worst < 0.1 and peak < 400 * 1024
    finally:
        server.cleanup()


def trickle(port, client, seconds, result):
    """An upload from `client` sent 64 bytes a second for up to `seconds` (each piece within
    the server's 10 s for a stalled body); `result` gets (status, seconds until answered)."""
    start = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=seconds + 10)
    body = usage_export(1024 * 1024)
    s.sendall((f"POST /api/v1/usage HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
               f"Content-Length: {len(body)}\r\nX-Forwarded-For: {client}\r\nConnection: close\r\n\r\n").encode())
    s.setblocking(False)
    received, sent = b"", 0
    import select
    while time.time() - start < seconds and b"\r\n\r\n" not in received:
        readable, _, _ = select.select([s], [], [], 1)
        if readable:
            try:
                chunk = s.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except ConnectionError:
                break
            if chunk == b"":
                break
            received += chunk
            continue
        try:
            s.send(body[sent:sent + 64])
            sent += 64
        except (BlockingIOError, InterruptedError):
            pass
        except ConnectionError:
            break
    s.close()
    status = int(received.split()[1]) if received.startswith(b"HTTP/1.1 ") else 0
    result.append((status, time.time() - start))


def check_slow(args):
    """Two clients send their exports 64 bytes a second: they hold two of the three turns, so
    a third client's exports, sent one after the other all the while, are each answered 200;
    the slow ones are answered 408 once their 25 s are up."""
    server = Server(args.binary, args.site, env={"SERVECOST_TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        slow = []
        threads = [threading.Thread(target=trickle, args=(server.port, f"198.51.100.{i}", 40, slow))
                   for i in (1, 2)]
        for t in threads:
            t.start()
        time.sleep(1)
        body = usage_export(256 * 1024)
        answers = []
        start = time.time()
        while time.time() - start < 28:
            status, headers, took = upload(server.port, body, "203.0.113.9")
            answers.append((status, took))
            # Under the 20 a minute one client may send.
            time.sleep(3.5)
        for t in threads:
            t.join(timeout=60)
        counts = {}
        for status, _ in answers:
            counts[status] = counts.get(status, 0) + 1
        slowest = max(t for _, t in answers)
        print(f"slow: {len(answers)} exports from another client while two trickled: "
              f"{', '.join(f'{n} answered {s}' for s, n in sorted(counts.items()))}, slowest {slowest:.2f} s; "
              f"the trickling ones answered {', '.join(f'{s} after {t:.1f} s' for s, t in sorted(slow))}")
        return (all(s == 200 for s, _ in answers) and len(slow) == 2
                and all(s == 408 and 24 < t < 30 for s, t in slow))
    finally:
        server.cleanup()


def check_imports(args):
    """A LiteLLM-style table of 124,000 entries imported by the release binary into a fresh
    database: refused, naming the limit, in under 2 s (the count is made as the file is parsed)."""
    folder = tempfile.mkdtemp(prefix="servecost-security-")
    try:
        path = os.path.join(folder, "huge.json")
        with open(path, "w") as f:
            f.write("{\n" + ",\n".join(
                f'"p{i}/muse-spark-open": {{"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6, '
                f'"litellm_provider": "p{i}"}}' for i in range(124_000)) + "\n}\n")
        size = os.path.getsize(path)
        env = dict(os.environ, DATABASE_URL=f"sqlite://{os.path.join(folder, 'servecost.db')}", RUST_LOG="error")
        # The database made and seeded first, so that the time is the import's alone.
        subprocess.run([args.binary, "import", "--dry-run", "--model", "muse-spark-open",
                        "server/import-examples/litellm-prices.json"], env=env, capture_output=True, timeout=120)
        start = time.time()
        run = subprocess.run([args.binary, "import", "--model", "muse-spark-open", path],
                             env=env, capture_output=True, text=True, timeout=120)
        took = time.time() - start
        said = (run.stdout + run.stderr).strip().splitlines()
        refused = run.returncode == 1 and any("more than 20,000 objects" in l for l in said)
        print(f"imports: a table of 124,000 entries ({size / 1e6:.1f} MB) refused in {took:.2f} s, "
              f"exit {run.returncode}: {said[-1] if said else ''}")
        return refused and took < 2.0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


CHECKS = {"fuzz": check_fuzz, "saves": check_saves, "flood": check_flood, "xss": check_xss,
          "soak": check_soak, "uploads": check_uploads, "slow": check_slow,
          "imports": check_imports}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/servecost-server")
    p.add_argument("--site", default="target/site")
    p.add_argument("--seed", type=int, default=20261201)
    p.add_argument("checks", nargs="*", help=f"any of {', '.join(CHECKS)} (default: all)")
    args = p.parse_args()
    unknown = [c for c in args.checks if c not in CHECKS]
    if unknown:
        p.error(f"unknown check {', '.join(unknown)}: choose from {', '.join(CHECKS)}")
    args.checks = args.checks or list(CHECKS)
    results = {}
    for name in args.checks:
        results[name] = CHECKS[name](args)
    failed = [n for n, ok in results.items() if not ok]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
