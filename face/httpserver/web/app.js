// toolhost's tool browser. Plain JavaScript, no dependencies, no build step.
// Every string from the server (names, descriptions, schemas, results) is
// inserted as text (textContent, append), never as HTML. Every URL is
// relative, so the page works mounted at any prefix.
(() => {
'use strict';

const $ = (id) => document.getElementById(id);
const canRun = document.body.dataset.allowExecute === 'true';
const auth = document.body.dataset.auth; // "none", "call" or "all"
const POLL_MS = 2000;
const BADGES = [['readOnlyHint', 'read-only'], ['destructiveHint', 'destructive'], ['idempotentHint', 'idempotent'], ['openWorldHint', 'open-world']];

let token = '';
const st = { tools: [], cats: [], catOf: new Map(), id: '', open: '', detail: null, detailText: '', listed: false };
let form = null; // the open tool's form: {root, fields, extras, model, json}
let uid = 0;

// el makes an element: attributes ("text" is textContent, "on…" a
// listener), then children (strings become text nodes).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of kids) if (c != null && c !== false) e.append(c);
  return e;
}

// fill replaces node's children by kids, leaving out null and false
// (replaceChildren would show them as the text "null" and "false").
function fill(node, ...kids) {
  node.replaceChildren(...kids.filter((c) => c != null && c !== false));
  return node;
}

// Num is a JSON number kept as its digits, so that 12345678901234567890
// reaches the tool as written (JSON.parse would round it).
class Num { constructor(s) { this.s = String(s); } }

function parseJSON(text) {
  return JSON.parse(text, (k, v, ctx) => (typeof v === 'number' ? new Num(ctx && ctx.source !== undefined ? ctx.source : v) : v));
}

function stringify(v, ind, cur) {
  cur = cur || '';
  const nl = ind ? '\n' + cur + ind : '', end = ind ? '\n' + cur : '', sep = ind ? ': ' : ':';
  if (v instanceof Num) return v.s;
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return '[' + v.map((x) => nl + stringify(x, ind, cur + (ind || ''))).join(',') + end + ']';
  }
  if (typeof v === 'object') {
    const ks = Object.keys(v).filter((k) => v[k] !== undefined);
    if (!ks.length) return '{}';
    return '{' + ks.map((k) => nl + JSON.stringify(k) + sep + stringify(v[k], ind, cur + (ind || ''))).join(',') + end + '}';
  }
  return JSON.stringify(v);
}
const pretty = (v) => stringify(v, '  ');
const same = (a, b) => stringify(a) === stringify(b);
const numText = (v) => (v instanceof Num ? v.s : typeof v === 'number' ? String(v) : null);

// ---- requests ----

function headers(json) {
  const h = {};
  if (json) h['Content-Type'] = 'application/json';
  if (token) h.Authorization = 'Bearer ' + token;
  return h;
}

// errorText is an error body as a person reads it: what is wrong, then
// the fix on a line of its own when the server gives one.
function errorText(j) { return j.fix ? `${j.error}\nfix: ${j.fix}` : j.error; }

async function errorOf(r) {
  try { const j = await r.json(); if (j && j.error) return errorText(j); } catch (e) { /* not JSON */ }
  return r.status + ' ' + r.statusText;
}

async function get(path, parse) {
  const r = await fetch(path, { headers: headers(), cache: 'no-store' });
  if (r.status === 401) needToken();
  if (!r.ok) throw new Error(await errorOf(r));
  return parse ? parseJSON(await r.text()) : r.json();
}

async function post(path, body) {
  const t0 = performance.now();
  const r = await fetch(path, { method: 'POST', headers: headers(true), body, cache: 'no-store' });
  const text = await r.text();
  const ms = Math.round(performance.now() - t0);
  if (r.status === 401) needToken();
  let data = null;
  try { data = parseJSON(text); } catch (e) { /* shown as text */ }
  return { ok: r.ok, status: r.status, data, text, ms };
}

const toolPath = (name, what) => 'tools/' + encodeURIComponent(name) + (what ? '/' + what : '');

function needToken() {
  const box = $('token-box');
  if (box.hidden) { box.hidden = false; $('token').focus(); }
}

// ---- the list ----

async function loadList() {
  const [tools, manifest] = await Promise.all([get('tools'), get('api/v1/tools')]);
  st.tools = Array.isArray(tools) ? tools : [];
  st.cats = (manifest && manifest.categories) || [];
  st.catOf = new Map(((manifest && manifest.tools) || []).map((t) => [t.name, t.category || '']));
  renderList();
  if (!st.listed) { st.listed = true; performance.mark('toolhost:listed'); }
}

function badges(ann) {
  const out = [];
  for (const [k, label] of BADGES) if (ann && ann[k] === true) out.push(el('span', { class: 'badge ' + label, text: label }));
  return out;
}

// iconText shows a category icon only when it is a symbol (an emoji):
// names and URLs are not shown, and nothing is ever loaded.
function iconText(icon) {
  if (typeof icon !== 'string' || !icon || [...icon].length > 3 || /[\w.:/]/.test(icon)) return null;
  return el('span', { class: 'icon', 'aria-hidden': 'true', text: icon });
}

function renderList() {
  const q = $('search').value.trim().toLowerCase();
  const groups = new Map();
  let shown = 0;
  for (const t of st.tools) {
    if (q && !t.name.toLowerCase().includes(q) && !(t.description || '').toLowerCase().includes(q)) continue;
    shown++;
    const c = st.catOf.get(t.name) || '';
    if (!groups.has(c)) groups.set(c, []);
    groups.get(c).push(t);
  }
  const known = new Map(st.cats.map((c) => [c.id, c]));
  const order = st.cats.map((c) => c.id).filter((id) => groups.has(id));
  for (const id of [...groups.keys()].sort()) if (id && !known.has(id)) order.push(id);
  if (groups.has('')) order.push('');
  const frag = document.createDocumentFragment();
  order.forEach((id, i) => {
    const c = known.get(id);
    const ul = el('ul');
    for (const t of groups.get(id)) {
      const cur = t.name === st.open;
      const a = el('a', { href: '#tool=' + encodeURIComponent(t.name), 'aria-current': cur ? 'true' : null }, t.name);
      ul.append(el('li', { class: cur ? 'current' : null }, a, ...badges(t.annotations), t.description ? el('p', { class: 'desc', text: t.description }) : null));
    }
    if (order.length === 1 && id === '') { frag.append(ul); return; }
    const hid = 'cat-' + i;
    const title = el('h2', { id: hid, title: (c && c.description) || null }, iconText(c && c.icon), id === '' ? 'Other' : (c && c.name) || id);
    frag.append(el('section', { 'aria-labelledby': hid }, title, ul));
  });
  if (!shown) frag.append(el('p', { class: 'muted', text: st.tools.length ? 'No tool matches.' : 'This server serves no tools.' }));
  fill($('list'), frag);
  const n = st.tools.length, word = n === 1 ? 'tool' : 'tools';
  $('count').textContent = q ? `${shown} of ${n} ${word}` : `${n} ${word}`;
}

// poll watches the identity: when it changes the list is read again and
// the open tool stays open (its form keeps its values).
async function poll() {
  try {
    if (!document.hidden) {
      const id = await get('identity');
      const sid = (id && id.server_id) || '';
      $('identity').textContent = `${id.tools_count} ${id.tools_count === 1 ? 'tool' : 'tools'} · id ${sid.slice(0, 8)}`;
      $('identity').title = 'server_id ' + sid;
      if (sid !== st.id) {
        const first = !st.id;
        st.id = sid;
        await loadList();
        if (!first && st.open) refreshOpen();
      }
    }
  } catch (e) {
    $('identity').textContent = 'offline: ' + e.message;
    st.id = st.id || '';
  }
  setTimeout(poll, POLL_MS);
}

async function refreshOpen() {
  const name = st.open;
  if (!st.tools.some((t) => t.name === name)) {
    $('detail').prepend(el('p', { class: 'notice', role: 'status', text: `The tool ${name} is no longer served.` }));
    return;
  }
  try {
    const text = await fetchDetail(name);
    if (name === st.open && text !== st.detailText) renderDetail(text, form && form.model);
  } catch (e) { /* keep what is shown */ }
}

// ---- a tool ----

async function fetchDetail(name) {
  const r = await fetch(toolPath(name, 'detail'), { headers: headers(), cache: 'no-store' });
  if (r.status === 401) needToken();
  if (!r.ok) throw new Error(await errorOf(r));
  return r.text();
}

async function openTool(name) {
  st.open = name;
  renderList();
  const main = $('detail');
  if (!name) { fill(main, el('p', { class: 'muted placeholder', text: 'Choose a tool to see its description and a form to try it.' })); return; }
  let text;
  try { text = await fetchDetail(name); } catch (e) {
    if (st.open === name) fill(main, el('p', { class: 'notice', role: 'alert', text: `Cannot show ${name}: ${e.message}` }));
    return;
  }
  if (st.open !== name) return;
  renderDetail(text, null);
  main.focus({ preventScroll: true });
}

function renderDetail(text, keep) {
  const d = parseJSON(text);
  st.detail = d; st.detailText = text;
  const schema = d.inputSchema || {};
  const props = (schema.properties && typeof schema.properties === 'object') ? schema.properties : {};
  const req = Array.isArray(schema.required) ? schema.required : [];
  const cat = st.cats.find((c) => c.id === d.category);
  const meta = el('dl', { class: 'meta' });
  if (d.category) meta.append(el('dt', { text: 'Category' }), el('dd', { text: (cat && cat.name) || d.category }));
  if (d.source) meta.append(el('dt', { text: 'Source' }), el('dd', null, el('code', { text: d.source })));

  const fields = [];
  const byPtr = new Map();
  const fieldBox = el('div', { class: 'fields' });
  const keys = Object.keys(props);
  keys.sort((a, b) => req.includes(b) - req.includes(a)); // required first, else as served
  for (const k of keys) {
    const s = props[k];
    const f = field(s, k, k, req.includes(k), '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), byPtr);
    f.key = k;
    fields.push(f);
    fieldBox.append(f.el);
  }
  if (!fields.length) fieldBox.append(el('p', { class: 'muted', text: 'This tool takes no arguments.' }));
  const json = el('textarea', { id: 'json-view', spellcheck: 'false', rows: 10, 'aria-describedby': 'json-err' });
  const jsonErr = el('p', { id: 'json-err', class: 'ferr', 'aria-live': 'polite' });
  const f = form = { fields, byPtr, extras: {}, model: {}, json, jsonErr, props };
  const start = keep || defaultsOf(schema);
  setModel(start, true);

  const formEl = el('form', { 'aria-labelledby': 'args-h', novalidate: true, onsubmit: (e) => e.preventDefault(), oninput: onForm, onchange: onForm, onclick: (e) => { if (e.target.dataset.structural) onForm(); } }, fieldBox);
  json.addEventListener('input', debounce(onJSON, 200));

  const actions = el('div', { class: 'actions' },
    el('button', { type: 'button', onclick: validate }, 'Validate'),
    canRun ? el('button', { type: 'button', class: 'primary', id: 'run', onclick: () => run({}, '') }, 'Run') : null,
    el('button', { type: 'button', onclick: () => copy('toolhost') }, 'Copy as toolhost call'),
    el('button', { type: 'button', onclick: () => copy('curl') }, 'Copy as cURL'));
  const disabled = canRun ? null : el('p', { class: 'notice', id: 'exec-off' }, 'Execution is disabled on this server: restart it with ', el('code', { text: '--allow-execute' }), ' to run tools from this page. Validate works.');

  fill($('detail'),
    el('header', null, el('h2', { id: 'tool-h' }, d.name), ...badges(d.annotations)),
    d.summary ? el('p', { class: 'summary', text: d.summary }) : null,
    d.description && d.description !== d.summary ? el('div', { class: 'long', text: d.description }) : null,
    d.examples ? el('section', { 'aria-labelledby': 'ex-h' }, el('h3', { id: 'ex-h', text: 'Examples' }), el('pre', { text: d.examples })) : null,
    meta.children.length ? meta : null,
    el('div', { class: 'args' },
      el('section', null, el('h3', { id: 'args-h', text: 'Arguments' }), formEl),
      el('section', null, el('h3', null, el('label', { for: 'json-view', text: 'Arguments as JSON' })), json, jsonErr)),
    actions, disabled,
    el('div', { id: 'cmd-box', hidden: true }, el('label', { for: 'cmd', class: 'muted', text: 'Command' }), el('textarea', { id: 'cmd', class: 'cmd', readonly: true, rows: 3, spellcheck: 'false' })),
    el('section', { id: 'result', role: 'region', 'aria-labelledby': 'result-h', 'aria-live': 'polite' }, el('h3', { id: 'result-h', text: 'Result' }), el('p', { class: 'muted', text: 'Validate or run to see a result here.' })),
    el('section', { id: 'calls', role: 'region', 'aria-labelledby': 'calls-h' }, el('h3', { id: 'calls-h', text: 'Recent calls' }), el('p', { class: 'muted', text: 'Loading…' })));
  loadCalls(d.name);
}

// ---- recent calls (the audit log) ----

const CALLS = 20;

// loadCalls shows the tool's last calls as the audit log holds them,
// newest first; every value is shown as text.
async function loadCalls(name) {
  const show = (...kids) => { if (st.open === name && $('calls')) fill($('calls'), el('h3', { id: 'calls-h', text: 'Recent calls' }), ...kids); };
  let r;
  try {
    r = await fetch(toolPath(name, 'calls') + '?limit=' + CALLS, { headers: headers(), cache: 'no-store' });
  } catch (e) { return show(el('p', { class: 'notice', text: 'Cannot read the recent calls: ' + e.message })); }
  if (r.status === 401) { needToken(); return show(el('p', { class: 'muted', text: 'Give the token to see the recent calls.' })); }
  if (r.status === 403) return show(el('p', { class: 'muted', id: 'calls-no-token', text: await errorOf(r) }));
  if (!r.ok) return show(el('p', { class: 'notice', text: 'Cannot read the recent calls: ' + await errorOf(r) }));
  let a;
  try { a = parseJSON(await r.text()); } catch (e) { return show(el('p', { class: 'notice', text: 'Cannot read the recent calls: ' + e.message })); }
  if (a.audit === 'off') return show(el('p', { class: 'muted', id: 'calls-off', text: 'The audit log is off on this server: calls are not recorded (serve keeps them unless started with --audit off).' }));
  const calls = Array.isArray(a.calls) ? a.calls : [];
  if (!calls.length) return show(el('p', { class: 'muted', text: 'No call of this tool in the audit log yet.' }));
  const cols = ['Time', 'Face', 'Client', 'Approval', 'Outcome', 'Duration', 'Exit', 'Arguments'];
  const body = el('tbody');
  for (const c of calls) {
    const cl = c.client || {}, ap = c.approval;
    const client = [cl.name ? cl.name + (cl.version ? '/' + cl.version : '') : '', cl.addr, cl.token_id].filter(Boolean).join(' ');
    let argText = c.arguments == null ? '' : stringify(c.arguments);
    if (typeof c.arguments === 'string') argText = c.arguments + ` … (cut: ${numText(c.arguments_size) || '?'} bytes)`;
    let outcome = String(c.outcome || '');
    if (c.sandbox && c.sandbox.denial) outcome += ' (sandbox denied: ' + c.sandbox.denial + ')';
    body.append(el('tr', null, ...[when(c.time), c.face || '', client, ap ? ap.decision + (ap.by ? ' (' + ap.by + ')' : '') : '', outcome,
      took(c.duration_ms), numText(c.exit_status) || '', argText].map((v, i) => el('td', { class: i === 7 ? 'args-cell' : null, text: String(v) }))));
  }
  show(el('div', { class: 'calls' }, el('table', null,
    el('thead', null, el('tr', null, ...cols.map((h) => el('th', { scope: 'col', text: h })))), body)));
}

// when shows an RFC 3339 time as local "YYYY-MM-DD HH:MM:SS".
function when(t) {
  const d = new Date(String(t));
  if (isNaN(d)) return String(t || '');
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function took(v) {
  const ms = Number(numText(v));
  if (!isFinite(ms)) return '';
  return ms < 1000 ? (ms < 10 ? ms.toFixed(1) : Math.round(ms)) + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
}

function defaultsOf(s) {
  if (!s || typeof s !== 'object') return undefined;
  if (s.default !== undefined) return s.default;
  if (kindOf(s) !== 'object') return undefined;
  const out = {};
  for (const [k, p] of Object.entries(s.properties)) { const v = defaultsOf(p); if (v !== undefined) out[k] = v; }
  return Object.keys(out).length || s === (st.detail && st.detail.inputSchema) ? out : undefined;
}

function kindOf(s) {
  if (!s || typeof s !== 'object') return 'json';
  if (Array.isArray(s.enum) && s.enum.length) return 'enum';
  let t = s.type;
  if (Array.isArray(t)) { const nn = t.filter((x) => x !== 'null'); t = nn.length === 1 ? nn[0] : null; }
  if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean') return t;
  if (t === 'array' && s.items && typeof s.items === 'object' && !Array.isArray(s.items)) return 'array';
  if (t === 'object' && s.properties && typeof s.properties === 'object') return 'object';
  return 'json';
}

// field makes the control(s) of one value: {el, get, set, mark}. get
// returns undefined for "absent".
function field(s, label, name, required, ptr, byPtr) {
  s = s && typeof s === 'object' ? s : {};
  const kind = kindOf(s);
  const id = 'f' + (++uid);
  const help = s.description ? el('p', { class: 'help', id: id + '-h', text: s.description }) : null;
  const err = el('p', { class: 'ferr', id: id + '-e', hidden: true });
  const described = [help && id + '-h', id + '-e'].filter(Boolean).join(' ');
  const typeText = kind === 'json' ? 'JSON' : kind === 'enum' ? 'one of' : kind;
  const head = el('div', { class: 'lab' }, el('label', { for: id, text: label }), required ? el('span', { class: 'req', text: 'required' }) : null, el('span', { class: 'type', text: typeText }));
  let f;
  const mark = (ctl) => (msg) => {
    err.hidden = !msg; err.textContent = msg || '';
    if (ctl) { if (msg) ctl.setAttribute('aria-invalid', 'true'); else ctl.removeAttribute('aria-invalid'); }
  };
  if (kind === 'object' || kind === 'array') {
    const box = el('fieldset', { id }, el('legend', null, label, required ? el('span', { class: 'req', text: 'required' }) : null), help, err);
    if (kind === 'object') {
      const req = Array.isArray(s.required) ? s.required : [];
      const kids = Object.entries(s.properties).map(([k, p]) => {
        const c = field(p, k, k, req.includes(k), ptr + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), byPtr);
        box.append(c.el);
        return [k, c];
      });
      f = {
        el: box,
        get() { const o = {}; let any = false; for (const [k, c] of kids) { const v = c.get(); if (v !== undefined) { o[k] = v; any = true; } } return any || required ? o : undefined; },
        set(v) { for (const [k, c] of kids) c.set(v && typeof v === 'object' && !Array.isArray(v) ? v[k] : undefined); },
        mark: mark(null),
      };
    } else {
      const rows = [], list = el('div');
      const renumber = () => rows.forEach((r, i) => { r.ctl.el.querySelectorAll('label, legend')[0].firstChild.textContent = `${label} item ${i + 1}`; r.rm.setAttribute('aria-label', `Remove ${label} item ${i + 1}`); });
      const add = (v) => {
        const c = field(s.items, `${label} item ${rows.length + 1}`, name, false, ptr + '/' + rows.length, null);
        const r = { ctl: c };
        r.rm = el('button', { type: 'button', class: 'small', 'data-structural': '1', text: 'Remove', 'aria-label': `Remove ${label} item ${rows.length + 1}`, onclick: () => { rows.splice(rows.indexOf(r), 1); row.remove(); renumber(); } });
        const row = el('div', { class: 'row' }, c.el, r.rm);
        rows.push(r); list.append(row);
        if (v !== undefined) c.set(v);
        return c;
      };
      const addBtn = el('button', { type: 'button', class: 'small', 'data-structural': '1', text: `Add ${label} item`, onclick: () => { const c = add(undefined); const i = c.el.querySelector('input, select, textarea'); if (i) i.focus(); } });
      box.append(list, addBtn);
      f = {
        el: box,
        get() { const a = rows.map((r) => r.ctl.get()).filter((v) => v !== undefined); return a.length || required ? a : undefined; },
        set(v) { rows.length = 0; fill(list); if (Array.isArray(v)) v.forEach((x) => add(x)); },
        mark: mark(null),
      };
    }
    if (byPtr) byPtr.set(ptr, f);
    return f;
  }
  let ctl;
  const common = { id, name: ptr, 'aria-describedby': described, required };
  if (kind === 'boolean') {
    ctl = el('input', { ...common, type: 'checkbox' });
    let explicit = false;
    ctl.addEventListener('change', () => { explicit = true; });
    f = { get: () => (ctl.checked ? true : explicit || required ? false : undefined), set(v) { ctl.checked = v === true; explicit = v === true || v === false; } };
  } else if (kind === 'enum') {
    ctl = el('select', common);
    ctl.append(el('option', { value: '', text: required ? '— choose —' : '— none —' }));
    s.enum.forEach((v, i) => ctl.append(el('option', { value: String(i), text: typeof v === 'string' ? v : stringify(v) })));
    f = { get: () => (ctl.value === '' ? undefined : s.enum[Number(ctl.value)]), set(v) { const i = v === undefined ? -1 : s.enum.findIndex((e) => same(e, v)); ctl.value = i < 0 ? '' : String(i); } };
  } else if (kind === 'integer' || kind === 'number') {
    ctl = el('input', { ...common, type: 'number', inputmode: kind === 'integer' ? 'numeric' : 'decimal', step: kind === 'integer' ? '1' : 'any', min: numText(s.minimum), max: numText(s.maximum) });
    f = { get: () => (ctl.value === '' ? undefined : new Num(ctl.value)), set(v) { ctl.value = numText(v) || ''; } };
  } else if (kind === 'string') {
    ctl = el('input', { ...common, type: 'text', pattern: typeof s.pattern === 'string' ? s.pattern : null, minlength: numText(s.minLength), maxlength: numText(s.maxLength), spellcheck: 'false' });
    f = { get: () => (ctl.value === '' ? undefined : ctl.value), set(v) { ctl.value = v == null ? '' : typeof v === 'string' ? v : stringify(v); } };
  } else {
    ctl = el('textarea', { ...common, rows: 3, spellcheck: 'false', placeholder: 'JSON' });
    f = {
      get() {
        const t = ctl.value.trim();
        if (!t) return undefined;
        try { const v = parseJSON(t); f.mark(''); return v; } catch (e) { f.mark('Not valid JSON: ' + e.message); return undefined; }
      },
      set(v) { ctl.value = v === undefined ? '' : pretty(v); },
    };
  }
  f.el = el('div', { class: 'field' }, head, ctl, help, err);
  f.mark = mark(ctl);
  if (byPtr) byPtr.set(ptr, f);
  return f;
}

// ---- arguments, both ways ----

function formArgs() {
  const o = { ...form.extras };
  for (const f of form.fields) { const v = f.get(); if (v === undefined) delete o[f.key]; else o[f.key] = v; }
  return o;
}

function setModel(v, toForm) {
  form.model = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  form.extras = {};
  for (const k of Object.keys(form.model)) if (!(k in form.props)) form.extras[k] = form.model[k];
  if (toForm) for (const f of form.fields) f.set(form.model[f.key]);
  form.json.value = pretty(form.model);
  form.jsonErr.textContent = '';
  form.json.removeAttribute('aria-invalid');
}

function onForm() {
  clearMarks();
  const m = formArgs();
  form.model = m;
  form.json.value = pretty(m);
  form.jsonErr.textContent = '';
  form.json.removeAttribute('aria-invalid');
}

function onJSON() {
  const t = form.json.value.trim();
  let v;
  try { v = t ? parseJSON(t) : {}; } catch (e) { return jsonBad('Not valid JSON: ' + e.message); }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return jsonBad('The arguments must be a JSON object.');
  clearMarks();
  form.model = v;
  form.extras = {};
  for (const k of Object.keys(v)) if (!(k in form.props)) form.extras[k] = v[k];
  for (const f of form.fields) f.set(v[f.key]);
  form.jsonErr.textContent = '';
  form.json.removeAttribute('aria-invalid');
}

function jsonBad(msg) {
  form.jsonErr.textContent = msg;
  form.json.setAttribute('aria-invalid', 'true');
}

function debounce(fn, ms) {
  let t;
  return () => { clearTimeout(t); t = setTimeout(fn, ms); };
}

// args returns the arguments to send, or null when the JSON view does not
// hold an object (the message says why).
function args() {
  if (form.json.getAttribute('aria-invalid') === 'true') { onJSON(); }
  if (form.json.getAttribute('aria-invalid') === 'true') { form.json.focus(); return null; }
  return form.model;
}

// ---- validate, run, questions ----

function result(cls, ...kids) {
  const box = $('result');
  box.className = cls || '';
  fill(box, el('h3', { id: 'result-h', text: 'Result' }), ...kids);
  return box;
}

function clearMarks() { for (const f of form.byPtr.values()) f.mark(''); }

async function validate() {
  const a = args();
  if (!a) return;
  clearMarks();
  const name = st.detail.name;
  const r = await post(toolPath(name, 'validate'), stringify({ arguments: a }));
  if (st.open !== name) return;
  if (!r.ok || !r.data) return result('error', el('p', { class: 'status error long', text: `Validation failed: ${(r.data && r.data.error && errorText(r.data)) || r.text}` }));
  if (r.data.valid) return result('ok', el('p', { class: 'status ok', text: 'Valid: these arguments would be accepted.' }));
  const ul = el('ul');
  let first = null;
  for (const e of r.data.errors || []) {
    ul.append(el('li', null, el('code', { text: e.path || '(arguments)' }), ' ', e.message, ' ', el('span', { class: 'type', text: `(${e.keyword})` })));
    let p = e.path || '';
    while (p && !form.byPtr.has(p)) p = p.slice(0, p.lastIndexOf('/'));
    const f = form.byPtr.get(p);
    if (f) { f.mark(e.message); first = first || f; }
  }
  result('error', el('p', { class: 'status error', text: 'Invalid arguments' }), ul);
  if (first) { const c = first.el.querySelector('input, select, textarea'); if (c) c.focus(); }
}

// run calls the tool with the arguments of the form, the answers so far
// and, when the person approved the call, the approval's ticket.
async function run(answers, approval) {
  const a = args();
  if (!a) return;
  const name = st.detail.name;
  const btn = $('run');
  btn.disabled = true;
  result('', el('p', { class: 'status', text: 'Running…' })).setAttribute('aria-busy', 'true');
  const body = { arguments: a };
  if (Object.keys(answers).length) body.answers = answers;
  if (approval) body.approval = approval;
  let r;
  try { r = await post(toolPath(name, 'call'), stringify(body)); } catch (e) { r = { ok: false, status: 0, text: e.message, data: null, ms: 0 }; }
  btn.disabled = false;
  $('result').removeAttribute('aria-busy');
  if (st.open !== name) return;
  loadCalls(name); // the call's audit line is written before its answer
  const raw = el('details', null, el('summary', { text: 'Raw response' }), el('pre', { text: r.data ? pretty(r.data) : r.text }));
  if (!r.ok || !r.data) {
    return result('error', el('p', { class: 'status error long', text: `HTTP ${r.status}: ${(r.data && r.data.error && errorText(r.data)) || r.text}` }), raw);
  }
  const res = r.data;
  if (res.resultType === 'input_required' && res.inputRequests && typeof res.inputRequests === 'object') {
    if (res.inputRequests.approval && typeof res.requestState === 'string') return confirmRun(res, answers, a, raw);
    return ask(res, answers, r.ms, raw);
  }
  const blocks = (Array.isArray(res.content) ? res.content : []).map(block);
  const status = res.isError
    ? el('p', { class: 'status error' }, `Tool error (isError) · ${r.ms} ms`)
    : el('p', { class: 'status ok' }, `Succeeded · ${r.ms} ms`);
  result(res.isError ? 'error' : 'ok', status, ...blocks, raw);
}

function block(b) {
  if (b && b.type === 'text' && typeof b.text === 'string') {
    const t = b.text.trim();
    if (/^[[{]/.test(t)) { try { return el('pre', { class: 'json', text: pretty(parseJSON(t)) }); } catch (e) { /* plain text */ } }
    return el('pre', { text: b.text });
  }
  if (b && (b.type === 'image' || b.type === 'audio')) return el('p', { class: 'muted', text: `[${b.type}: ${b.mimeType || 'unknown type'}, not shown]` });
  return el('pre', { text: pretty(b) });
}

// confirmRun shows the call as the tool renders it (the server's text,
// inserted as text) and runs it only when the person approves: the
// tool runs only once a person approves each call (run = "ask"). The
// ticket the server issued goes back with the same arguments; Cancel runs
// nothing.
function confirmRun(res, answers, sent, raw) {
  const p = (res.inputRequests.approval && res.inputRequests.approval.params) || {};
  const yes = el('button', { type: 'button', class: 'primary', onclick: () => { if (same(args(), sent)) run(answers, res.requestState); else changed(); } }, 'Approve and run');
  const no = el('button', { type: 'button', onclick: () => result('', el('p', { class: 'status', text: 'Not run: you did not approve the call.' })) }, 'Cancel');
  const changed = () => result('error', el('p', { class: 'status error', text: 'The arguments changed since the call was shown: press Run to see the new call.' }));
  result('', el('fieldset', { class: 'approval' }, el('legend', { text: 'Approval' }),
    el('pre', { 'aria-label': 'Call to approve', text: String(p.message || '') }), yes, ' ', no), raw);
  no.focus();
}

// ask shows the tool's question; answering calls the tool again with the
// same arguments and every answer so far (and the approval's new ticket
// when the person approved the call before the question).
function ask(res, answers, ms, raw) {
  const parts = [el('p', { class: 'status', text: `The tool asks a question · ${ms} ms` })];
  for (const [id, req] of Object.entries(res.inputRequests)) {
    const p = (req && req.params) || {};
    const s = (p.requestedSchema && p.requestedSchema.properties && p.requestedSchema.properties[id]) || {};
    const text = typeof s.title === 'string' && s.title ? s.title : String(p.message || id);
    const cid = 'q' + (++uid);
    let ctl, value;
    if (s.type === 'boolean') {
      ctl = el('select', { id: cid }, el('option', { value: 'true', text: 'Yes' }), el('option', { value: 'false', text: 'No' }));
      if (s.default === false) ctl.value = 'false';
      value = () => ctl.value === 'true';
    } else if (Array.isArray(s.enum)) {
      ctl = el('select', { id: cid }, ...s.enum.map((o) => el('option', { value: String(o), text: String(o) })));
      if (typeof s.default === 'string') ctl.value = s.default;
      value = () => ctl.value;
    } else {
      ctl = el('input', { id: cid, type: 'text', value: typeof s.default === 'string' ? s.default : null });
      value = () => ctl.value;
    }
    const pre = typeof p.message === 'string' && p.message !== text ? p.message.slice(0, p.message.length - text.length).trim() : '';
    const answer = () => run({ ...answers, [id]: value() }, typeof res.requestState === 'string' ? res.requestState : '');
    ctl.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); answer(); } });
    parts.push(el('fieldset', { class: 'question' }, el('legend', { text: 'Question' }),
      pre ? el('p', { class: 'long', text: pre }) : null,
      el('div', { class: 'lab' }, el('label', { for: cid, text })), ctl, ' ',
      el('button', { type: 'button', class: 'primary', onclick: answer }, 'Answer')));
    break; // one question at a time: the next comes with the next answer
  }
  result('', ...parts, raw);
  const c = $('result').querySelector('select, input');
  if (c) c.focus();
}

// ---- copy ----

const shq = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";

function copy(kind) {
  const a = args();
  if (!a) return;
  const name = st.detail.name;
  let cmd;
  if (kind === 'toolhost') {
    cmd = `toolhost call ${shq(name)} --args ${shq(stringify(a))}`;
  } else {
    const url = new URL(toolPath(name, 'call'), location.href).href;
    cmd = `curl -sS -X POST ${shq(url)} -H 'Content-Type: application/json'` +
      (auth !== 'none' ? ' -H "Authorization: Bearer $TOOLHOST_TOKEN"' : '') + ` --data ${shq(stringify({ arguments: a }))}`;
  }
  $('cmd-box').hidden = false;
  const box = $('cmd');
  box.value = cmd;
  const done = (ok) => { box.previousSibling.textContent = ok ? 'Command (copied)' : 'Command (select it and copy)'; if (!ok) box.select(); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(cmd).then(() => done(true), () => done(false));
  else done(false);
}

// ---- wiring ----

function route() {
  const m = /^#tool=(.*)$/.exec(location.hash);
  let name = '';
  if (m) { try { name = decodeURIComponent(m[1]); } catch (e) { name = ''; } }
  if (name !== st.open || !form) openTool(name);
}

$('search').addEventListener('input', renderList);
$('search').addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.target.value = ''; renderList(); } });
document.addEventListener('keydown', (e) => {
  const t = e.target.tagName;
  if (e.key === '/' && t !== 'INPUT' && t !== 'TEXTAREA' && t !== 'SELECT') { e.preventDefault(); $('search').focus(); }
});
$('token').addEventListener('input', (e) => { token = e.target.value.trim(); if (auth === 'all' && token) { st.id = ''; } });
$('token').addEventListener('input', debounce(() => { if (st.open && $('calls')) loadCalls(st.open); }, 300));
if (auth !== 'none') $('token-box').hidden = false;
window.addEventListener('hashchange', route);
poll().then(() => { if (location.hash) route(); });
})();
