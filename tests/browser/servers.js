/*
 * servers.js - every server of the catalog through the plan form, in
 * headless Chromium (playwright-core, as page.js).
 *
 *   node tests/browser/servers.js BASE_URL FIRST_TEST_NUMBER
 *
 * Prints TAP lines. For each server: pick it in the form, as a user does,
 * and wait for the answer. A baseboard server (HGX, DGX, rack-scale
 * trays) must lock its GPU model and count to the catalog's; no answer may
 * carry a critical finding the form caused (a GPU the server cannot hold,
 * a count it has no room for). Then a link with two conflicting counts
 * (/cluster?nodes=4&gpus=64) must be refused as the command line refuses
 * it, and the answer regions must be reachable by keyboard.
 */
'use strict';

const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const base = process.argv[2];
let n = Number(process.argv[3] || 1);
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

/*
 * A command-line option in an answer: the page's user sets a field and
 * presses Apply, or reads plain words, never a flag (the CLI keeps them).
 */
const FLAG = /(^|[^\w-])--[a-z][\w-]*/g;

function flagsIn(text) {
  return [...text.matchAll(FLAG)].map((m) => text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\s+/g, ' '));
}

/* Answers whose library prose names options: training (MFU, overlap, parallelism), fixes, the BOM's prices, a cluster. */
const PROSE_LINKS = [
  '/plan?example=training', '/plan?example=capped', '/plan?example=gen4', '/plan?example=lab', '/plan?example=x710',
  '/plan?example=split', '/plan?example=replicas', '/plan?example=inference',
  '/plan?server=dgx-h100&servers=32&model=llama-3.1-405b&workload=training',
  '/plan?server=r740xd&gpu=a40&gpus_per_server=2&servers=2&model=llama-3-8b&workload=training',
  '/plan?server=sr650-v2&servers=4',
  '/plan?server=r650&gpu=a2&gpus_per_server=3',
  '/plan?server=dgx-b200&servers=4&workload=training&model=llama-3-70b',
  '/cluster?nodes=4', '/cluster?nodes=64', '/cluster?nodes=512&gpus_per_node=8', '/decode?part=BCM957414N4140C',
];

/* Critical findings that only a wrong GPU choice or count causes. */
const FORM_CAUSED = ['too-many-gpus', 'no-slot-for-gpus', 'gpu-not-in-server', 'baseboard-partly-filled'];

async function answer(page) {
  await page.waitForFunction(() => {
    const r = document.getElementById('plan-result');
    return r && !r.classList.contains('busy') && r.querySelector('.verdict, .error');
  }, null, { timeout: 20000 });
}

async function main() {
  const catalog = await (await fetch(base + '/api/catalog')).json();
  const servers = catalog.servers || [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(base + '/plan?server=r740xd&gpu=a40&gpus_per_server=2&servers=2&model=llama-3-8b&workload=training');
  await answer(page);
  const bad = [];
  const flagged = [];
  for (const sv of servers) {
    const before = await page.evaluate(() => document.getElementById('plan-result').innerText);
    await page.selectOption('#plan-form select[name=server]', sv.id);
    for (let i = 0; i < 100; i++) {
      await page.waitForTimeout(100);
      const now = await page.evaluate(() => {
        const r = document.getElementById('plan-result');
        return r.classList.contains('busy') ? null : r.innerText;
      });
      if (now !== null && now !== before && now.length) break;
    }
    await answer(page);
    /*
     * A server with single-width slots only (a 1U R650) cannot take the
     * double-width A40 the walk started with: a user picks a GPU that
     * fits it, as the walk does (L4: single-width, low-profile), so what
     * the answer says about the GPUs is the form's doing, not the choice's.
     */
    if (!sv.baseboard_gpu && sv.max_gpus && !sv.max_gpus.double &&
        await page.evaluate(() => document.getElementById('plan-form').elements.gpu.value) !== 'l4') {
      const was = await page.evaluate(() => document.getElementById('plan-result').innerText);
      await page.selectOption('#plan-form select[name=gpu]', 'l4');
      for (let i = 0; i < 100; i++) {
        await page.waitForTimeout(100);
        const now = await page.evaluate(() => {
          const r = document.getElementById('plan-result');
          return r.classList.contains('busy') ? null : r.innerText;
        });
        if (now !== null && now !== was && now.length) break;
      }
      await answer(page);
    }
    const state = await page.evaluate(() => {
      const f = document.getElementById('plan-form').elements;
      return { gpu: f.gpu.value, gpuLocked: f.gpu.disabled, count: f.gpus_per_server.value,
        countLocked: f.gpus_per_server.disabled, text: document.getElementById('plan-result').innerText };
    });
    const positions = (sv.slots || []).filter((s) => s.gpu === 'baseboard' || s.kind === 'baseboard').length;
    if (sv.baseboard_gpu) {
      if (!state.gpuLocked || state.gpu !== sv.baseboard_gpu || !state.countLocked ||
          (positions && state.count !== String(positions))) {
        bad.push(`${sv.id}: baseboard not locked to ${positions} x ${sv.baseboard_gpu}: ${JSON.stringify(state).slice(0, 200)}`);
      }
    } else if (state.gpuLocked || state.countLocked) {
      bad.push(`${sv.id}: GPU fields locked on a server with PCIe GPU slots`);
    }
    for (const code of FORM_CAUSED) {
      if (state.text.includes(code)) bad.push(`${sv.id}: ${code} in the answer`);
    }
    for (const f of flagsIn(state.text)) flagged.push(`${sv.id}: ${f}`);
  }
  ok(servers.length > 0 && bad.length === 0,
    `every catalog server (${servers.length}) plans through the form; baseboards lock their GPUs`, bad.join('\n'));

  ok(servers.length > 0 && flagged.length === 0,
    `no command-line option in the answers of the ${servers.length} servers' plans`, flagged.join('\n'));

  /* Prose that names options (decisions, findings, fixes, the verdict): as fields and words on the page. */
  for (const link of PROSE_LINKS) {
    const tab = link.slice(1).split('?')[0];
    await page.goto(base + link);
    await page.waitForFunction((t) => {
      const r = document.getElementById(t + '-result');
      return r && !r.classList.contains('busy') && r.querySelector('.verdict, .error');
    }, tab, { timeout: 20000 }).catch(() => {});
    const text = await page.evaluate((t) => document.getElementById(t + '-result').innerText, tab);
    const found = flagsIn(text);
    ok(text.length > 200 && found.length === 0, `${link}: the answer names no command-line option`,
      found.join('\n') || text.slice(0, 200));
  }

  /* Two conflicting counts: refused as `nicfit cluster --nodes 4 --gpus 64` is. */
  await page.goto(base + '/cluster?nodes=4&gpus=64');
  await page.waitForFunction(() => {
    const r = document.getElementById('cluster-result');
    return r && !r.classList.contains('busy') && r.querySelector('.verdict, .error, .card, table');
  }, null, { timeout: 20000 }).catch(() => {});
  const cl = await page.evaluate(() => document.getElementById('cluster-result').innerText + ' / ' +
    [...document.querySelectorAll('#cluster-form .field-error')].map((e) => e.textContent).join(' '));
  ok(/not both/.test(cl), '/cluster?nodes=4&gpus=64 is refused: node count or GPU count, not both', cl.slice(0, 300));

  /* Every answer region takes the keyboard focus (axe: scrollable-region-focusable). */
  const focusable = await page.evaluate(() => [...document.querySelectorAll('.result')]
    .filter((r) => r.tabIndex < 0).map((r) => r.id));
  ok(focusable.length === 0, 'every answer region is keyboard-reachable', focusable.join(', '));
  ok(errors.length === 0, 'no script errors while walking the servers', errors.join('\n'));

  /* Without JavaScript the form's menus are empty: the page says what it answered. */
  const nojs = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await nojs.goto(base + '/plan?server=dgx-h100&servers=32&model=llama-3.1-405b&workload=training');
  const req = await nojs.evaluate(() => {
    const r = document.querySelector('#plan-result .request');
    return { text: r ? r.innerText : '', verdict: !!document.querySelector('#plan-result .headline'),
      tab: document.getElementById('plan-result').tabIndex };
  });
  ok(req.text.includes('server = dgx-h100, servers = 32, model = llama-3.1-405b, workload = training') &&
     req.verdict && req.tab === 0,
  'without JavaScript: the answer names the request it answered, and takes the focus', JSON.stringify(req));

  /* ... and the form's own fields show that request (a DGX's baseboard GPUs included), not the defaults. */
  const fields = () => {
    const f = document.getElementById('plan-form').elements;
    const ex = document.getElementById('plan-examples');
    return { server: f.server.value, servers: f.servers.value, gpu: f.gpu.value, count: f.gpus_per_server.value,
      model: f.model.value, workload: f.workload.value, precision: f.precision.value, nic: f.backend_nic.value,
      explain: f.explain.checked, example: ex.value };
  };
  const dgx = await nojs.evaluate(fields);
  ok(dgx.server === 'dgx-h100' && dgx.servers === '32' && dgx.gpu === 'h100-sxm5-80gb' && dgx.count === '8' &&
     dgx.model === 'llama-3.1-405b' && dgx.workload === 'training' && !dgx.explain,
  'without JavaScript: the plan form shows the request it answered (server, servers, the baseboard GPUs, model, workload)',
  JSON.stringify(dgx));
  await nojs.goto(base + '/plan?example=capped&explain=true');
  const capped = await nojs.evaluate(fields);
  ok(capped.example === 'capped' && capped.server === 'r740xd' && capped.workload === 'training' &&
     capped.nic === 'mcx653105a-hdat' && capped.explain,
  'without JavaScript: an example link shows the example and its settings in the form', JSON.stringify(capped));
  await nojs.goto(base + '/cluster?nodes=4&nic_gbps=800G&rail_optimized=false');
  const cl2 = await nojs.evaluate(() => {
    const f = document.getElementById('cluster-form').elements;
    return { nodes: f.nodes.value, speed: f.nic_gbps.value, rails: f.rail_optimized.checked };
  });
  ok(cl2.nodes === '4' && cl2.speed === '800G' && !cl2.rails,
    'without JavaScript: the cluster form shows the request it answered (nodes, speed, a box unticked)', JSON.stringify(cl2));
  await nojs.goto(base + '/plan?server=%22%3E%3Cimg%20src%3Dx%3E');
  const hostile = await nojs.evaluate(() => ({ imgs: document.querySelectorAll('#plan-form img').length,
    server: document.getElementById('plan-form').elements.server.value }));
  ok(hostile.imgs === 0 && hostile.server === '"><img src=x>',
    'without JavaScript: markup in a link reaches the form as a value, never as markup', JSON.stringify(hostile));

  /* The server's own text of the answer names fields too, never flags. */
  const offFlags = [];
  for (const link of PROSE_LINKS.concat(['/plan?server=generic-gaudi3-8oam&gpus_per_server=2&servers=2&workload=training&model=llama-3-8b&explain=true'])) {
    const tab = link.slice(1).split('?')[0];
    await nojs.goto(base + link);
    const text = await nojs.evaluate((t) => document.getElementById(t + '-result').innerText, tab);
    if (text.length < 200) offFlags.push(`${link}: a short answer: ${text.slice(0, 200)}`);
    for (const f of flagsIn(text)) offFlags.push(`${link}: ${f}`);
  }
  ok(offFlags.length === 0, `without JavaScript: the answers of ${PROSE_LINKS.length + 1} links name no command-line option`,
    offFlags.join('\n'));
  await browser.close();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log(`not ok ${n} - servers.js ran to the end`);
  console.log('# ' + String(e && e.stack || e).split('\n').join('\n# '));
  process.exit(1);
});
