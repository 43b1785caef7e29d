// The strictness matrix page (conformance/publish/html.py inlines this file).
// Data comes from the JSON block #data; every text reaches the page through textContent,
// never innerHTML, so a vendor's error text cannot inject markup.
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const grid = document.getElementById("grid");
const panel = document.getElementById("detail");
const pairs = new Map(DATA.items.map((it, i) => [`${it.row}|${it.provider}|${it.mode}`, i]));
let current = null;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function definitions(entries) {
  const dl = el("dl");
  for (const [key, value] of entries) {
    if (value === undefined || value === null || value === "") continue;
    dl.append(el("dt", key));
    const dd = el("dd");
    dd.append(value instanceof Node ? value : document.createTextNode(String(value)));
    dl.append(dd);
  }
  return dl;
}

function safeLink(url, text) {
  // Only web links: a source URL is data, and must not become a javascript: link.
  if (typeof url === "string" && /^https?:\/\//.test(url)) {
    const a = el("a", text || url);
    a.href = url;
    a.rel = "noopener noreferrer";
    return a;
  }
  return document.createTextNode(text || String(url || "unknown"));
}

function lcsDiff(a, b) {
  const n = a.length, m = b.length;
  if (n * m > 4000000) return null;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1
        : Math.max(table[i + 1][j], table[i][j + 1]);
  const ops = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push(["ctx", a[i]]); i++; j++; }
    // Removed lines come before the lines that replace them, as in a unified diff.
    else if (i < n && (j === m || table[i + 1][j] >= table[i][j + 1])) ops.push(["del", a[i++]]);
    else ops.push(["add", b[j++]]);
  }
  return ops;
}

function diffBlock(raw, normalized) {
  const a = JSON.stringify(raw, null, 2).split("\n");
  const b = JSON.stringify(normalized, null, 2).split("\n");
  const ops = lcsDiff(a, b);
  const pre = el("pre", null, "diff");
  if (!ops) { pre.append(el("div", "(too large to diff here)", "gap")); return pre; }
  // Long unchanged stretches fold to their first and last three lines.
  let k = 0;
  while (k < ops.length) {
    let end = k;
    while (end < ops.length && ops[end][0] === "ctx") end++;
    if (end - k > 8) {
      ops.slice(k, k + 3).forEach(([c, t]) => pre.append(el("div", t, c)));
      pre.append(el("div", `⋯ ${end - k - 6} unchanged lines`, "gap"));
      ops.slice(end - 3, end).forEach(([c, t]) => pre.append(el("div", t, c)));
      k = end;
    } else if (end > k) {
      ops.slice(k, end).forEach(([c, t]) => pre.append(el("div", t, c)));
      k = end;
    } else {
      pre.append(el("div", ops[k][1], ops[k][0]));
      k++;
    }
  }
  return pre;
}

function evidenceSection(it) {
  const ev = it.evidence;
  const box = el("section");
  box.append(el("h3", "Evidence behind this cell"));
  if (!ev || !ev.level || ev.level === "modeled") {
    box.append(el("p", "modeled only: no vendor observation backs this cell; the verdict "
      + "comes from our profile (check() and the emulator)."));
    return box;
  }
  const src = ev.source;
  const url = typeof src === "string" ? src : (src && src.url);
  box.append(definitions([["level", el("span", ev.level, `level ${ev.level}`)],
    ["date", ev.date], ["model", ev.model], ["source", url ? safeLink(url) : "unknown"],
    ["observation", ev.file || ev.path]]));
  return box;
}

function answerSection(it) {
  const box = el("section");
  box.append(el("h3", "Vendor's answer"));
  box.append(definitions([["verdict", `${it.verdict} (HTTP ${it.status ?? "none"})`],
    ["expected", it.expected ?? "no expectation"], ["error type", it.error_type],
    ["error code", it.error_code], ["why inconclusive", it.reason]]));
  if (it.message) box.append(el("pre", it.message, "answer"));
  else if (it.verdict === "accept") box.append(el("p", "accepted (no error text)"));
  if (it.problem) box.append(el("p", (it.known_gap ? "declared known gap: " : "FAILED: ")
    + (it.known_gap || it.problem), "problem"));
  return box;
}

function requestSection(it) {
  const box = el("section");
  const raw = DATA.items[pairs.get(`${it.row}|${it.provider}|raw`)];
  const norm = DATA.items[pairs.get(`${it.row}|${it.provider}|normalized`)];
  const rb = raw && raw.body >= 0 ? DATA.bodies[raw.body] : null;
  const nb = norm && norm.body >= 0 ? DATA.bodies[norm.body] : null;
  box.append(el("h3", "Request: raw → normalized"));
  if (rb === null || nb === null) {
    box.append(el("p", "The request bodies are not in this report (no cassette recorded them)."));
    const one = rb ?? nb;
    if (one !== null) box.append(el("pre", JSON.stringify(one, null, 2)));
  } else if (raw.body === norm.body) {
    box.append(el("p", "normalize left the request unchanged:"));
    box.append(el("pre", JSON.stringify(rb, null, 2)));
  } else {
    box.append(diffBlock(rb, nb));
  }
  const changes = (norm && norm.changes) || [];
  if (changes.length) {
    const ul = el("ul");
    changes.forEach(c => ul.append(el("li", `${c.code} at ${c.where}: ${c.what}`
      + (c.lossless ? "" : " (lossy)"))));
    box.append(el("p", "What normalize changed:"), ul);
  }
  return box;
}

function show(cell) {
  const it = DATA.items[Number(cell.dataset.i)];
  const row = DATA.rows[it.row];
  panel.replaceChildren();
  const close = el("button", "×", "close");
  close.type = "button";
  close.setAttribute("aria-label", "close the detail (Escape)");
  close.addEventListener("click", hide);
  panel.append(close, el("h2", row.title), el("p", `${row.scenario} · ${it.provider} · ${it.mode}`));
  panel.append(answerSection(it), evidenceSection(it));
  const origin = el("section");
  origin.append(el("h3", "Where the verdict came from"), el("p", it.origin));
  origin.append(el("p", `check() predicted: ${it.predicted}`
    + (it.predicted_rule ? ` (${it.predicted_rule}${it.predicted_message ? ": " + it.predicted_message : ""})` : "")));
  panel.append(origin, requestSection(it));
  document.querySelectorAll("td.selected").forEach(c => c.classList.remove("selected"));
  cell.classList.add("selected");
  panel.hidden = false;
  panel.dataset.i = cell.dataset.i;
  document.body.classList.add("open");
  cell.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function hide() {
  panel.hidden = true;
  delete panel.dataset.i;
  document.body.classList.remove("open");
  document.querySelectorAll("td.selected").forEach(c => c.classList.remove("selected"));
  if (current) current.focus();
}

function focusCell(cell) {
  if (!cell) return;
  if (current) current.tabIndex = -1;
  cell.tabIndex = 0;
  current = cell;
  cell.focus();
  if (!panel.hidden) show(cell);
}

const shown = node => node.offsetParent !== null;

function neighbour(cell, dRow, dCol) {
  if (dCol) {
    const cells = [...cell.parentElement.children];
    for (let k = cell.cellIndex + dCol; k >= 0 && k < cells.length; k += dCol)
      if (cells[k].classList.contains("cell") && shown(cells[k])) return cells[k];
    return null;
  }
  const rows = [...grid.tBodies[0].rows].filter(r => !r.classList.contains("topic") && shown(r));
  for (let k = rows.indexOf(cell.parentElement) + dRow; k >= 0 && k < rows.length; k += dRow) {
    const target = rows[k].cells[cell.cellIndex];
    if (target && target.classList.contains("cell") && shown(target)) return target;
  }
  return null;
}

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
grid.addEventListener("keydown", ev => {
  const cell = ev.target.closest("td.cell");
  if (!cell) return;
  if (MOVES[ev.key]) { ev.preventDefault(); focusCell(neighbour(cell, ...MOVES[ev.key])); }
  else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); show(cell); }
});
document.addEventListener("keydown", ev => { if (ev.key === "Escape" && !panel.hidden) hide(); });
grid.addEventListener("click", ev => {
  const cell = ev.target.closest("td.cell");
  if (cell) { focusCell(cell); show(cell); }
});

function applyFilters() {
  const value = id => document.getElementById(id).value;
  const [t, p, v, e] = ["topic", "provider", "verdict", "evidence"].map(value);
  document.querySelectorAll("#grid [data-provider]").forEach(c => {
    c.style.display = !p || c.dataset.provider === p ? "" : "none"; });
  let matching = 0;
  document.querySelectorAll("#grid tbody tr").forEach(r => {
    if (r.classList.contains("topic")) return;
    let hits = 0;
    r.querySelectorAll("td.cell").forEach(c => {
      const hit = (!v || c.classList.contains(v)) && (!e || c.dataset.ev === e);
      c.classList.toggle("dim", !hit);
      if (hit && (!p || c.dataset.provider === p)) hits++;
    });
    const visible = (!t || r.dataset.topic === t) && hits > 0;
    r.style.display = visible ? "" : "none";
    if (visible) matching += hits;
  });
  document.querySelectorAll("#grid tr.topic").forEach(h => {
    const rows = grid.querySelectorAll(`tbody tr[data-topic="${CSS.escape(h.dataset.topic)}"]:not(.topic)`);
    h.style.display = [...rows].some(r => r.style.display !== "none") ? "" : "none"; });
  document.getElementById("count").textContent = `${matching} cells shown`;
}
["topic", "provider", "verdict", "evidence"].forEach(id =>
  document.getElementById(id).addEventListener("change", applyFilters));

function placeHeaders() {
  // The provider row sticks just under the (sticky) filter bar, whatever its height.
  const bar = document.querySelector(".filters").getBoundingClientRect().height;
  const head = grid.tHead.getBoundingClientRect().height;
  document.documentElement.style.setProperty("--bar", `${bar}px`);
  // Cells brought into view by the keyboard must not hide under the sticky headers.
  document.documentElement.style.scrollPaddingTop = `${bar + head}px`;
  document.documentElement.style.scrollPaddingLeft = `${grid.querySelector("th.s").offsetWidth}px`;
}
window.addEventListener("resize", placeHeaders);
placeHeaders();
applyFilters();
const first = grid.querySelector("td.cell");
if (first) { first.tabIndex = 0; current = first; }
