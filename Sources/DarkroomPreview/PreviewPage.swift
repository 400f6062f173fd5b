/// The preview page: plain HTML, CSS and JavaScript, served from the binary (no CDN, no build
/// step). It reads the catalogue from /api/filters and sends every edit to /api/render.
enum PreviewPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>darkroom preview</title>
<link rel="icon" href="data:,">
<style>
:root { --bg:#f6f5f2; --panel:#fff; --line:#d9d6cf; --ink:#222; --muted:#6b675f; --accent:#8a4b16; --bad:#b00020; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.4 system-ui, sans-serif; color:var(--ink); background:var(--bg); }
header { display:flex; flex-wrap:wrap; gap:.6em 1.2em; align-items:center; padding:.5em 1em; border-bottom:1px solid var(--line); background:var(--panel); }
header h1 { font-size:16px; margin:0; }
header label { color:var(--muted); }
main { display:grid; grid-template-columns: 250px 450px 1fr; height: calc(100vh - 52px); }
section { overflow:auto; padding:.6em .8em; border-right:1px solid var(--line); }
h2 { font-size:13px; text-transform:uppercase; letter-spacing:.05em; color:var(--muted); margin:.4em 0; }
#catalogue details { margin:.2em 0; }
#catalogue summary { cursor:pointer; font-weight:600; }
.filter { padding:.25em .3em; border-radius:4px; display:grid; grid-template-columns:1fr auto; gap:0 .4em; }
.filter:hover { background:#efebe4; }
.filter .desc { grid-column:1 / 3; color:var(--muted); font-size:12px; }
.filter code { color:var(--muted); font-size:11px; }
button { font:inherit; padding:.1em .5em; border:1px solid var(--line); background:#faf9f7; border-radius:4px; cursor:pointer; }
button:hover { border-color:var(--accent); }
.step { border:1px solid var(--line); border-radius:6px; background:var(--panel); margin:.5em 0; padding:.3em .6em .5em; }
.step.off { opacity:.55; }
.step-head { display:flex; gap:.3em; align-items:center; }
.step-head strong { flex:1; }
.step-head button { padding:0 .35em; }
.param { display:grid; grid-template-columns: 90px 1fr; gap:.2em .5em; align-items:center; margin:.25em 0; }
.param > label { font-family:ui-monospace, monospace; font-size:12px; overflow:hidden; text-overflow:ellipsis; }
.param .ctl { display:flex; gap:.3em; align-items:center; }
.param .ctl input[type=range] { flex:1; min-width:60px; }
.param .ctl input[type=number] { width:5.5em; }
.param .ctl input[type=text] { flex:1; min-width:0; font-family:ui-monospace, monospace; font-size:12px; }
.param.unset label { color:var(--muted); }
.small { font-size:11px; color:var(--muted); }
.error { grid-column:1 / 3; color:var(--bad); font-size:12px; }
.error:empty { display:none; }
#pictures { display:grid; grid-template-columns:1fr 1fr; gap:.6em; }
figure { margin:0; }
figure img { max-width:100%; max-height:46vh; display:block; background:repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0/16px 16px; cursor:crosshair; }
figcaption { color:var(--muted); font-size:12px; }
/* The split view: the output laid over the original, cut at the divider (original left of it). */
#pictures.split { display:block; position:relative; --split:50%; padding-bottom:1.6em; }
#pictures.split img { width:100%; max-height:none; }
#pictures.split #fig-original figcaption { display:none; }
#pictures.split #fig-output { position:absolute; top:0; left:0; width:100%; }
#pictures.split #output { clip-path:inset(0 0 0 var(--split)); }
#splitbar { display:flex; gap:.5em; align-items:center; margin:.3em 0; color:var(--muted); }
#splitbar input[type=range] { flex:1; }
#region { display:flex; gap:.6em; margin:.6em 0; }
.loupe { width:256px; height:256px; border:1px solid var(--line); background-repeat:no-repeat; image-rendering:pixelated; }
pre { background:#f0eee9; padding:.5em; overflow:auto; font-size:12px; white-space:pre-wrap; word-break:break-all; }
#messages { color:var(--bad); }
#messages:empty { display:none; }
#status[data-state=rendering]::after { content:" …"; }
</style>
</head>
<body data-state="loading">
<header>
  <h1>darkroom preview</h1>
  <label>image <select id="image" aria-label="image"></select></label>
  <label>seed <input id="seed" aria-label="seed" size="20" inputmode="numeric"></label>
  <button id="newseed" type="button">new seed</button>
  <span id="configbar" hidden>
    <label>chain of <select id="outputs" aria-label="config output"></select></label>
    <button id="open" type="button">open</button>
    <button id="save" type="button" disabled>save to config</button>
  </span>
  <span id="status" role="status" data-state="idle"></span>
</header>
<main>
<section id="catalogue" aria-label="catalogue">
  <h2>Filters</h2>
  <input id="search" type="search" aria-label="search filters" placeholder="search filters" style="width:100%">
  <div id="categories"></div>
</section>
<section id="chainpane" aria-label="chain">
  <h2>Chain</h2>
  <div id="messages" role="alert"></div>
  <div id="chain"></div>
  <p class="small" id="empty">Add filters from the catalogue.</p>
</section>
<section id="out" aria-label="picture">
  <div id="splitbar"><label><input type="checkbox" id="split" aria-label="split view"> split view</label>
    <span id="splitcontrol" hidden>original ◀ <input type="range" id="splitpos" aria-label="split position" min="0" max="100" step="1" value="50"> ▶ output</span></div>
  <div id="pictures">
    <figure id="fig-original"><img id="original" alt="original"><figcaption>original</figcaption></figure>
    <figure id="fig-output"><img id="output" alt="output"><figcaption>output — <span id="time">not rendered yet</span></figcaption></figure>
  </div>
  <h2>100 % — click a picture to choose the region</h2>
  <div id="region"><div class="loupe" id="loupe-original" title="original at 100 %"></div><div class="loupe" id="loupe-output" title="output at 100 %"></div></div>
  <h2>Config YAML <button type="button" id="copy-yaml">copy</button></h2>
  <pre id="yaml"></pre>
  <h2>process syntax <button type="button" id="copy-syntax">copy</button></h2>
  <pre id="syntax"></pre>
  <details><summary>report the daemon would write</summary><pre id="report"></pre></details>
  <p id="saved" class="small" role="status"></p>
</section>
</main>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const page = Math.random().toString(36).slice(2) + Date.now().toString(36);
const $ = (id) => document.getElementById(id);
let filters = [], byName = {}, state = null, chain = [], sequence = 0, controller = null, opened = null, timer = null;
let region = { fx: 0.5, fy: 0.5 };

async function api(path, body) {
  const init = { headers: { "X-Darkroom-Token": token } };
  if (body !== undefined) { init.method = "POST"; init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  if (body && body.signal) { init.signal = body.signal; delete body.signal; init.body = JSON.stringify(body); }
  const r = await fetch(path, init);
  const text = await r.text();
  let data = null; try { data = JSON.parse(text); } catch (e) { data = { message: text.trim() }; }
  return { status: r.status, data };
}
const withToken = (url) => url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// ---- catalogue
function buildCatalogue() {
  const cats = {};
  for (const f of filters) for (const c of (f.categories.length ? f.categories : ["other"])) (cats[c] = cats[c] || []).push(f);
  const root = $("categories"); root.textContent = "";
  for (const c of Object.keys(cats).sort()) {
    const d = el("details", { open: true, "data-category": c }, el("summary", {}, c));
    for (const f of cats[c]) {
      d.append(el("div", { class: "filter", "data-filter": f.name, "data-search": (f.name + " " + f.display_name + " " + f.description + " " + (f.counterpart || "")).toLowerCase() },
        el("span", {}, f.display_name, " ", el("code", {}, f.name)),
        el("button", { type: "button", "aria-label": "add " + f.name, onclick: () => addStep(f.name) }, "add"),
        el("span", { class: "desc" }, f.description + (f.counterpart ? " (counterpart: " + f.counterpart + ")" : ""))));
    }
    root.append(d);
  }
}
$("search").addEventListener("input", () => {
  const q = $("search").value.trim().toLowerCase();
  for (const f of document.querySelectorAll(".filter")) f.hidden = q && !f.dataset.search.includes(q);
  for (const d of document.querySelectorAll("#categories details")) d.hidden = ![...d.querySelectorAll(".filter")].some((f) => !f.hidden);
});

// ---- parameters: how each kind is shown and written
const isNumeric = (k) => ["scalar", "integer", "angle", "length"].includes(k);
const deg = (rad) => Math.round(rad * 180 / Math.PI * 1e6) / 1e6;
function numericRange(p) {
  const conv = (v) => v === undefined || v === null ? undefined : (p.kind === "angle" ? deg(v) : v);
  const hardMin = conv(p.minimum), hardMax = conv(p.maximum);
  let lo = conv(p.slider_minimum ?? p.minimum), hi = conv(p.slider_maximum ?? p.maximum);
  if (lo === undefined) lo = Math.min(0, hi ?? 0); if (hi === undefined) hi = Math.max(lo + 100, 100);
  return { lo, hi, hardMin, hardMax };
}
function parseDefault(p) {
  const d = p.default;
  if (isNumeric(p.kind)) {
    if (typeof d === "number") return { num: p.kind === "angle" ? deg(d) : d, unit: "" };
    if (typeof d === "string") {
      const m = d.match(/^(-?[0-9.]+)\s*(%|px|deg)?$/);
      if (m) return { num: Number(m[1]), unit: m[2] === "%" ? "%" : "" };
    }
    const r = numericRange(p); return { num: r.lo, unit: "" };
  }
  return d;
}
function paramValue(step, name) { const p = step.parameters.find((q) => q.name === name); return p ? p.value : undefined; }
function setParam(step, name, value) {
  const p = step.parameters.find((q) => q.name === name);
  if (value === undefined) step.parameters = step.parameters.filter((q) => q.name !== name);
  else if (p) p.value = value; else step.parameters.push({ name, value });
}
function numberFromText(text) {
  const m = String(text).match(/^(-?[0-9.eE+-]+)\s*(%|px|deg)?$/);
  return m ? { num: Number(m[1]), unit: m[2] === "%" ? "%" : "" } : null;
}
function hexFromColor(text) {
  const m = String(text || "").match(/^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$/);
  return m ? { rgb: "#" + m[1].toLowerCase(), alpha: m[2] ? parseInt(m[2], 16) / 255 : 1 } : { rgb: "#000000", alpha: 1 };
}

function paramControl(step, index, p) {
  const id = `s${index}-${p.name}`;
  const current = paramValue(step, p.name);
  const row = el("div", { class: "param" + (current === undefined ? " unset" : ""), "data-param": p.name });
  const label = el("label", { for: id, title: p.description }, p.name);
  const ctl = el("div", { class: "ctl" });
  const changed = (value) => { setParam(step, p.name, value); row.classList.toggle("unset", value === undefined); schedule(); };
  const random = () => el("label", { class: "small" }, el("input", { type: "checkbox", "aria-label": p.name + " random", checked: current === "random",
      onchange: (e) => { changed(e.target.checked ? "random" : undefined); renderChain(); } }), "random");
  if (isNumeric(p.kind)) {
    const r = numericRange(p);
    const given = current !== undefined && current !== "random" ? numberFromText(current) : null;
    const v = given || parseDefault(p);
    const step_ = p.kind === "integer" ? 1 : Math.max((r.hi - r.lo) / 1000, 1e-6);
    const slider = el("input", { type: "range", id, "aria-label": p.name, min: r.lo, max: r.hi, step: step_, value: v.num, disabled: current === "random" });
    const number = el("input", { type: "number", "aria-label": p.name, min: r.hardMin, max: r.hardMax, step: "any", value: v.num, disabled: current === "random" });
    let unit = null;
    const text = () => {
      const n = number.value.trim();
      if (n === "") return undefined;
      return p.kind === "angle" ? n + "deg" : (unit && unit.value === "%" ? n + "%" : n);
    };
    slider.addEventListener("input", () => { number.value = slider.value; changed(text()); });
    number.addEventListener("input", () => { if (number.value !== "") slider.value = number.value; changed(text()); });
    ctl.append(slider, number);
    if (p.kind === "length") {
      unit = el("select", { "aria-label": p.name + " unit" }, el("option", { value: "" }, "px"), el("option", { value: "%" }, "%"));
      unit.value = v.unit; unit.addEventListener("change", () => changed(text())); ctl.append(unit);
    }
    if (p.kind === "angle") ctl.append(el("span", { class: "small" }, "°"));
    if (p.slider_minimum !== undefined || p.slider_maximum !== undefined) ctl.append(random());
  } else if (p.kind === "boolean") {
    const box = el("input", { type: "checkbox", id, "aria-label": p.name, checked: current !== undefined ? current === "true" : p.default === true });
    box.addEventListener("change", () => changed(box.checked ? "true" : "false"));
    ctl.append(box);
  } else if (p.kind === "choice") {
    const sel = el("select", { id, "aria-label": p.name }, ...p.choices.map((c) => el("option", { value: c }, c)));
    sel.value = current !== undefined ? current : (p.default ?? p.choices[0]);
    sel.addEventListener("change", () => changed(sel.value));
    ctl.append(sel);
  } else if (p.kind === "color") {
    const c = hexFromColor(current !== undefined ? current : p.default);
    const pick = el("input", { type: "color", id, "aria-label": p.name, value: c.rgb, disabled: current === "random" });
    const alpha = el("input", { type: "range", "aria-label": p.name + " alpha", min: 0, max: 1, step: 0.01, value: c.alpha, disabled: current === "random" });
    const text = () => pick.value + Math.round(Number(alpha.value) * 255).toString(16).padStart(2, "0");
    pick.addEventListener("input", () => changed(text())); alpha.addEventListener("input", () => changed(text()));
    ctl.append(pick, el("span", { class: "small" }, "α"), alpha, random());
  } else if (["image", "file", "graphic"].includes(p.kind)) {
    const sel = el("select", { id, "aria-label": p.name }, el("option", { value: "" }, "(none)"), ...state.assets.map((a) => el("option", { value: a }, a)));
    if (current !== undefined && !state.assets.includes(current)) sel.append(el("option", { value: current }, current));
    sel.value = current ?? "";
    sel.addEventListener("change", () => changed(sel.value || undefined));
    ctl.append(sel);
  } else {
    const shown = current !== undefined ? current : (p.default === undefined ? "" : (typeof p.default === "string" ? p.default : JSON.stringify(p.default)));
    const input = el("input", { type: "text", id, "aria-label": p.name, value: shown, placeholder: p.kind });
    input.addEventListener("change", () => changed(input.value === "" ? undefined : input.value));
    ctl.append(input);
  }
  if (current !== undefined) ctl.append(el("button", { type: "button", "aria-label": p.name + " reset", title: "back to the default", onclick: () => { changed(undefined); renderChain(); } }, "×"));
  row.append(label, ctl, el("div", { class: "error", role: "alert", "data-error-for": p.name }));
  return row;
}

// ---- chain
function addStep(name) { chain.push({ name, enabled: true, parameters: [] }); renderChain(); schedule(); }
function renderChain() {
  const root = $("chain"); root.textContent = "";
  $("empty").hidden = chain.length > 0;
  chain.forEach((step, i) => {
    const f = byName[step.name];
    const box = el("fieldset", { class: "step" + (step.enabled ? "" : " off"), "data-step": i, "data-filter": step.name });
    const move = (d) => { const j = i + d; if (j < 0 || j >= chain.length) return; [chain[i], chain[j]] = [chain[j], chain[i]]; renderChain(); schedule(); };
    box.append(el("div", { class: "step-head" },
      el("strong", {}, f ? f.display_name : step.name, " ", el("code", { class: "small" }, step.name)),
      el("label", { class: "small" }, el("input", { type: "checkbox", "aria-label": "step " + (i + 1) + " on", checked: step.enabled,
        onchange: (e) => { step.enabled = e.target.checked; renderChain(); schedule(); } }), "on"),
      el("button", { type: "button", "aria-label": "random step " + (i + 1), title: "every parameter with a slider range drawn at random from the seed",
        onclick: () => { for (const p of (f ? f.parameters : [])) if (p.slider_minimum !== undefined || p.slider_maximum !== undefined) setParam(step, p.name, "random"); renderChain(); schedule(); } }, "random"),
      el("button", { type: "button", "aria-label": "move step " + (i + 1) + " up", onclick: () => move(-1) }, "↑"),
      el("button", { type: "button", "aria-label": "move step " + (i + 1) + " down", onclick: () => move(1) }, "↓"),
      el("button", { type: "button", "aria-label": "remove step " + (i + 1), onclick: () => { chain.splice(i, 1); renderChain(); schedule(); } }, "✕")));
    box.append(el("div", { class: "error", role: "alert", "data-step-error": i }));
    for (const p of (f ? f.parameters : [])) box.append(paramControl(step, i, p));
    root.append(box);
  });
}

// ---- render: every edit renders; a newer edit cancels the older one
function schedule() { clearTimeout(timer); timer = setTimeout(render, 60); }
function showProblems(problems) {
  for (const e of document.querySelectorAll(".error")) e.textContent = "";
  $("messages").textContent = "";
  for (const p of problems || []) {
    let target = null;
    const box = p.step !== null && p.step !== undefined ? document.querySelector(`[data-step="${p.step}"]`) : null;
    if (box && p.parameter) target = box.querySelector(`[data-error-for="${p.parameter}"]`);
    if (!target && box) target = box.querySelector("[data-step-error]");
    if (!target) target = $("messages");
    target.textContent = (target.textContent ? target.textContent + "\n" : "") + p.message;
  }
}
async function render() {
  const image = currentImage();
  const mine = ++sequence;
  if (controller) controller.abort();
  controller = new AbortController();
  const body = { page, sequence: mine, root: image ? image.root : "", path: image ? image.path : "", chain: { steps: chain }, seed: $("seed").value.trim() };
  if (!image) { const c = await api("/api/check", { chain: body.chain }); showOut(c.data); showProblems(c.data.problems); return; }
  setStatus("rendering", "rendering");
  // A quick render on the screen-size copy first; the exact picture replaces it.
  let exactShown = false;
  const asked = performance.now();
  api("/api/render", Object.assign({}, body, { approximate: true })).then(async (a) => {
    if (mine !== sequence || exactShown || a.status !== 200 || a.data.id === undefined || a.data.id === null) return;
    const url = withToken(`/api/picture?page=${encodeURIComponent(page + "~approximate")}&id=${a.data.id}`);
    const probe = new Image();
    await new Promise((resolve) => { probe.onload = probe.onerror = resolve; probe.src = url; });
    if (mine !== sequence || exactShown) return;
    $("output").src = url;
    $("output").dataset.approximate = "true";
    $("time").textContent = `approximate (screen size) after ${Math.round(performance.now() - asked)} ms; exact picture coming`;
  }).catch(() => {});
  // A slow render says how far it got (in output strips) while the exact picture is coming.
  let answered = false;
  const progress = setInterval(async () => {
    if (mine !== sequence || answered) return clearInterval(progress);
    const p = await api(`/api/progress?page=${encodeURIComponent(page)}`).catch(() => null);
    if (p && p.status === 200 && p.data.sequence === mine && p.data.of && mine === sequence && !answered) {
      setStatus("rendering", `rendering: ${Math.round(100 * p.data.strips / p.data.of)} %`);
    }
  }, 500);
  let r;
  // The server renders the approximate picture first and the exact one after it, not both at once.
  try { r = await api("/api/render", Object.assign(body, { approximateFirst: true, signal: controller.signal })); } catch (e) { if (e.name === "AbortError") return; throw e; } finally { answered = true; clearInterval(progress); }
  if (mine !== sequence || r.data.superseded) return;
  if (r.status !== 200) { showProblems([{ message: r.data.message }]); setStatus("idle", "failed"); return; }
  showOut(r.data); showProblems(r.data.problems);
  if (r.data.problems.length) { setStatus("idle", "see the errors in the chain"); return; }
  if (!chain.some((s) => s.enabled)) { $("output").removeAttribute("src"); $("output").dataset.renderId = ""; setStatus("idle", "empty chain"); return; }
  $("report").textContent = r.data.report || "";
  if (r.data.id === undefined || r.data.id === null) {
    let why = r.data.status; try { why = JSON.parse(r.data.report).error.message; } catch (e) {}
    showProblems([{ message: "the render failed: " + why }]); setStatus("idle", "failed"); return;
  }
  const out = $("output");
  const url = withToken(`/api/picture?page=${encodeURIComponent(page)}&id=${r.data.id}`);
  const probe = new Image();
  await new Promise((resolve) => { probe.onload = probe.onerror = resolve; probe.src = url; });
  if (mine !== sequence) return;
  exactShown = true;
  out.src = url;
  out.dataset.approximate = "false";
  out.dataset.renderId = String(r.data.id);
  out.dataset.seed = body.seed;
  out.dataset.syntax = r.data.syntax;
  $("time").textContent = `exact, rendered in ${Math.round(r.data.seconds * 1000)} ms`;
  out.dataset.seconds = String(r.data.seconds);
  updateRegion();
  setStatus("idle", "exact picture");
}
function showOut(d) { $("yaml").textContent = d.yaml || ""; $("syntax").textContent = d.syntax || ""; }
function setStatus(s, text) { document.body.dataset.state = s; $("status").dataset.state = s; $("status").textContent = text; }

// ---- pictures and the 100 % region
function currentImage() { const i = $("image").selectedIndex; return i >= 0 ? state.images[i] : null; }
function loadOriginal() {
  const image = currentImage();
  if (image) $("original").src = withToken(`/api/original?root=${encodeURIComponent(image.root)}&path=${encodeURIComponent(image.path)}`);
}
function pick(e) { const r = e.target.getBoundingClientRect(); region = { fx: (e.clientX - r.left) / r.width, fy: (e.clientY - r.top) / r.height }; updateRegion(); }
function updateRegion() {
  for (const [img, loupe] of [[$("original"), $("loupe-original")], [$("output"), $("loupe-output")]]) {
    if (!img.src || !img.naturalWidth) continue;
    const x = Math.round(region.fx * img.naturalWidth - 128), y = Math.round(region.fy * img.naturalHeight - 128);
    loupe.style.backgroundImage = `url("${img.src}")`;
    loupe.style.backgroundPosition = `${-x}px ${-y}px`;
  }
}
function splitView() {
  $("pictures").classList.toggle("split", $("split").checked);
  $("splitcontrol").hidden = !$("split").checked;
  $("pictures").style.setProperty("--split", $("splitpos").value + "%");
}
$("split").addEventListener("change", splitView); $("splitpos").addEventListener("input", splitView);
$("original").addEventListener("click", pick); $("output").addEventListener("click", pick);
$("original").addEventListener("load", updateRegion); $("output").addEventListener("load", updateRegion);

// ---- copy buttons
async function copy(text, button) {
  try { await navigator.clipboard.writeText(text); }
  catch (e) { const t = el("textarea", {}, text); document.body.append(t); t.select(); document.execCommand("copy"); t.remove(); }
  button.textContent = "copied"; setTimeout(() => (button.textContent = "copy"), 1200);
}
$("copy-yaml").addEventListener("click", (e) => copy($("yaml").textContent, e.target));
$("copy-syntax").addEventListener("click", (e) => copy($("syntax").textContent, e.target));

// ---- config: open and save one output's chain
async function openChain() {
  const [w, o] = $("outputs").value.split(":").map(Number);
  const r = await api(`/api/config/chain?watch=${w}&output=${o}`);
  if (r.status !== 200) { showProblems(r.data.problems || [{ message: r.data.message }]); return; }
  opened = r.data; chain = opened.chain.steps; $("save").disabled = false;
  $("saved").textContent = `opened ${state.watches[w].name} → ${state.watches[w].outputs[o]}`;
  renderChain(); schedule();
}
async function saveChain() {
  if (!opened) return;
  const r = await api("/api/config/chain", { watch: opened.watch, output: opened.output, chain: { steps: chain }, sha256: opened.sha256 });
  if (r.status === 200) { opened.sha256 = r.data.sha256; $("saved").textContent = `saved ${r.data.saved} (previous file kept as ${r.data.backup}); ${r.data.reload}`; showProblems([]); }
  else if (r.status === 422) { showProblems(r.data.problems); $("saved").textContent = "not saved: see the errors"; }
  else if (r.status === 409) {
    // Someone changed the file: nothing is written, the page's chain stays. The file as it is
    // now becomes the one a second save checks against, so saving again is a decision.
    const now = await api(`/api/config/chain?watch=${opened.watch}&output=${opened.output}`);
    if (now.status === 200) opened.sha256 = now.data.sha256;
    $("saved").textContent = "not saved: " + r.data.message + " Save again to put this chain into the file as it is now (its other changes stay), or open to load the chain from the file.";
  }
  else { $("saved").textContent = "not saved: " + (r.data.message || r.status); }
}
$("open").addEventListener("click", openChain); $("save").addEventListener("click", saveChain);

async function start() {
  const [f, s] = await Promise.all([api("/api/filters"), api("/api/state")]);
  if (f.status !== 200 || s.status !== 200) { document.body.textContent = (f.data.message || s.data.message); return; }
  filters = f.data; state = s.data;
  for (const x of filters) byName[x.name] = x;
  buildCatalogue();
  for (const im of state.images) $("image").append(el("option", {}, im.label));
  $("image").addEventListener("change", () => { loadOriginal(); schedule(); });
  $("seed").value = state.seed;
  $("seed").addEventListener("change", schedule);
  $("newseed").addEventListener("click", () => { $("seed").value = String(Math.floor(Math.random() * 2 ** 52)); schedule(); });
  if (state.config) {
    $("configbar").hidden = false;
    state.watches.forEach((w, wi) => w.outputs.forEach((o, oi) => $("outputs").append(el("option", { value: `${wi}:${oi}` }, `${w.name} → ${o}`))));
    if (state.initial) { $("outputs").value = `${state.initial.watch}:${state.initial.output}`; await openChain(); }
  }
  loadOriginal(); renderChain();
  setStatus("idle", state.images.length ? "ready" : "no image: name one on the command line, or give --config");
}
start();
</script>
</body>
</html>
"""#
}
