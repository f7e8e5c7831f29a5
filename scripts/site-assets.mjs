// Publishes the browser bundle under content-hashed names, with brotli and gzip copies made
// once here rather than on every request.
//
// Usage: node scripts/site-assets.mjs <built dir> <pkg dir>
//
// <built dir> holds what wasm-split-cli, wasm-bindgen, wasm-opt and the stylesheet copy made:
// servecost.js, servecost_bg.wasm, the split loader __wasm_split.js with the modules it fetches
// later (split_*.wasm, chunk_*.wasm), and servecost.css. Into <pkg dir> go
// servecost-<hash>.js, servecost-<hash>_bg.wasm, servecost-<hash>-split.js and
// servecost-<hash>-<module>.wasm (one hash over them all: each names the others, rewritten
// here to their published names), servecost-<hash>.css, a .br and a .gz of each, and
// assets.json naming them for the server.
// The previous build's files are kept, older ones removed. Run again on unchanged input, it
// rewrites nothing.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const [built, pkg] = process.argv.slice(2);
if (!built || !pkg) {
  console.error("usage: node scripts/site-assets.mjs <built dir> <pkg dir>");
  process.exit(2);
}

const read = (name) => readFileSync(join(built, name));
const hash = (...parts) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex").slice(0, 16);
};

const js = read("servecost.js");
const wasm = read("servecost_bg.wasm");
const css = read("servecost.css");
const LOADER = "__wasm_split.js";
const loader = read(LOADER);
// The modules the loader fetches when a split function is first called, by their built names.
const later = readdirSync(built)
  .filter((n) => /^(split|chunk)_[A-Za-z0-9_]+\.wasm$/.test(n))
  .sort();
const outputName = `servecost-${hash(js, wasm, loader, ...later.flatMap((n) => [n, read(n)]))}`;
const stylesheet = `servecost-${hash(css)}.css`;
const loaderName = `${outputName}-split.js`;
const published = (n) => `${outputName}-${n}`;

// Each file names the others relatively: the script imports the loader (only the import's
// address changes; the key of the module's imports stays the name the WASM was linked with),
// the loader imports the script and fetches the later modules.
const replaceAll = (text, from, to) => {
  if (!text.includes(from)) {
    console.error(`site-assets: ${JSON.stringify(from)} not found: the split's output changed shape`);
    process.exit(1);
  }
  return text.split(from).join(to);
};
const script = replaceAll(js.toString("utf8"), `from "./${LOADER}"`, `from "./${loaderName}"`);
let loaderText = replaceAll(loader.toString("utf8"), `from "./servecost.js"`, `from "./${outputName}.js"`);
// Every module the loader fetches must be here: one missing would be a chart that never draws.
const fetched = [...loaderText.matchAll(/"\.\/([^"\/]+\.wasm)"/g)].map((m) => m[1]);
const missing = fetched.filter((n) => !later.includes(n));
if (missing.length > 0) {
  console.error(`site-assets: the loader fetches ${missing.join(", ")}, which the build did not make`);
  process.exit(1);
}
for (const n of later) loaderText = replaceAll(loaderText, `"./${n}"`, `"./${published(n)}"`);

const files = new Map([
  [`${outputName}.js`, Buffer.from(script)],
  [`${outputName}_bg.wasm`, wasm],
  [loaderName, Buffer.from(loaderText)],
  ...later.map((n) => [published(n), read(n)]),
  [stylesheet, css],
]);

// Written beside, then renamed: a server reading the folder never sees half a file.
const put = (name, bytes) => {
  const path = join(pkg, name);
  if (existsSync(path)) return;
  writeFileSync(`${path}.part`, bytes);
  renameSync(`${path}.part`, path);
};

// The previous build's files stay (a server started before this build, or the old side of a
// rolling deploy, still names them); older ones go.
const keep = new Set(["assets.json"]);
const keepWithCopies = (name) => {
  for (const suffix of ["", ".br", ".gz"]) keep.add(name + suffix);
};
const manifestPath = join(pkg, "assets.json");
if (existsSync(manifestPath)) {
  try {
    const previous = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const name of [`${previous.output_name}.js`, `${previous.output_name}_bg.wasm`, previous.stylesheet, ...(previous.later ?? [])]) {
      keepWithCopies(name);
    }
  } catch {
    // An unreadable manifest names nothing to keep.
  }
}
for (const [name, bytes] of files) {
  put(name, bytes);
  put(`${name}.br`, brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }));
  put(`${name}.gz`, gzipSync(bytes, { level: 9 }));
  keepWithCopies(name);
}

const manifest = JSON.stringify({ output_name: outputName, stylesheet, later: [loaderName, ...later.map(published)] }, null, 2) + "\n";
if (!existsSync(manifestPath) || readFileSync(manifestPath, "utf8") !== manifest) {
  writeFileSync(`${manifestPath}.part`, manifest);
  renameSync(`${manifestPath}.part`, manifestPath);
}

for (const name of readdirSync(pkg)) {
  if (!keep.has(name)) rmSync(join(pkg, name), { force: true, recursive: true });
}

const size = (name) => readFileSync(join(pkg, name)).length;
const kb = (n) => `${Math.round(n / 1024).toLocaleString("en-US")} KB`;
console.error(
  `${outputName}_bg.wasm: ${kb(wasm.length)}, ${kb(size(`${outputName}_bg.wasm.br`))} brotli, ` +
    `${kb(size(`${outputName}_bg.wasm.gz`))} gzip; ${stylesheet}`,
);
for (const n of later) {
  console.error(`later, ${published(n)}: ${kb(size(published(n)))}, ${kb(size(`${published(n)}.br`))} brotli`);
}
