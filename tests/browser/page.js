/*
 * page.js - the configurator page in headless Chromium, driven by
 * playwright-core (installed by tests/suites/serve.sh under build/).
 *
 *   node tests/browser/page.js BASE_URL FIRST_TEST_NUMBER ARTIFACT_DIR
 *
 * Prints TAP lines. Opens a shared plan link and reads the BOM, changes an
 * input and waits for the answer to change, checks that data is shown as
 * text (never markup), that the print view is a quote, that nothing is
 * loaded from another origin and that the page logs no errors (CSP
 * violations included). Screenshots go to ARTIFACT_DIR. layout.js adds
 * the page on phones, with JavaScript off and under axe-core.
 *
 * While the server has no POST /api/plan (the planner not built in), the
 * plan answers come from tests/fixtures/serve/plan-stub.json, which has
 * the shape DESIGN.md gives the plan document; the run says so.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const base = process.argv[2];
let n = Number(process.argv[3] || 1);
const artifacts = process.argv[4] || 'build/test-artifacts';
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

const SHARED = '/plan?server=r740xd&gpu=a40&gpus_per_server=2&servers=2&model=llama-3-8b&precision=bf16&workload=training';

async function planIsServed() {
  const r = await fetch(base + '/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  return r.status !== 404;
}

function stubPlan(route) {
  const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/serve/plan-stub.json'), 'utf8'));
  const req = route.request();
  if (new URL(req.url()).searchParams.get('format') === 'svg') {
    return route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"no picture in the stub","code":"usage"}' });
  }
  const spec = JSON.parse(req.postData() || '{}');
  const servers = Number(spec.servers || 1);
  fixture.input = spec;
  fixture.verdict = `${servers} x ${spec.server} with ${spec.gpus_per_server} x ${spec.gpu}`;
  for (const l of fixture.bom.lines) {
    l.qty *= servers;
    if (l.unit_usd !== null) l.total_usd = Math.round(l.unit_usd * l.qty * 100) / 100;
  }
  fixture.bom.total_usd = fixture.bom.lines.reduce((s, l) => s + (l.total_usd || 0), 0);
  return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) });
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  const foreign = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url()); });

  const real = await planIsServed();
  if (!real) {
    console.log('# POST /api/plan answers 404: plan answers come from tests/fixtures/serve/plan-stub.json');
    await page.route('**/api/plan*', stubPlan);
  }

  /* 1. A shared link renders the plan with its BOM. */
  await page.goto(base + SHARED);
  await page.waitForSelector('#plan-result table.bom tbody tr, #plan-result .error', { timeout: 15000 });
  const bomRows = await page.locator('#plan-result table.bom tbody tr').count();
  ok(bomRows > 0, 'shared link: the plan opens with a BOM', await page.locator('#plan-result').innerText());
  const form = await page.evaluate(() => {
    const f = document.getElementById('plan-form').elements;
    return { server: f.server.value, gpu: f.gpu.value, servers: f.servers.value, gps: f.gpus_per_server.value,
      model: f.model.value, precision: f.precision.value, workload: f.workload.value };
  });
  ok(form.server === 'r740xd' && form.gpu === 'a40' && form.servers === '2' && form.gps === '2' &&
     form.model === 'llama-3-8b' && form.precision === 'bf16' && form.workload === 'training',
  'shared link: the form holds the link\'s settings', JSON.stringify(form));
  const verdict = await page.locator('#plan-result .verdict .headline').innerText().catch(() => '');
  ok(verdict.length > 0, 'shared link: a verdict heads the result', verdict);
  const total = await page.locator('#plan-result table.bom tfoot td.total').innerText().catch(() => '');
  ok(/\$|—/.test(total), 'the BOM has a total line', total);
  await page.screenshot({ path: path.join(artifacts, 'serve.png'), fullPage: true });
  await page.screenshot({ path: path.join(artifacts, 'serve-top.png') });

  /* 2. Change an input: the answer and the address follow. */
  const before = await page.locator('#plan-result').innerText();
  await page.locator('#plan-form input[name=servers]').fill('4');
  await page.locator('#plan-form input[name=servers]').dispatchEvent('change');
  let changed = false;
  for (let i = 0; i < 50 && !changed; i++) {
    await page.waitForTimeout(100);
    const now = await page.locator('#plan-result').innerText();
    changed = now !== before && !(await page.locator('#plan-result.busy').count());
  }
  ok(changed, 'changing servers to 4 changes the result');
  ok(page.url().includes('servers=4') && page.url().includes('server=r740xd'), 'the address follows the form', page.url());

  /* 3. Reload the new address: the same answer. */
  const after = await page.locator('#plan-result').innerText();
  await page.reload();
  await page.waitForSelector('#plan-result table.bom tbody tr, #plan-result .error', { timeout: 15000 });
  const reloaded = await page.locator('#plan-result').innerText();
  ok(reloaded.replace(/Prepared \S+/, '') === after.replace(/Prepared \S+/, ''), 'the shared address renders the same plan again');

  /* 4. Data is text: markup in answers (the stub's findings and BOM carry
   * some) and in the address stays inert. */
  if (real) await page.route('**/api/plan*', stubPlan);
  await page.goto(base + SHARED);
  await page.waitForSelector('#plan-result table.bom tbody tr', { timeout: 15000 });
  const tags = await page.locator('#plan-result .findings b, #plan-result table.bom direct').count();
  const text = await page.locator('#plan-result').innerText();
  ok(tags === 0 && text.includes('<b>ports</b>') && text.includes('<direct attach>'), 'markup in an answer is shown as text',
    text.slice(0, 400));
  if (real) await page.unroute('**/api/plan*', stubPlan);
  await page.goto(base + '/plan?server=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&gpu=a40&servers=1');
  await page.waitForSelector('#plan-result .error, #plan-result .verdict', { timeout: 15000 });
  const pwned = await page.evaluate(() => window.pwned === 1 || document.querySelectorAll('img[src="x"]').length > 0);
  ok(!pwned, 'markup in the address is shown as text, never run');

  /* 5. The article's cases: a named example opens with its settings in the form. */
  if (real) {
    await page.goto(base + '/plan?example=capped');
    await page.waitForSelector('#plan-result table.bom tbody tr, #plan-result .error', { timeout: 15000 });
    const ex = await page.evaluate(() => ({ nic: document.getElementById('plan-form').elements.backend_nic.value,
      url: location.search, verdict: document.querySelector('#plan-result .headline')?.innerText || '' }));
    ok(ex.nic === 'mcx653105a-hdat' && ex.url.includes('backend_nic=mcx653105a-hdat') && !ex.url.includes('example='),
      'an example link opens the case with its settings in the form and the address', JSON.stringify(ex));
    /* a plan with a back end offers its acceptance runbook (POST /api/accept, Markdown) */
    await page.goto(base + '/plan?example=training');
    await page.waitForSelector('#plan-result a[data-download=accept]', { timeout: 15000 });
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }),
      page.locator('#plan-result a[data-download=accept]').click()]);
    const runbook = fs.readFileSync(await dl.path(), 'utf8');
    ok(dl.suggestedFilename() === 'nicfit-accept.md' && runbook.startsWith('## Acceptance runbook: ') &&
      runbook.includes('ib_write_bw -d mlx5_0'), 'a plan with a back end downloads its acceptance runbook',
    dl.suggestedFilename() + ' ' + runbook.slice(0, 120));
    /* its results uploaded are judged on the page: a rail's output without its figure is broken */
    const fx = path.join(__dirname, '../fixtures/accept');
    await page.locator('#plan-result input[data-accept-results]').setInputFiles([
      { name: 'rail-write-node01-node02-r0.txt', mimeType: 'text/plain',
        buffer: fs.readFileSync(path.join(fx, 'training-rail/rail-write-node01-node03-r1.txt')) },
      { name: 'frontend-node01-node02.txt', mimeType: 'text/plain',
        buffer: Buffer.from(fs.readFileSync(path.join(fx, 'training-pass/frontend-node01-node02.txt'), 'utf8') +
          '\n<b>markup</b>\n') },
      { name: 'rail-write-node01-node02-r0.server.txt', mimeType: 'text/plain', buffer: Buffer.from('server side') }]);
    await page.waitForFunction(() => {
      const r = document.getElementById('plan-accept-report');
      return r && !r.hidden && !r.classList.contains('busy') && r.textContent.length > 0;
    }, null, { timeout: 15000 }).catch(() => {});
    const judged = await page.locator('#plan-accept-report').innerText().catch(() => '');
    const kept = await page.evaluate(() => ({ plan: !!document.querySelector('#plan-result table.bom'),
      b: document.querySelectorAll('#plan-accept-report b').length }));
    ok(/^Acceptance of .*: BROKEN .*results uploaded, 2 files\)/.test(judged) &&
      judged.includes('rail-write-node01-node02-r0') && kept.plan && kept.b === 0,
    'results uploaded on the page are judged there (the server copy left out; the plan stays)', judged.slice(0, 400));
    const options = await page.locator('#plan-examples option').count();
    await page.locator('#plan-examples').selectOption('gen4');
    await page.waitForFunction(() => location.search.includes('server=generic-gen4'), null, { timeout: 10000 })
      .then(() => ok(options > 3, 'the case menu opens another article case'),
        (e) => ok(false, 'the case menu opens another article case', e.message));
  }

  /* 6. Print view: a quote without the controls. */
  await page.goto(base + SHARED);
  await page.waitForSelector('#plan-result table.bom tbody tr', { timeout: 15000 });
  await page.emulateMedia({ media: 'print' });
  const print = await page.evaluate(() => ({
    form: getComputedStyle(document.getElementById('plan-form')).display,
    nav: getComputedStyle(document.querySelector('header.top')).display,
    head: getComputedStyle(document.querySelector('#plan-result .quote-head')).display,
    bom: getComputedStyle(document.querySelector('#plan-result table.bom')).display,
    verdict: (document.querySelector('#plan-result .quote-head .quote-verdict') || {}).textContent || '',
    answer: (document.querySelector('#plan-result .verdict') || {}).textContent || '',
    headText: document.querySelector('#plan-result .quote-head').textContent,
  }));
  ok(print.form === 'none' && print.nav === 'none' && print.head !== 'none' && print.bom !== 'none',
    'print view: the quote and BOM without the controls', JSON.stringify(print));
  /* the quote opens with the answer's verdict and names no address of this machine */
  ok(print.verdict.length > 20 && print.answer.includes(print.verdict) &&
    !/127\.0\.0\.1|localhost|\[::1\]/.test(print.headText),
    'print view: the quote carries the verdict and no loopback link', JSON.stringify(print).slice(0, 400));
  await page.screenshot({ path: path.join(artifacts, 'serve-print.png'), fullPage: true });
  await page.pdf({ path: path.join(artifacts, 'serve-quote.pdf'), format: 'A4' });
  await page.emulateMedia({ media: 'screen' });

  /* 7. Calculators: a link and a change. */
  await page.goto(base + '/calc?calc=pcie&gen=4&width=16');
  await page.waitForSelector('#calc-result .verdict, #calc-result .error', { timeout: 15000 });
  const c1 = await page.locator('#calc-result').innerText();
  ok(/Raw\s+252/.test(c1), 'calc link: PCIe Gen4 x16 shows its raw rate', c1.slice(0, 300));
  await page.locator('#calc-form select[name=width]').selectOption('8');
  await page.waitForFunction(() => /Raw\s+126/.test(document.getElementById('calc-result').innerText), null, { timeout: 10000 })
    .then(() => ok(true, 'calc: changing the lanes changes the answer'),
      (e) => ok(false, 'calc: changing the lanes changes the answer', e.message));

  /*
   * The step calculator: the article's 8B on 2 x 2 A40 over 100G computes
   * 1.65 s and sends 16.06 GB per node, 1.31 s by a ring, of which 1.1 s
   * hides: the GPUs stall. Over 200G (196.07 Gb/s, 0.66 s) it hides.
   */
  await page.goto(base + '/calc?calc=step&model=llama-3-8b&gpu=a40&nodes=2&gpus_per_node=2&link=100G');
  await page.waitForSelector('#calc-result .verdict, #calc-result .error', { timeout: 15000 });
  const s1 = await page.evaluate(() => ({ head: document.querySelector('#calc-result .headline')?.innerText || '',
    text: document.getElementById('calc-result').innerText,
    formula: document.querySelector('#calc-result .formula')?.innerText || '' }));
  ok(/computes 1\.65 s/.test(s1.head) && /stall/.test(s1.head), 'calc step: the headline gives the compute and the stall', s1.head);
  ok(/Communication\s+1\.31 s \(ring\)/.test(s1.text) && /16\.06 GB/.test(s1.text),
    'calc step: the table names the traffic and its NCCL algorithm', s1.text.slice(0, 600));
  ok(/compute = FLOPs/.test(s1.formula) && /hides when communication/.test(s1.formula), 'calc step: the formula has its numbers', s1.formula);
  await page.locator('#calc-form input[name=link]').fill('200G');
  await page.locator('#calc-form input[name=link]').dispatchEvent('change');
  await page.waitForFunction(() => /hides under the compute/.test(document.querySelector('#calc-result .headline')?.innerText || ''),
    null, { timeout: 10000 })
    .then(() => ok(true, 'calc step: a faster link hides the traffic'),
      (e) => ok(false, 'calc step: a faster link hides the traffic', e.message));

  /* A 1 MB all-reduce on 1,024 nodes is a tree (0.4 ms), not a 20.6 ms ring. */
  await page.goto(base + '/calc?calc=allreduce&size=1MB&nodes=1024&link=100G');
  await page.waitForSelector('#calc-result .verdict, #calc-result .error', { timeout: 15000 });
  const a1 = await page.evaluate(() => ({ head: document.querySelector('#calc-result .headline')?.innerText || '',
    about: document.getElementById('calc-about').innerText }));
  ok(/^A tree all-reduce/.test(a1.head) && /0\.4 ms/.test(a1.head) && !/one ring/.test(a1.about),
    'calc allreduce: the answer names the algorithm NCCL would pick', JSON.stringify(a1));

  /* 8. Decode: a shared link, then typing another part. */
  await page.goto(base + '/decode?part=MCX653105A-HDAT');
  await page.waitForSelector('#decode-result .verdict, #decode-result .error', { timeout: 15000 });
  const pieces = await page.locator('#decode-result .reading .piece').count();
  const d1 = await page.locator('#decode-result').innerText();
  ok(pieces > 5 && /ConnectX-6/.test(d1), 'decode link: the part is read piece by piece', d1.slice(0, 300));
  await page.locator('#decode-form input[name=part]').fill('X710-DA2');
  await page.locator('#decode-form button[type=submit]').click();
  await page.waitForFunction(() => /X710/.test(document.querySelector('#decode-result .verdict')?.innerText || ''), null, { timeout: 10000 })
    .then(() => ok(page.url().includes('part=X710-DA2'), 'decode: a typed part is decoded and put in the address', page.url()),
      (e) => ok(false, 'decode: a typed part is decoded and put in the address', e.message));

  /* 9. Cluster (when this build has the module): a shared link, then a change. */
  const cl = await fetch(base + '/api/cluster', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (cl.status !== 404) {
    await page.goto(base + '/cluster?nodes=16&gpus_per_node=8&nic_gbps=400G&rail_optimized=true');
    await page.waitForSelector('#cluster-result .verdict, #cluster-result .error', { timeout: 15000 });
    const c1 = await page.locator('#cluster-result .verdict').innerText().catch(() => '');
    const rows = await page.locator('#cluster-result table.bom tbody tr').count();
    ok(/leaf/.test(c1) && rows > 0, 'cluster link: the fabric and its BOM', c1);
    await page.screenshot({ path: path.join(artifacts, 'serve-cluster.png'), fullPage: true });
    await page.locator('#cluster-form input[name=nodes]').fill('256');
    await page.locator('#cluster-form input[name=nodes]').dispatchEvent('change');
    await page.waitForFunction((before) => {
      const v = document.querySelector('#cluster-result .verdict');
      return v && v.innerText !== before && location.search.includes('nodes=256');
    }, c1, { timeout: 10000 }).then(() => ok(true, 'cluster: more nodes, another fabric'),
      (e) => ok(false, 'cluster: more nodes, another fabric', e.message));
  } else {
    console.log('# this build has no POST /api/cluster: no cluster page tests');
  }

  /* 10. Tabs keep their own address; an error answer is shown, not thrown. */
  await page.locator('.tabs a[data-tab=cluster]').click();
  ok(new URL(page.url()).pathname === '/cluster' && await page.locator('#tab-cluster').isVisible(), 'the cluster tab opens at /cluster');
  await page.goto(base + '/calc?calc=pcie&gen=9&width=16');
  await page.waitForSelector('#calc-result .error', { timeout: 10000 })
    .then(() => ok(true, 'a bad input shows the API\'s error message'), (e) => ok(false, 'a bad input shows the API\'s error message', e.message));

  /* 11. Every screen, JavaScript off, the printed quote, accessibility (layout.js). */
  await require('./layout.js')({ browser, base, ok, artifacts });
  if (process.env.AUDIT_SVGS) await require('./layout.js').auditSvg({ browser, ok, dir: process.env.AUDIT_SVGS });

  ok(foreign.length === 0, 'nothing is loaded from another origin', foreign.join('\n'));
  const unexpected = problems.filter((p) => !/status of (400|404)/.test(p));
  ok(unexpected.length === 0, 'no script errors or CSP violations', unexpected.join('\n'));

  await browser.close();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log(`not ok ${n++} - browser test crashed`);
  for (const l of String(e.stack || e).split('\n')) console.log('# ' + l);
  process.exit(1);
});
