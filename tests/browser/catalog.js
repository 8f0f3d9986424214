/*
 * catalog.js - the page's server and GPU menus offer the whole catalog,
 * grouped, in headless Chromium (playwright-core, as page.js).
 *
 *   node tests/browser/catalog.js BASE_URL FIRST_TEST_NUMBER SERVERS.json GPUS.json
 *
 * SERVERS.json and GPUS.json are what `nicfit catalog list servers -j` and
 * `catalog list gpus -j` print: the command line's catalog, not the page's
 * /api/catalog, is the list the menus are held to. Prints TAP lines.
 *
 * Every <select data-catalog="servers"> and ="gpus" of the page (the plan
 * form's server and GPU, the step calculator's GPU) must offer each entry
 * exactly once and nothing else, under an <optgroup> labelled with the
 * entry's vendor and PCIe generation ("Dell · PCIe Gen4"), one group per
 * vendor and generation, the groups ordered by vendor (alphabetically, case
 * ignored) and then generation, the entries of a group by name; each
 * option's text starts with the entry's name. The same check then runs on a
 * page whose /api/catalog lost one server and one GPU and repeats another,
 * and must name them: a check that cannot fail is not one.
 */
'use strict';

const fs = require('fs');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const base = process.argv[2];
let n = Number(process.argv[3] || 1);
const want = {
  servers: JSON.parse(fs.readFileSync(process.argv[4], 'utf8')).servers,
  gpus: JSON.parse(fs.readFileSync(process.argv[5], 'utf8')).gpus,
};
let failed = 0;

function ok(cond, name, detail) {
  if (cond) {
    console.log(`ok ${n++} - ${name}`);
  } else {
    failed++;
    console.log(`not ok ${n++} - ${name}`);
    if (detail) for (const l of String(detail).split('\n')) console.log('# ' + l);
  }
}

/* Alphabetical, case and accents ignored: the order the man page gives. */
const coll = new Intl.Collator('en', { sensitivity: 'base' });
const label = (e) => `${e.vendor} · PCIe Gen${e.pcie_gen}`;

/* What the page's menus hold: per select, its groups and options in order. */
async function menus(page) {
  return page.evaluate(() => [...document.querySelectorAll('select[data-catalog="servers"], select[data-catalog="gpus"]')]
    .map((sel) => ({
      name: (sel.form ? sel.form.id + ' ' : '') + sel.name,
      kind: sel.dataset.catalog,
      empty: sel.dataset.empty || null,
      options: [...sel.options].map((o) => ({ value: o.value, text: o.textContent,
        group: o.parentElement.tagName === 'OPTGROUP' ? o.parentElement.label : null })),
      groups: [...sel.querySelectorAll('optgroup')].map((g) => g.label),
    })));
}

/* The faults of one menu against the catalog's list of its kind, as lines. */
function faults(menu, entries) {
  const out = [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const seen = new Map();
  const opts = menu.options.filter((o) => !(menu.empty && o.value === '' && o.text === menu.empty));
  for (const o of opts) seen.set(o.value, (seen.get(o.value) || 0) + 1);
  for (const e of entries) {
    const c = seen.get(e.id) || 0;
    if (c === 0) out.push(`missing: ${e.id}`);
    else if (c > 1) out.push(`offered ${c} times: ${e.id}`);
  }
  for (const v of seen.keys()) if (!byId.has(v)) out.push(`not in the catalog: '${v}'`);
  /* groups: each (vendor, generation) once, in order */
  const dup = menu.groups.filter((g, i) => menu.groups.indexOf(g) !== i);
  if (dup.length) out.push(`groups repeated (not together): ${[...new Set(dup)].join(', ')}`);
  let prev = null;
  for (const o of opts) {
    const e = byId.get(o.value);
    if (!e) continue;
    if (!e.vendor || !e.pcie_gen) { out.push(`${e.id}: the catalog gives no vendor or PCIe generation to group it by`); continue; }
    if (o.group !== label(e)) out.push(`${e.id}: under '${o.group}', not '${label(e)}'`);
    if (!o.text.startsWith(e.name)) out.push(`${e.id}: shown as '${o.text}', not by its name '${e.name}'`);
    if (prev) {
      const d = coll.compare(prev.vendor, e.vendor) || prev.pcie_gen - e.pcie_gen || coll.compare(prev.name, e.name);
      if (d > 0) out.push(`out of order: ${prev.id} (${label(prev)}, ${prev.name}) before ${e.id} (${label(e)}, ${e.name})`);
    }
    prev = e;
  }
  return out;
}

async function open(browser, mangle, path = '/plan', ready = '#plan-form select[name=server] optgroup') {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (mangle) {
    await page.route('**/api/catalog', async (route) => {
      const res = await route.fetch();
      const doc = await res.json();
      mangle(doc);
      await route.fulfill({ response: res, json: doc });
    });
  }
  await page.goto(base + path);
  /* the menus are filled once /api/catalog has answered */
  await page.waitForFunction((sel) => document.querySelector(sel), ready, { timeout: 20000 });
  return { page, errors };
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });

  const { page, errors } = await open(browser);
  const got = await menus(page);
  /* the step calculator's GPU menu is made when that calculator is opened */
  const step = await open(browser, null, '/calc?calc=step', '#calc-form select[name=gpu] optgroup');
  got.push(...(await menus(step.page)).filter((m) => m.name.startsWith('calc-form')));
  errors.push(...step.errors);
  const names = got.map((m) => m.name).sort().join(', ');
  ok(names === 'calc-form gpu, plan-form gpu, plan-form server',
    'the menus: the plan form\'s server and GPU, the step calculator\'s GPU', names);
  for (const kind of ['servers', 'gpus']) {
    const sels = got.filter((m) => m.kind === kind);
    for (const m of sels) {
      const f = faults(m, want[kind]);
      ok(want[kind].length > 0 && f.length === 0,
        `${m.name}: all ${want[kind].length} catalog ${kind} offered once each, grouped by vendor and PCIe generation, in order ` +
        `(${m.groups.length} groups: ${m.groups.join('; ')})`, f.join('\n'));
    }
  }
  ok(errors.length === 0, 'no script errors while filling the menus', errors.join('\n'));

  /* The check itself: a page that lost an entry, or repeats one, fails it by name. */
  const lostServer = want.servers[Math.floor(want.servers.length / 2)];
  const lostGpu = want.gpus[Math.floor(want.gpus.length / 2)];
  const twice = want.servers[0];
  const bad = await open(browser, (doc) => {
    doc.servers = doc.servers.filter((e) => e.id !== lostServer.id);
    doc.servers.push(doc.servers.find((e) => e.id === twice.id));
    doc.gpus = doc.gpus.filter((e) => e.id !== lostGpu.id);
  });
  const mangled = await menus(bad.page);
  const sf = faults(mangled.find((m) => m.kind === 'servers'), want.servers);
  const gf = faults(mangled.find((m) => m.kind === 'gpus'), want.gpus);
  ok(sf.includes(`missing: ${lostServer.id}`) && sf.includes(`offered 2 times: ${twice.id}`) &&
     gf.includes(`missing: ${lostGpu.id}`),
  `the check names a server (${lostServer.id}) and a GPU (${lostGpu.id}) missing from the menus and a server offered twice (${twice.id})`,
  `servers: ${sf.join('; ')}\ngpus: ${gf.join('; ')}`);
  await browser.close();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log(`not ok ${n} - catalog.js ran to the end`);
  console.log('# ' + String(e && e.stack || e).split('\n').join('\n# '));
  process.exit(1);
});
