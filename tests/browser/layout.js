/*
 * layout.js - the page on every screen, with and without JavaScript, and
 * to a screen reader: called by page.js with its browser and its TAP
 * counter.
 *
 *  - no horizontal scroll at 320, 390 and 768 px on every tab, every plan
 *    example, a cluster, a decode and every calculator; part numbers in
 *    the BOM on one line; the slot picture at its own size on a phone;
 *  - the findings before the reasons, linked from the badges; the case
 *    menu names the example; options a link sets are shown; a fix that
 *    names an option is applied by a button, and no fix tells a page user
 *    to pass a command-line flag;
 *  - a cluster link that gives the GPU count opens;
 *  - calculator answers: a headline, a table and the formula;
 *  - the printed quote: the BOM, prices' date and source, the
 *    configuration in one line and the link, on at most two A4 pages;
 *  - JavaScript off: a shared link's answer is in the page the server
 *    sends, and markup in the link is text;
 *  - errors beside their field (aria-invalid, aria-describedby), one h1
 *    and no skipped heading levels, a live region that says a summary;
 *  - axe-core: no violation of moderate impact or worse.
 *
 * A phone screenshot (390 px) goes to ARTIFACT_DIR/serve-phone.png.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const WIDTHS = [320, 390, 768];
const CALCS = ['calc=pcie&gen=4&width=16', 'calc=link&speed=100G&proto=tcp', 'calc=nic&part=MCX556A-ECAT&slot=gen3x16',
  'calc=load&size=16GB&link=10G', 'calc=fit&model=llama-3-8b&precision=bf16&gpus=2xa40',
  'calc=allreduce&size=16GB&nodes=2&link=100G&proto=roce', 'calc=stream&tokens_per_s=1000',
  'calc=step&model=llama-3-8b&gpu=a40&nodes=2&gpus_per_node=2&link=100G'];

async function settle(page) {
  await page.waitForFunction(() => {
    const r = document.querySelector('.tab:not([hidden]) .result');
    return r && !r.classList.contains('busy') && r.querySelector('.verdict, .error, .welcome') &&
      !r.querySelector('.served');
  }, null, { timeout: 15000 });
  await page.waitForTimeout(150);
}

/* Widths wider than the viewport: the page's, and the elements that stick out. */
function overflow() {
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.closest('.table-wrap, .picture, pre, .formula')) continue;
    if (r.right > vw + 1 || r.left < -1) {
      wide.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '')) +
        ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  return { page: document.documentElement.scrollWidth, vw, wide: wide.slice(0, 5) };
}

async function headingsOk(page) {
  return page.evaluate(() => {
    const hs = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((x) => x.getClientRects().length);
    const levels = hs.map((x) => Number(x.tagName[1]));
    const h1 = levels.filter((l) => l === 1).length;
    let skip = null;
    for (let i = 1; i < levels.length; i++) {
      if (levels[i] > levels[i - 1] + 1) skip = hs[i - 1].tagName + ' "' + hs[i - 1].textContent.slice(0, 30) + '" then ' +
        hs[i].tagName + ' "' + hs[i].textContent.slice(0, 30) + '"';
    }
    return { ok: h1 === 1 && levels[0] === 1 && !skip, h1, skip, levels: levels.join(',') };
  });
}

module.exports = async function layout({ browser, base, ok, artifacts }) {
  const examples = (await (await fetch(base + '/api/plan/examples')).json()).examples.map((x) => x.name);
  const links = ['/plan', '/cluster', '/decode', '/calc']
    .concat(examples.map((x) => '/plan?example=' + x))
    .concat(['/cluster?nodes=16&gpus_per_node=8&nic_gbps=400G&rail_optimized=true', '/cluster?gpus=128&gpus_per_node=8',
      '/decode?part=MCX653105A-HDAT', '/decode?part=X710-DA2'])
    .concat(CALCS.map((c) => '/calc?' + c));

  /* 1. No horizontal scroll on any screen from 320 px. */
  for (const w of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: w, height: 800 } });
    const page = await context.newPage();
    const bad = [];
    let partsBroken = [];
    let picture = null;
    for (const l of links) {
      await page.goto(base + l);
      await settle(page);
      const o = await page.evaluate(overflow);
      if (o.page > o.vw || o.wide.length) bad.push(l + ': page ' + o.page + ' px in ' + o.vw + ' px; ' + o.wide.join(', '));
      /* Every part number in the answer (a BOM cell, a finding, the verdict) on one line. */
      const broken = await page.evaluate(() => {
        const re = /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b/g;
        const root = document.querySelector('.tab:not([hidden]) .result');
        const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const bad = [];
        for (let t = walk.nextNode(); t; t = walk.nextNode()) {
          for (const m of t.data.matchAll(re)) {
            const r = document.createRange();
            r.setStart(t, m.index);
            r.setEnd(t, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].filter((x) => x.width).map((x) => Math.round(x.top)));
            if (tops.size > 1) bad.push(m[0]);
          }
        }
        return bad;
      });
      partsBroken = partsBroken.concat(broken);
      if (w === 390 && l === '/plan?example=capped') {
        await page.waitForSelector('#plan-picture:not([hidden]) img', { timeout: 10000 }).catch(() => {});
        picture = await page.evaluate(() => {
          const img = document.querySelector('#plan-picture img');
          return img && img.naturalWidth ? { shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
            box: img.parentElement.getBoundingClientRect().width } : null;
        });
        await page.evaluate(() => window.scrollTo(0, document.getElementById('plan-result').getBoundingClientRect().top + window.scrollY - 8));
        await page.screenshot({ path: path.join(artifacts, 'serve-phone.png') });
      }
    }
    ok(bad.length === 0, `${w} px: no horizontal scroll on ${links.length} pages (every tab, example, cluster, decode, calculator)`,
      bad.join('\n'));
    ok(partsBroken.length === 0, `${w} px: every part number (BOM, findings, verdict) stays on one line`, partsBroken.join(', '));
    if (w === 390) {
      ok(picture && picture.shown >= picture.natural - 1 && picture.box <= 390,
        '390 px: the slot picture is drawn at its own size (its text legible) and scrolls in its box', JSON.stringify(picture));
    }
    await context.close();
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  /* 2. Findings first, linked from the badges; the example's name; forced options shown. */
  await page.goto(base + '/plan?example=capped');
  await settle(page);
  const order = await page.evaluate(() => {
    const f = document.getElementById('plan-findings');
    const why = [...document.querySelectorAll('#plan-result .block h3')].find((x) => x.textContent === 'Why');
    const badges = [...document.querySelectorAll('#plan-result .verdict .badge')];
    const sel = document.getElementById('plan-examples');
    const nic = document.querySelector('#plan-form [name=backend_nic]');
    return { before: !!(f && why && (f.compareDocumentPosition(why) & Node.DOCUMENT_POSITION_FOLLOWING)),
      linked: badges.length > 0 && badges.every((b) => b.tagName === 'A' && b.getAttribute('href') === '#plan-findings'),
      menu: sel.options[sel.selectedIndex].text, value: sel.value,
      forced: nic.value, visible: !!nic.getClientRects().length };
  });
  ok(order.before, 'plan: the findings come before the reasons (Why)', JSON.stringify(order));
  ok(order.linked, 'plan: each badge links to the findings', JSON.stringify(order));
  await page.locator('#plan-result .verdict .badge').first().click();
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.closest('#plan-findings') !== null);
  ok(focused && !page.url().includes('#'), 'plan: following a badge moves the focus to the findings', page.url());
  ok(order.value === 'capped' && order.menu !== '(your own)', '/plan?example=capped names the example in the case menu', order.menu);
  ok(order.forced === 'mcx653105a-hdat' && order.visible, 'the option the example forces (back-end card) is shown, not folded away',
    JSON.stringify(order));

  /* Fixes a page user can apply. */
  const fixes = await page.evaluate(() => [...document.querySelectorAll('#plan-result .fix')].map((x) => x.innerText));
  const flags = fixes.filter((f) => /(^|[\s(])--[a-z]/.test(f));
  ok(fixes.length > 0 && flags.length === 0, 'no fix on the page tells the user to pass a command-line flag', flags.join('\n'));
  const apply = page.locator('#plan-result button.apply[data-apply-key=backend_cards]').first();
  const applyText = await apply.innerText().catch(() => '');
  await apply.click().catch(() => {});
  await page.waitForFunction(() => location.search.includes('backend_cards=2'), null, { timeout: 10000 }).catch(() => {});
  await settle(page);
  const applied = await page.evaluate(() => ({ url: location.search, cards: document.querySelector('#plan-form [name=backend_cards]').value,
    head: document.querySelector('#plan-result .headline')?.innerText || '' }));
  ok(applied.cards === '2' && applied.url.includes('backend_cards=2') && /2 x MCX/.test(applied.head),
    'a fix\'s "Apply" button sets the field (back-end cards: 2) and plans again', applyText + ' ' + JSON.stringify(applied));
  await page.goto(base + '/plan?example=capped');
  await settle(page);
  const tryNic = page.locator('#plan-result button.apply[data-apply-key=backend_nic]').first();
  await tryNic.click().catch(() => {});
  await page.waitForFunction(() => location.search.includes('backend_nic=mcx556a-ecat'), null, { timeout: 10000 })
    .then(() => ok(true, 'a fix that proposes another card tries it on the page'),
      (e) => ok(false, 'a fix that proposes another card tries it on the page', e.message));

  /* 3. A cluster link with the GPU count. */
  await page.goto(base + '/cluster?gpus=128&gpus_per_node=8');
  await settle(page);
  const cl = await page.evaluate(() => ({ err: document.querySelector('#cluster-result .error')?.innerText || '',
    head: document.querySelector('#cluster-result .headline')?.innerText || '', url: location.search }));
  ok(!cl.err && /128 GPUs/.test(cl.head) && !cl.url.includes('nodes=16'), 'a cluster link with gpus=128 opens', JSON.stringify(cl));

  /* 4. Calculators answer with a headline, a table and the formula. */
  const calcBad = [];
  for (const c of CALCS) {
    await page.goto(base + '/calc?' + c);
    await settle(page);
    const r = await page.evaluate(() => ({ head: document.querySelector('#calc-result .headline')?.innerText || '',
      rows: document.querySelectorAll('#calc-result table.answer-table tbody tr').length,
      formula: document.querySelector('#calc-result .formula')?.innerText || '',
      dump: document.querySelectorAll('#calc-result > section > dl.facts').length }));
    if (!r.head || r.rows < 2 || !/=/.test(r.formula) || r.dump) calcBad.push(c + ' ' + JSON.stringify(r));
  }
  ok(calcBad.length === 0, 'every calculator answers with a headline, a table and its formula', calcBad.join('\n'));
  await page.goto(base + '/decode?part=MCX653105A-HDAT');
  await settle(page);
  const dec = await page.evaluate(() => ({ rows: document.querySelectorAll('#decode-result table.answer-table tbody tr').length,
    dump: document.querySelectorAll('#decode-result dl.facts').length }));
  ok(dec.rows >= 5 && !dec.dump, 'decode answers with a table, not a key/value dump', JSON.stringify(dec));

  /* 5. The printed quote. */
  await page.goto(base + '/plan?example=capped');
  await settle(page);
  await page.emulateMedia({ media: 'print' });
  const pr = await page.evaluate(() => {
    const shown = [...document.querySelectorAll('#plan-result > *')].filter((x) => getComputedStyle(x).display !== 'none')
      .map((x) => x.className || x.tagName);
    return { shown, config: document.querySelector('#plan-result .quote-head .config')?.innerText || '',
      link: document.querySelector('#plan-result .quote-head')?.innerText.includes(location.href),
      verdict: !!document.querySelector('#plan-result .quote-head .quote-verdict'),
      prices: document.querySelector('#plan-result .bom-block .prices')?.innerText || '' };
  });
  const pdf = await page.pdf({ format: 'A4' });
  fs.writeFileSync(path.join(artifacts, 'serve-quote-only.pdf'), pdf);
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  await page.emulateMedia({ media: 'screen' });
  ok(pr.shown.length === 2 && pr.shown.some((c) => /quote-head/.test(c)) && pr.shown.some((c) => /bom-block/.test(c)),
    'print: only the quote head and the BOM are printed', JSON.stringify(pr.shown));
  /* served on loopback, as here, the quote gives no link: nobody who reads it can open 127.0.0.1 */
  ok(/Server model: .*GPU: /.test(pr.config) && !pr.link && pr.verdict && /Prices as of \d{4}-\d\d-\d\d, from /.test(pr.prices),
    'print: the verdict, the configuration in one line, no loopback link, the prices\' date and source', JSON.stringify(pr));
  ok(pages >= 1 && pages <= 2, `print: the quote is ${pages} A4 page(s), at most 2`);

  /* 6. Errors beside the field; headings; the live region. */
  await page.goto(base + '/plan?server=r740xd&gpu=a40&servers=0&gpus_per_server=2');
  await settle(page);
  const fe = await page.evaluate(() => {
    const el = document.querySelector('#plan-form [name=servers]');
    const id = el.getAttribute('aria-describedby');
    const msg = id && document.getElementById(id);
    return { invalid: el.getAttribute('aria-invalid'), msg: msg ? msg.textContent : '',
      beside: !!msg && el.parentElement.contains(msg), status: document.getElementById('status').textContent };
  });
  ok(fe.invalid === 'true' && /out of range/.test(fe.msg) && fe.beside,
    'a bad value is marked on its field (aria-invalid) with the message beside it (aria-describedby)', JSON.stringify(fe));
  await page.locator('#plan-form [name=servers]').fill('2');
  await page.locator('#plan-form [name=servers]').dispatchEvent('change');
  await page.waitForFunction(() => !document.querySelector('#plan-form [aria-invalid]'), null, { timeout: 10000 })
    .then(() => ok(true, 'correcting the value clears the mark'), (e) => ok(false, 'correcting the value clears the mark', e.message));
  const headBad = [];
  for (const l of ['/plan?example=capped', '/cluster?gpus=128&gpus_per_node=8', '/decode?part=MCX653105A-HDAT', '/calc?' + CALCS[0], '/plan']) {
    await page.goto(base + l);
    await settle(page);
    const hd = await headingsOk(page);
    if (!hd.ok) headBad.push(l + ' ' + JSON.stringify(hd));
  }
  ok(headBad.length === 0, 'every tab has one h1 and skips no heading level', headBad.join('\n'));
  await page.goto(base + '/plan?example=capped');
  await settle(page);
  const live = await page.evaluate(() => ({ regions: [...document.querySelectorAll('[aria-live]')].map((x) => x.id),
    status: document.getElementById('status').textContent, report: document.getElementById('plan-result').innerText.length }));
  ok(live.regions.length === 1 && live.regions[0] === 'status' && /need a back-end RDMA fabric/.test(live.status) &&
    live.status.length < 600 && live.status.length < live.report / 4,
  'the live region announces the headline and counts, not the whole report', JSON.stringify(live).slice(0, 400));
  await context.close();

  /* 7. JavaScript off: the server's page holds the answer. */
  const nojs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const np = await nojs.newPage();
  await np.goto(base + '/plan?example=capped');
  const off = await np.evaluate(() => ({ visible: !!document.getElementById('tab-plan').getClientRects().length,
    head: document.querySelector('#plan-result h2.headline')?.textContent || '',
    bom: /Bill of materials/.test(document.getElementById('plan-result').textContent),
    wide: document.documentElement.scrollWidth }));
  ok(off.visible && /need a back-end RDMA fabric/.test(off.head) && off.bom && off.wide <= 390,
    'JavaScript off: a shared plan link opens with its answer, in a 390 px screen', JSON.stringify(off).slice(0, 300));
  await np.goto(base + '/calc?calc=pcie&gen=3&width=16');
  const offc = await np.evaluate(() => document.getElementById('calc-result').textContent);
  ok(/126\.0 Gb\/s/.test(offc) && /PCIe Gen3 x16/.test(offc), 'JavaScript off: a calculator link opens with its answer', offc.slice(0, 200));
  await np.goto(base + '/cluster?gpus=128&gpus_per_node=8');
  const offk = await np.evaluate(() => document.getElementById('cluster-result').textContent);
  ok(/128 GPUs/.test(offk), 'JavaScript off: a cluster link opens with its answer', offk.slice(0, 200));
  await np.goto(base + '/decode?part=%3Cimg%20src%3Dx%3E%22%27%26');
  const offd = await np.evaluate(() => ({ imgs: document.querySelectorAll('#decode-result img').length,
    text: document.getElementById('decode-result').textContent }));
  ok(offd.imgs === 0 && /Cannot answer/.test(offd.text), 'JavaScript off: markup in a link is shown as text', JSON.stringify(offd));
  await nojs.close();

  /* 8. axe-core. */
  const axeSrc = fs.readFileSync(process.env.AXE_CORE || require.resolve('axe-core/axe.min.js'), 'utf8');
  const axeBad = [];
  for (const w of [1280, 390]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: 900 }, bypassCSP: true });
    const p = await ctx.newPage();
    for (const l of ['/plan', '/plan?example=capped', '/cluster?nodes=16&gpus_per_node=8', '/decode?part=MCX653105A-HDAT',
      '/calc?' + CALCS[0], '/plan?server=r740xd&gpu=a40&servers=0']) {
      await p.goto(base + l);
      await settle(p);
      await p.addScriptTag({ content: axeSrc });
      const res = await p.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact))
        .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')));
      for (const r of res) axeBad.push(w + ' px ' + l + ': ' + r);
    }
    await ctx.close();
  }
  ok(axeBad.length === 0, 'axe-core: no violation of moderate impact or worse on any tab, at 1280 and 390 px', axeBad.join('\n'));

  /*
   * The same with JavaScript off: the page the server writes, its answer
   * and its filled-in form. The script is refused at the network (axe
   * itself needs JavaScript), which leaves the page as a browser without
   * it shows it: the page has no <noscript> content.
   */
  const offBad = [];
  for (const w of [1280, 390]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: 900 }, bypassCSP: true });
    await ctx.route('**/app.js', (r) => r.abort());
    const p = await ctx.newPage();
    for (const l of ['/plan', '/plan?server=dgx-h100&servers=32&model=llama-3.1-405b&workload=training',
      '/plan?example=capped', '/cluster?nodes=16&gpus_per_node=8', '/decode?part=MCX653105A-HDAT',
      '/calc?calc=pcie&gen=3&width=16', '/plan?server=r740xd&gpu=a40&servers=0']) {
      await p.goto(base + l);
      await p.addScriptTag({ content: axeSrc });
      const res = await p.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact))
        .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')));
      for (const r of res) offBad.push(w + ' px ' + l + ': ' + r);
    }
    await ctx.close();
  }
  ok(offBad.length === 0, 'axe-core with JavaScript off: no violation of moderate impact or worse, at 1280 and 390 px',
    offBad.join('\n'));
};

/*
 * The audit pictures of the fixture machines (serve.sh writes them into
 * the directory AUDIT_SVGS names), measured by the browser that shows
 * them: the picture no wider than 1,700 px (an 8-GPU HGX board wraps by
 * socket and switch instead of running 4,152 px wide), no two boxes
 * overlapping, every label inside its box, and every cut label with its
 * whole text in a <title>.
 */
module.exports.auditSvg = async function auditSvg({ browser, ok, dir }) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.svg')).sort();
  const context = await browser.newContext({ viewport: { width: 1800, height: 1000 } });
  const page = await context.newPage();
  const wide = [];
  const overlaps = [];
  const spill = [];
  const untitled = [];
  for (const f of files) {
    await page.setContent('<!doctype html><body style="margin:0">' + fs.readFileSync(path.join(dir, f), 'utf8') + '</body>');
    const r = await page.evaluate(() => {
      const svg = document.querySelector('svg');
      const box = (el) => ({ x: +el.getAttribute('x'), y: +el.getAttribute('y'), w: +el.getAttribute('width'), h: +el.getAttribute('height') });
      const rects = [...svg.querySelectorAll('rect')].filter((r) => r.getAttribute('width') !== '100%');
      const sockets = rects.filter((r) => r.getAttribute('rx') === '10').map(box);
      const nodes = rects.filter((r) => r.getAttribute('rx') !== '10').map(box);
      const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      const over = [];
      for (const list of [nodes, sockets]) {
        for (let i = 0; i < list.length; i++) {
          for (let j = i + 1; j < list.length; j++) if (hit(list[i], list[j])) over.push(JSON.stringify([list[i], list[j]]));
        }
      }
      const out = [];
      const cut = [];
      for (const t of svg.querySelectorAll('text[text-anchor=middle]')) {
        const x = +t.getAttribute('x');
        const y = +t.getAttribute('y');
        const inside = nodes.concat(sockets).filter((b) => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h)
          .sort((a, b) => a.w * a.h - b.w * b.h)[0];
        const len = t.getComputedTextLength();
        if (!inside || len > inside.w - 2) out.push(t.textContent + ' ' + Math.round(len) + ' px in ' + (inside ? inside.w : 'no box'));
        const shown = [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('');
        if (shown.endsWith('…') && !t.querySelector('title')) cut.push(shown);
      }
      return { width: +svg.getAttribute('width'), over, out, cut, gpus: (svg.textContent.match(/GPU\d ·/g) || []).length };
    });
    if (r.width > 1700) wide.push(f + ' ' + r.width + ' px');
    if (f.startsWith('hgx') && r.gpus !== 8) wide.push(f + ': ' + r.gpus + ' GPUs drawn, not 8');
    for (const o of r.over) overlaps.push(f + ' ' + o);
    for (const o of r.out) spill.push(f + ': ' + o);
    for (const o of r.cut) untitled.push(f + ': ' + o);
  }
  ok(files.length >= 10 && wide.length === 0, `audit SVG of ${files.length} fixture hosts: none wider than 1,700 px (hgx-h100 with its 8 GPUs included)`,
    wide.join('\n'));
  ok(overlaps.length === 0, 'audit SVG: no two boxes overlap', overlaps.slice(0, 10).join('\n'));
  ok(spill.length === 0, 'audit SVG: every label fits its box, measured by the browser', spill.slice(0, 10).join('\n'));
  ok(untitled.length === 0, 'audit SVG: every cut label carries its whole text in a <title>', untitled.join('\n'));
  await context.close();
};
