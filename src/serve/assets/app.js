/*
 * app.js - the nicfit configurator page.
 *
 * Each tab is a form whose field names are the spec keys of the API, so
 * the page address (/plan?server=r740xd&gpu=a40&...) is the request: a
 * shared link fills the form and runs the same request on open, and every
 * change updates the address. Answers are the CLI's JSON documents,
 * rendered with DOM nodes and textContent only (never HTML from data).
 */
'use strict';

(function () {
  const TABS = ['plan', 'cluster', 'decode', 'calc'];

  const CALCS = {
    pcie: { about: 'Usable bandwidth of a PCIe link after encoding and packet overhead.',
      fields: [['gen', 'Generation', 'select:1,2,3,4,5,6', '3'], ['width', 'Lanes', 'select:1,2,4,8,16', '16'],
        ['mps', 'Max payload size (bytes)', 'number', '']] },
    link: { about: 'Goodput of one network link: line coding and packet headers.',
      fields: [['speed', 'Speed (10G, 100GbE, HDR...)', 'text', '100G'], ['proto', 'Protocol', 'select:tcp,roce,ib', 'tcp'],
        ['mtu', 'MTU (bytes)', 'number', '']] },
    nic: { about: 'What a card delivers in a slot: its ports or the slot, whichever is less.',
      fields: [['part', 'Part number or catalog id', 'text', 'MCX556A-ECAT'], ['slot', 'Slot (gen3x16)', 'text', 'gen3x16'],
        ['ports', 'Ports in use', 'number', ''], ['proto', 'Protocol', 'select:,tcp,roce,ib', '']] },
    load: { about: 'How long loading a model (or any data) over the network takes.',
      fields: [['size', 'Size (16GB, 70B)', 'text', '16GB'], ['link', 'Link (10G, 100G)', 'text', '10G'],
        ['storage_gbps', 'Storage read rate (Gb/s)', 'number', ''], ['proto', 'Protocol', 'select:,tcp,roce,ib', '']] },
    fit: { about: 'Whether a model fits in GPU memory, with its KV cache.',
      fields: [['model', 'Model', 'catalog:models', 'llama-3-8b'], ['params', 'or parameters (70B)', 'text', ''],
        ['precision', 'Precision', 'select:bf16,fp16,fp8,int8,int4,fp32', 'bf16'], ['gpus', 'GPUs (2xa40)', 'text', '2xa40'],
        ['context', 'Context (tokens)', 'number', ''], ['concurrency', 'Concurrent requests', 'number', '']] },
    allreduce: { about: 'Time of one all-reduce across nodes (gradient exchange), by the algorithm NCCL would pick: ring, tree, or SHARP where InfiniBand switches reduce in the network.',
      fields: [['size', 'Size (16GB)', 'text', '16GB'], ['nodes', 'Nodes', 'number', '2'], ['link', 'Link', 'text', '100G'],
        ['proto', 'Protocol', 'select:roce,ib,tcp', 'roce'], ['nics_per_node', 'NICs per node', 'number', ''],
        ['sharp', 'SHARP in-network reduction (InfiniBand)', 'select:,true', '']] },
    step: { about: 'One step of a job: its compute, the traffic each parallelism sends across nodes, and whether the network hides under the compute (the numbers nicfit plan uses).',
      fields: [['model', 'Model', 'catalog:models', 'llama-3-8b'], ['params', 'or parameters (70B)', 'text', ''],
        ['gpu', 'GPU', 'catalog:gpus', 'a40'], ['workload', 'Workload', 'select:training,fine-tuning,inference,prefill', 'training'],
        ['precision', 'Precision', 'select:bf16,fp16,fp8,int8,int4', 'bf16'], ['nodes', 'Nodes', 'number', '2'],
        ['gpus_per_node', 'GPUs per node', 'number', '2'], ['parallel', 'Data parallelism', 'select:,auto,ddp,zero1,zero2,zero3,fsdp', ''],
        ['tp', 'Tensor parallel', 'number', ''], ['pp', 'Pipeline parallel', 'number', ''], ['ep', 'Expert parallel', 'number', ''],
        ['batch_tokens', 'Tokens per step', 'number', ''], ['concurrency', 'Sequences (inference)', 'number', ''],
        ['context', 'Prompt tokens (prefill)', 'number', ''],
        ['disaggregated', 'Prefill hands its KV cache to decode nodes', 'select:,true', ''],
        ['output_tokens', 'Output tokens (pools)', 'number', ''], ['requests_per_s', 'Target requests/s (pools)', 'number', ''],
        ['ttft_ms', 'TTFT target, ms (pools)', 'number', ''], ['tpot_ms', 'TPOT target, ms (pools)', 'number', ''],
        ['link', 'Link (100G)', 'text', '100G'], ['proto', 'Protocol', 'select:,roce,ib,tcp', ''],
        ['nics_per_node', 'NICs per node', 'number', '']] },
    stream: { about: 'Network traffic of streaming generated tokens to users.',
      fields: [['tokens_per_s', 'Tokens per second', 'number', '1000'], ['concurrency', 'Concurrent streams', 'number', ''],
        ['link', 'Link', 'text', '']] },
  };

  const state = { tab: 'plan', catalog: null, seq: {}, pictures: {}, docs: {}, queries: {} };

  /* ---- DOM helpers: text only, never markup from data ---- */

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = String(v);
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  /* Part numbers (MCX653105A-HDAT, X710-DA2) kept on one line: a browser
   * breaks a line after a hyphen, and half a part number is a wrong one. */
  const PARTNO = /\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b/g;

  function partText(str) {
    const s = String(str === null || str === undefined ? '' : str);
    const out = [];
    let last = 0;
    for (const m of s.matchAll(PARTNO)) {
      out.push(s.slice(last, m.index), h('span', { class: 'partno', text: m[0] }));
      last = m.index + m[0].length;
    }
    out.push(s.slice(last));
    return out.filter((x) => x !== '');
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }

  /* ---- number and value formatting ---- */

  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const num2 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  const num4 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
  const num = { format: (v) => (v !== 0 && Math.abs(v) < 0.01 ? String(Number(v.toPrecision(2))) : num2.format(v)) };

  function fmtSeconds(s) {
    if (s < 1) return num.format(s * 1000) + ' ms';
    if (s < 120) return num.format(s) + ' s';
    if (s < 7200) return num.format(s / 60) + ' min';
    return num.format(s / 3600) + ' h';
  }

  function fmtValue(key, v) {
    if (v === null || v === undefined) return '—';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v === 'number') {
      if (/(^|_)usd$/.test(key)) return usd.format(v);
      if (/_gbps$/.test(key)) return num.format(v) + ' Gb/s';
      if (/_gBps$/.test(key)) return num.format(v) + ' GB/s';
      if (/_gib$/.test(key)) return num.format(v) + ' GiB';
      if (/_gb$/.test(key)) return num.format(v) + ' GB';
      if (/(^|_)s$/.test(key) || key === 'seconds') return fmtSeconds(v);
      if (/_m$/.test(key)) return num.format(v) + ' m';
      return v !== 0 && Math.abs(v) < 0.01 ? num.format(v) : num4.format(v);
    }
    if (Array.isArray(v)) return v.map((x) => fmtValue(key, x)).join(', ');
    if (typeof v === 'object') {
      return Object.entries(v).filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => k + ': ' + fmtValue(k, x)).join(', ');
    }
    return String(v);
  }

  const ACRONYMS = { pcie: 'PCIe', ib: 'IB', rdma: 'RDMA', gpu: 'GPU', gpus: 'GPUs', nic: 'NIC', nics: 'NICs',
    oob: 'OOB', numa: 'NUMA', mtu: 'MTU', kv: 'KV', bom: 'BOM', id: 'id', pci: 'PCI', mps: 'MPS', tcp: 'TCP' };

  function label(key) {
    const words = key.replace(/_(gbps|gBps|gb|gib|usd|s|m)$/, '').split('_')
      .map((w) => ACRONYMS[w.toLowerCase()] || w);
    const s = words.join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  const FABRIC = { roce: 'RoCE v2', infiniband: 'InfiniBand', ib: 'InfiniBand', ethernet: 'Ethernet' };

  /* ---- generic renderers ---- */

  function isNumericKey(rows, key) {
    return rows.some((r) => typeof r[key] === 'number') &&
      rows.every((r) => r[key] === null || r[key] === undefined || typeof r[key] === 'number');
  }

  function table(rows, opts) {
    opts = opts || {};
    const cols = opts.columns || [];
    if (!opts.columns) {
      for (const r of rows) {
        if (r && typeof r === 'object') {
          for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
        }
      }
    }
    const numeric = {};
    for (const c of cols) numeric[c] = isNumericKey(rows, c);
    const head = h('tr', null, cols.map((c) => h('th', { class: numeric[c] ? 'num' : null, scope: 'col',
      text: (opts.titles && opts.titles[c]) || label(c) })));
    const body = rows.map((r) => h('tr', null, cols.map((c) => {
      const v = r && typeof r === 'object' ? r[c] : r;
      return h('td', { class: numeric[c] ? 'num' : (opts.cellClass && opts.cellClass[c]) || null },
        partText((opts.format && opts.format[c]) ? opts.format[c](v, r) : fmtValue(c, v)));
    })));
    return h('div', { class: 'table-wrap' },
      h('table', { class: opts.class || null }, h('thead', null, head), h('tbody', null, body), opts.foot || null));
  }

  /* A definition list of an object's fields (nested values compacted). */
  function facts(obj, skip) {
    const dl = h('dl', { class: 'facts' });
    const keys = Object.keys(obj || {}).filter((k) => !(skip && skip.includes(k)) && obj[k] !== null &&
      !(Array.isArray(obj[k]) && obj[k].length && typeof obj[k][0] === 'object'));
    const seen = {};
    for (const k of keys) seen[label(k)] = (seen[label(k)] || 0) + 1;
    for (const k of keys) {
      const v = obj[k];
      const t = seen[label(k)] > 1 ? k.replace(/_/g, ' ') : label(k);
      dl.append(h('dt', { text: t }), h('dd', null, partText(fmtValue(k, v))));
    }
    return dl;
  }

  /* Whatever a document holds beyond what the page knows, so nothing is hidden. */
  function more(doc, known) {
    const rest = Object.keys(doc).filter((k) => !known.includes(k) && k !== 'schema');
    if (!rest.length) return null;
    const box = h('details', { class: 'more' }, h('summary', { text: 'More detail' }));
    for (const k of rest) {
      const v = doc[k];
      box.append(h('h3', { text: label(k) }));
      if (Array.isArray(v) && v.length && typeof v[0] === 'object') box.append(table(v));
      else if (v && typeof v === 'object' && !Array.isArray(v)) box.append(facts(v));
      else box.append(h('p', { text: fmtValue(k, v) }));
    }
    return box;
  }

  /* [label, value] rows of an object, labels made unique. */
  function labelled(obj) {
    const seen = {};
    for (const k of Object.keys(obj)) seen[label(k)] = (seen[label(k)] || 0) + 1;
    return Object.entries(obj).map(([k, v]) => [seen[label(k)] > 1 && /_[a-zA-Z]+$/.test(k) && k !== 'port'
      ? label(k) + ' speed' : label(k), fmtValue(k, v)]);
  }

  function section(title, ...kids) {
    return h('section', { class: 'block' }, h('h3', { text: title }), kids);
  }

  /* A section others link to (#id): its heading takes the focus when followed. */
  function anchored(id, cls, title, ...kids) {
    return h('section', { class: 'block ' + cls, id }, h('h3', { text: title, tabindex: '-1' }), kids);
  }

  /* The verdict box: the answer as the result's heading, and badges that
   * count the findings and link to them. */
  function verdictBox(tab, tone, headline, findings) {
    const counts = {};
    for (const x of findings || []) counts[x.severity] = (counts[x.severity] || 0) + 1;
    return h('div', { class: 'verdict ' + tone },
      h('h2', { class: 'headline' }, typeof headline === 'string' ? pageText(tab, headline) : headline),
      h('p', { class: 'badges' }, ['critical', 'warning', 'info'].filter((k) => counts[k]).map((k) =>
        h('a', { class: 'badge sev-' + k, href: '#' + tab + '-findings',
          text: counts[k] + ' ' + k + (counts[k] === 1 ? '' : 's') }))));
  }

  function card(title, rows, tone) {
    const dl = h('dl', null);
    for (const [k, v] of rows) {
      if (v === null || v === undefined || v === '') continue;
      dl.append(h('dt', { text: k }), h('dd', null, partText(v)));
    }
    return h('div', { class: 'card' + (tone ? ' ' + tone : '') }, h('h3', { text: title }), dl);
  }

  function errorBox(msg) {
    return h('div', { class: 'error' }, h('strong', { text: 'Cannot answer: ' }), msg);
  }

  /* ---- shared parts of plan and cluster ---- */

  function bomBlock(bom) {
    if (!bom || !Array.isArray(bom.lines)) return null;
    const hasRole = bom.lines.some((l) => l.role);
    const cols = ['part', 'description'].concat(hasRole ? ['role'] : [], ['qty', 'unit_usd', 'total_usd']);
    const titles = { part: 'Part', description: 'Description', role: 'For', qty: 'Qty', unit_usd: 'Unit', total_usd: 'Total' };
    const cellClass = { part: 'part' };
    const format = {
      unit_usd: (v) => (v === null || v === undefined ? 'unpriced' : usd.format(v)),
      total_usd: (v) => (v === null || v === undefined ? '—' : usd.format(v)),
      qty: (v) => fmtValue('qty', v),
    };
    const foot = h('tfoot', null, h('tr', null,
      h('th', { colspan: cols.length - 1, scope: 'row', text: 'Total (priced lines)' }),
      h('td', { class: 'num total', text: typeof bom.total_usd === 'number' ? usd.format(bom.total_usd) : '—' })));
    const notes = [];
    const sources = [...new Set(bom.lines.map((l) => l.price_source).filter(Boolean))];
    if (bom.prices_as_of || sources.length) {
      notes.push(h('p', { class: 'note prices' }, (bom.prices_as_of ? 'Prices as of ' + bom.prices_as_of : 'Prices') +
        (sources.length ? ', from ' + sources.join('; ') : '') + '.'));
    }
    const unpriced = Array.isArray(bom.unpriced) ? bom.unpriced : [];
    if (unpriced.length) {
      notes.push(h('p', { class: 'note warn' },
        unpriced.length + ' item' + (unpriced.length === 1 ? ' has' : 's have') +
        ' no sourced price and ' + (unpriced.length === 1 ? 'is' : 'are') + ' left out of the total: ',
        unpriced.map((u) => (typeof u === 'object' ? (u.part || u.id || fmtValue('', u)) : String(u))).join(', '),
        '. ' + CATALOG_NOTE));
    }
    return h('section', { class: 'block bom-block' }, h('h3', { text: 'Bill of materials' }),
      table(bom.lines, { columns: cols, titles, format, class: 'bom', foot, cellClass }), notes);
  }

  function cablesBlock(cables) {
    if (!Array.isArray(cables) || !cables.length) return null;
    if (typeof cables[0] !== 'object') return section('Cables', h('ul', null, cables.map((c) => h('li', { text: String(c) }))));
    const known = ['network', 'link', 'description', 'ends', 'length_m', 'qty'];
    const cols = known.filter((k) => cables.some((c) => c[k] !== undefined));
    return section('Cables', table(cables, cols.length >= 3 ? { columns: cols,
      titles: { network: 'Network', link: 'Link', description: 'Cable', ends: 'Ends', length_m: 'Length', qty: 'Qty' } } : {}));
  }

  function decisionsBlock(tab, decisions) {
    if (!Array.isArray(decisions) || !decisions.length) return null;
    return section('Why', h('ol', { class: 'why' }, decisions.map((d) =>
      h('li', null, h('span', { class: 'rule', text: d.rule || '' }), h('span', null, pageText(tab, d.text || fmtValue('', d)))))));
  }

  function findingsBlock(tab, findings) {
    if (!Array.isArray(findings) || !findings.length) return null;
    return anchored(tab + '-findings', 'findings-block', 'Findings', h('ul', { class: 'findings' }, findings.map((f) =>
      h('li', { class: 'sev-' + (f.severity || 'info') },
        h('span', { class: 'badge', text: f.severity || 'info' }),
        f.code ? h('code', { text: f.code }) : null,
        h('span', null, ' ', pageText(tab, f.message || '')),
        f.fix ? h('div', { class: 'fix' }, 'Fix: ', fixView(tab, f.fix)) : null))));
  }

  /*
   * A fix as the page user can follow it. The library words fixes for the
   * command line ("--backend-cards 2"); on the page an option is a field,
   * so each option that has one becomes the field's name and a button that
   * sets it and plans again; a part of the catalog the fix proposes gets a
   * button that tries it. --catalog has no field: the page says what it
   * cannot do instead.
   */
  const CATALOG_NOTE = 'This page plans with the catalog the server was started with; it cannot add parts or prices.';

  function fieldLabel(el) {
    const lab = el.closest('label');
    if (!lab) return el.name;
    const t = lab.firstChild && lab.firstChild.nodeType === 3 ? lab.firstChild.textContent : lab.textContent;
    return t.trim() || el.name;
  }

  /* A button that sets a field and plans again; value null clears it (empties the field, unticks the box). */
  function applyButton(tab, key, value, text) {
    return h('button', { type: 'button', class: 'apply', 'data-apply-key': key,
      'data-apply-value': value === null ? '' : value, 'data-apply-clear': value === null ? '1' : null, text });
  }

  /*
   * The options a text names, as the page user reads them: each one the
   * form has a field for becomes the field's name (with its value), one
   * it has none for becomes the setting the address takes, --catalog is
   * said in words, and "leave out --gpu" asks to leave the field empty.
   * With buttons (an array), each option it can set gets a button that
   * sets it and plans again. Returns the text's parts; catalogNote is set
   * on out when the text named --catalog.
   */
  const FLAG = /(\bleave out\s+)?\(?--([a-z][a-z0-9-]*)(?:[ =]([A-Za-z0-9][A-Za-z0-9._:|=-]*))?\)?/g;

  /* "nicfit cluster --nodes N --gpu ID": another tab of this page, with the fields it names */
  const COMMAND = /\bnicfit (plan|cluster|decode|calc)((?:\s+--[a-z][a-z0-9-]*(?:[ =](?!-)[A-Za-z0-9][A-Za-z0-9._:|=-]*)?)+)/;
  const TAB_NAME = { plan: 'Plan', cluster: 'Cluster', decode: 'Decode', calc: 'Calculators' };

  function commandWords(tab, text) {
    const form = formOf(tab);
    const names = [];
    for (const m of text.matchAll(/--([a-z][a-z0-9-]*)/g)) {
      const el = form && form.elements.namedItem(m[1].replace(/-/g, '_'));
      names.push(el && !(el instanceof RadioNodeList) ? fieldLabel(el) : m[1].replace(/-/g, ' '));
    }
    return ['the ', h('q', { text: TAB_NAME[tab] }), ' tab of this page (', names.map((x, i) =>
      [i ? (i === names.length - 1 ? ' and ' : ', ') : '', h('q', { text: x })]), ')'];
  }

  const SENTENCE_WORDS = new Set(['only', 'for', 'to', 'and', 'or', 'with', 'instead', 'if', 'in', 'on', 'the', 'a', 'an',
    'also', 'picks', 'lists']);

  function flagWords(tab, text, buttons) {
    const form = formOf(tab);
    const out = [];
    let last = 0;
    let m;
    const cmd = COMMAND.exec(text);
    if (cmd) {
      /* the command whole, said as the tab it is on this page */
      const before = flagWords(tab, text.slice(0, cmd.index), buttons);
      const after = flagWords(tab, text.slice(cmd.index + cmd[0].length), buttons);
      const all = before.concat(commandWords(cmd[1], cmd[2]), after);
      all.catalogNote = before.catalogNote || after.catalogNote;
      return all;
    }
    FLAG.lastIndex = 0;
    out.catalogNote = false;
    while ((m = FLAG.exec(text))) {
      const leave = !!m[1];
      const whole = m[0].slice(m[1] ? m[1].length : 0);
      const key = m[2].replace(/-/g, '_');
      const el = form && form.elements.namedItem(key);
      out.push(text.slice(last, m.index));
      last = FLAG.lastIndex;
      /* "--no-rail-optimized": the box of "--rail-optimized", unticked */
      const box = !el && key.startsWith('no_') && form && form.elements.namedItem(key.slice(3));
      if (box && box.type === 'checkbox') {
        out.push(whole.startsWith('(') ? '(' : '', 'untick ', h('q', { text: fieldLabel(box) }), whole.endsWith(')') ? ')' : '');
        if (buttons) buttons.push(applyButton(tab, key.slice(3), null, 'Untick ' + fieldLabel(box)));
        continue;
      }
      /* the next word is the sentence's, not a value ("give --backend-nic only for ...") */
      if (m[3] && SENTENCE_WORDS.has(m[3].replace(/[.:]+$/, ''))) {
        last = m.index + m[0].lastIndexOf(m[3]) - 1;
        m[3] = undefined;
      }
      let value = m[3] && !/^[A-Z]+$/.test(m[3]) ? m[3].replace(/[.:]+$/, '') : '';
      let close = whole.endsWith(')') ? ')' : '';
      if (value && value.length < m[3].length) {
        /* the sentence's own stop after the value ("--fabric roce."): left in the text */
        last = m.index + m[0].lastIndexOf(m[3]) + value.length;
        close = '';
      }
      /* a choice of values ("ddp|zero1|fsdp") or a name to give one to ("mfu="): no single value to set */
      const single = value && !/[|]|=$/.test(value);
      const open = whole.startsWith('(') ? '(' : '';
      if (el && !(el instanceof RadioNodeList) && el.disabled) {
        /* a field the server's baseboard sets (GPU, GPUs per server): words, no button */
        out.push(open, leave ? 'leave out ' : '', h('q', { text: fieldLabel(el) }),
          h('span', { class: 'page-note', text: ' (set by the server: choose another server to change it)' }), close);
      } else if (el && !(el instanceof RadioNodeList)) {
        if (leave) {
          out.push(open, 'leave ', h('q', { text: fieldLabel(el) }), ' empty', close);
          if (buttons) buttons.push(applyButton(tab, key, null, 'Clear ' + fieldLabel(el)));
          continue;
        }
        if (buttons && !value && el.tagName === 'SELECT' && key.endsWith('cards')) value = String(Number(el.value || 1) + 1);
        out.push(open, h('q', { text: fieldLabel(el) + (value ? ' = ' + value : '') }), close);
        if (buttons) {
          buttons.push(single ? applyButton(tab, key, value, 'Apply: ' + fieldLabel(el) + ' ' + value)
            : applyButton(tab, key, '', 'Set ' + fieldLabel(el)));
        }
      } else if (key === 'catalog') {
        /* "correct them with --catalog", "then --catalog prices.json": said in words, the sentence whole */
        out[out.length - 1] = out[out.length - 1].replace(/\s*(,\s*then|\bwith)\s*$/, '');
        out.push(' in a catalog file given to the server when it starts', close);
        out.catalogNote = true;
      } else {
        /* A setting the form has no field for: the address keeps it (as "More settings from the link"). */
        const name = key === 'assume' && value ? 'assumption ' + value.replace(/=.*$/, '') : key.replace(/_/g, ' ');
        out.push(open, leave ? 'leave out ' : '', h('q', { text: name + (single && key !== 'assume' ? ' = ' + value : '') }));
        if (single && buttons && key !== 'assume') buttons.push(applyButton(tab, key, value, 'Apply: ' + name + ' ' + value));
        else {
          const eg = key === 'assume' && value ? value.replace(/=.*$/, '') + '=…' : single ? value : '…';
          const where = 'no field on this page; add ' + key + '=' + eg + ' to the address';
          out.push(h('span', { class: 'page-note', text: open ? ': ' + where : ' (' + where + ')' }));
        }
        out.push(close);
      }
    }
    out.push(text.slice(last));
    for (let i = 0; i < out.length; i++) if (typeof out[i] === 'string') out[i] = partText(out[i]);
    return out;
  }

  /* Prose of the library (a decision, a finding's message, the verdict) as the page says it. */
  function pageText(tab, text) {
    const out = flagWords(tab, String(text === null || text === undefined ? '' : text), null);
    if (out.catalogNote) out.push(h('span', { class: 'page-note', text: ' (' + CATALOG_NOTE + ')' }));
    return out;
  }

  /* The same as plain text, for the printed quote. */
  function pagePlain(tab, text) {
    return h('span', null, pageText(tab, text)).textContent;
  }

  function fixView(tab, fix) {
    const form = formOf(tab);
    const buttons = [];
    const out = flagWords(tab, fix, buttons);
    /* A NIC of the catalog that the fix names and the plan does not use. */
    const nicKey = tab === 'plan' ? 'backend_nic' : tab === 'cluster' ? 'nic' : null;
    const nics = (state.catalog && state.catalog.nics) || [];
    if (nicKey && form.elements.namedItem(nicKey)) {
      for (const n of nics) {
        const part = n.part || n.id;
        if (!part || part.length < 5 || !fix.includes(part)) continue;
        if (form.elements.namedItem(nicKey).value === n.id) continue;
        buttons.push(applyButton(tab, nicKey, n.id, 'Try ' + part));
        break;
      }
    }
    if (out.catalogNote) out.push(h('span', { class: 'page-note', text: ' (' + CATALOG_NOTE + ')' }));
    return [out, buttons];
  }

  function pictureBlock(tab) {
    return h('figure', { class: 'picture', id: tab + '-picture', hidden: true },
      h('img', { alt: tab === 'plan' ? 'Topology of the planned servers' : 'Fabric of the cluster' }));
  }

  /* A page served on this machine only: its link means nothing to whoever reads the quote. */
  function loopback() {
    const host = location.hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host);
  }

  /*
   * Quote header, shown only when printing: the title, the verdict the
   * answer opens with, the configuration it answers, and the link that
   * opens it again where the page is reachable (never a loopback address).
   */
  function printHeader(title, inputs, verdict) {
    const now = new Date();
    const made = 'Prepared ' + now.toISOString().slice(0, 10) + ' with nicfit.';
    return h('div', { class: 'print-only quote-head' },
      h('h2', { text: title }),
      verdict ? h('p', { class: 'quote-verdict', text: verdict }) : null,
      h('p', { class: 'config', text: inputs.map(([k, v]) => k + ': ' + v).join(' · ') }),
      h('p', { text: loopback() ? made : made + ' This quote opens again at ' + location.href }));
  }

  /* ---- plan ---- */

  function planVerdict(doc) {
    if (typeof doc.verdict === 'string' && doc.verdict) return doc.verdict;
    const b = doc.backend || {};
    if (b.needed) {
      return 'A back-end RDMA fabric is needed' + (b.fabric ? ' (' + (FABRIC[b.fabric] || b.fabric) + ')' : '') + '.';
    }
    return 'No back-end fabric needed: the front-end network is enough.';
  }

  function renderPlan(doc, inputs) {
    const out = [];
    const b = doc.backend || {};
    const f = doc.frontend || {};
    const m = doc.model_fit || null;
    out.push(printHeader('Network plan and quote', inputs, pagePlain('plan', planVerdict(doc))));
    out.push(verdictBox('plan', b.needed ? 'backend' : 'frontend', planVerdict(doc), doc.findings));
    out.push(findingsBlock('plan', doc.findings));

    const cards = [];
    if (m) {
      cards.push(card('Model fit', [
        ['Weights', fmtValue('weights_gb', m.weights_gb)],
        ['KV cache', m.kv_cache_gb ? fmtValue('kv_cache_gb', m.kv_cache_gb) : null],
        ['Training state', typeof m.training_state_gb === 'number' ? fmtValue('training_state_gb', m.training_state_gb) : null],
        ['Needs', fmtValue('total_gb', m.total_gb)],
        ['GPU memory', fmtValue('capacity_gb', m.capacity_gb)],
        ['Fits one server', fmtValue('', m.fits_one_server)],
        ['Takes', m.fits_one_server === false && m.gpus_needed ? m.gpus_needed + ' GPUs' +
          (m.servers_needed ? ', ' + m.servers_needed + ' server' + (m.servers_needed === 1 ? '' : 's') : '') : null],
      ], m.fits_one_server === false ? 'warn' : null));
    }
    const fnic = f.nic || {};
    cards.push(card('Front end', [
      ['Card', fnic.part ? fnic.part + (fnic.onboard ? ' (onboard)' : '') : null],
      ['Port', typeof f.port_gbps === 'number' ? fmtValue('port_gbps', f.port_gbps) : null],
      ['Goodput', typeof f.goodput_gbps === 'number' ? fmtValue('goodput_gbps', f.goodput_gbps) : null],
      ['Model load', typeof f.load_s === 'number' ? fmtSeconds(f.load_s) : null],
    ]));
    const bnic = b.nic || null;
    const slots = bnic && Array.isArray(bnic.slots) && bnic.slots.length ? bnic.slots
      : bnic && bnic.slot !== undefined && bnic.slot !== null ? [bnic.slot] : [];
    cards.push(card('Back end', b.needed ? [
      ['Fabric', (FABRIC[b.fabric] || b.fabric || '—') + (b.back_to_back ? ', back to back' : '')],
      ['Card', bnic ? (bnic.cards_per_server > 1 ? bnic.cards_per_server + ' x ' : '') + bnic.part : null],
      ['Slot', slots.length ? 'slot ' + slots.join(', ') +
        (bnic.numa_node !== undefined && bnic.numa_node !== null ? ' · socket ' + bnic.numa_node : '') : null],
      ['Port', bnic ? fmtValue('port_gbps', bnic.port_gbps) : null],
      ['Slot feeds', bnic && typeof bnic.pcie_gbps === 'number' ? fmtValue('pcie_gbps', bnic.pcie_gbps) : null],
      ['Delivers', bnic ? fmtValue('effective_gbps', bnic.effective_gbps) + (bnic.limited_by ? ' (' + bnic.limited_by + '-bound)' : '') : null],
    ] : [['Needed', 'no']], b.needed ? 'accent' : null));
    if (doc.oob !== undefined && doc.oob !== null) {
      const o = doc.oob;
      cards.push(card('Out-of-band', typeof o === 'object' ? [
        ['Port', o.name || null], ['Speed', typeof o.gbps === 'number' ? fmtValue('_gbps', o.gbps) + (o.cage ? ' ' + o.cage : '') : null],
      ].concat(labelled(Object.fromEntries(Object.entries(o).filter(([k]) => !['name', 'gbps', 'cage'].includes(k)))))
        : [['Port', String(o)]]));
    }
    const sv = doc.serving || null;
    if (sv) {
      const kv = sv.kv_transfer || {};
      cards.push(card('Disaggregated serving', [
        ['Pools', sv.prefill_servers + ' prefill + ' + sv.decode_servers + ' decode server' + (sv.decode_servers === 1 ? '' : 's')],
        ['Serves', P(sv.requests_per_s) + ' requests/s' + (typeof sv.target_requests_per_s === 'number' ? ' of ' + P(sv.target_requests_per_s) : '')],
        ['TTFT', fmtSeconds(sv.ttft_s) + (sv.ttft_met ? '' : ' (over target)')],
        ['Decode', P(sv.decode_batch) + ' sequences, ' + fmtSeconds(sv.decode_step_s) + ' a step' + (sv.tpot_met ? '' : ' (over TPOT)')],
        ['KV a request', fmtValue('_gb', kv.bytes_per_request / 1e9)],
        ['KV out of prefill', fmtValue('_gbps', kv.prefill_server_gbps) + ' a server'],
        ['KV into decode', fmtValue('_gbps', kv.decode_server_gbps) + ' a server'],
        ['KV over', kv.over === 'storage' ? 'the storage/in-band NICs (no back end needed for it)' : 'the back end'],
        ['KV in TTFT', typeof kv.exposed_s === 'number' ? fmtSeconds(kv.exposed_s) + (kv.layerwise ? ' (layer by layer)' : ' (after the prefill)') : null],
        ['Offload', sv.offload ? sv.kv_offload + ', ' + fmtValue('_gbps', sv.offload.prefill_server_gbps) + ' read back' : null],
      ].concat((Array.isArray(sv.pools) ? sv.pools : []).map((pl) => [pl.pool === 'decode' ? 'Decode instance' : 'Prefill instance',
        pl.instance_gpus + ' GPUs, TP ' + pl.tp + ' × PP ' + pl.pp + ' × EP ' + pl.ep + '; ' + P(pl.server_requests_per_s) + ' requests/s a server'])),
      sv.ttft_met && sv.tpot_met ? 'accent' : 'warn'));
    }
    const ck = doc.checkpoint || null;
    if (ck) {
      cards.push(card('Checkpoint', [
        ['Size', fmtValue('_gb', ck.bytes / 1e9) + ' (' + ck.state + ')'],
        ['Writers', ck.writers + (ck.sharded ? ', sharded' : ', one replica')],
        ['Save', fmtSeconds(ck.save_s) + ' at ' + P(ck.writer_gbs) + ' GB/s a server (' + ck.limited_by + ')' + (ck.async ? ', behind training' : '')],
        ['Stall', ck.async ? fmtSeconds(ck.host_copy_s) + ' copying to host memory' : null],
        ['Share of time', typeof ck.stall_share === 'number' ? P(ck.stall_share * 100) + '%' : null],
        ['Needs', typeof ck.need_writer_gbps === 'number' ? fmtValue('_gbps', ck.need_writer_gbps) + ' a server' : null],
      ], ck.within_budget ? null : 'warn'));
    }
    out.push(h('div', { class: 'cards' }, cards));
    out.push(pictureBlock('plan'));
    out.push(bomBlock(doc.bom));
    out.push(cablesBlock(doc.cables));
    if (Array.isArray(doc.placement) && doc.placement.length) {
      out.push(section('Slot map', table(doc.placement, { columns: ['slot', 'socket', 'link', 'holds'],
        titles: { slot: 'Slot', socket: 'CPU socket', link: 'Link', holds: 'Holds' } })));
    }
    const ar = doc.estimates && doc.estimates.allreduce;
    if (ar && Array.isArray(ar.options) && ar.options.length) {
      out.push(section(ar.traffic ? 'Step time: ' + ar.traffic + ', ' + fmtValue('bytes_per_node_gb', ar.bytes_per_node_gb) +
        ' per server per step (' + fmtValue('gradient_gb', ar.gradient_gb) + ' of gradients)'
        : 'Step time: all-reduce of ' + fmtValue('gradient_gb', ar.gradient_gb) + ' of gradients',
        table(ar.options, { columns: ['label', 'node_gbps', 'seconds', 'algorithm'],
          titles: { label: 'Network', node_gbps: 'Per node', seconds: 'Per step', algorithm: 'NCCL' } })));
    }
    out.push(decisionsBlock('plan', doc.decisions));
    out.push(more(doc, ['input', 'verdict', 'model_fit', 'frontend', 'backend', 'oob', 'cables', 'bom',
      'decisions', 'findings', 'placement', 'estimates']));
    return out;
  }

  /* ---- cluster ---- */

  function ratio(v) {
    return typeof v === 'number' ? num.format(v) + ':1' : fmtValue('', v);
  }

  /* One network (back end, front end, OOB) of a cluster as a card. */
  function networkCard(title, n, tone) {
    if (!n || typeof n !== 'object') return null;
    const sw = n.switch || {};
    const tiers = ['leaf', 'spine', 'core'].filter((t) => n[t] && n[t].switches)
      .map((t) => n[t].switches + ' ' + t).join(' + ');
    return card(title, [
      ['Node links', n.links_per_node ? n.links_per_node + ' x ' + fmtValue('_gbps', n.link_gbps) + (n.node_cage ? ' ' + n.node_cage : '') : null],
      ['Switch', sw.name || sw.id || null],
      ['Switches', tiers || null],
      ['Tiers', n.tiers ? String(n.tiers) + (n.planes > 1 ? ' x ' + n.planes + ' planes' : '') : null],
      ['Rails', n.rail_optimized ? n.rails + ' (rail-optimized)' : null],
      ['Oversubscription', n.oversubscription !== undefined ? ratio(n.oversubscription) : null],
      ['Free ports', n.ports_free !== undefined ? fmtValue('', n.ports_free) : null],
    ], tone);
  }

  function renderCluster(doc, inputs) {
    const out = [];
    const sw = [];
    if (doc.leaf_switches) sw.push(doc.leaf_switches + ' leaf');
    if (doc.spine_switches) sw.push(doc.spine_switches + ' spine');
    if (doc.core_switches) sw.push(doc.core_switches + ' core');
    const nodes = doc.input && doc.input.nodes;
    const head = typeof doc.verdict === 'string' && doc.verdict ? doc.verdict
      : 'Back end: ' + (doc.tiers ? doc.tiers + '-tier fabric' : 'fabric') + (sw.length ? ', ' + sw.join(' + ') + ' switches' : '') +
        (nodes ? ' for ' + nodes + ' node' + (nodes === 1 ? '' : 's') + (doc.gpus ? ' (' + doc.gpus + ' GPUs)' : '') : '') + '.';
    out.push(printHeader('Cluster fabric and quote', inputs, typeof head === 'string' ? pagePlain('cluster', head) : head));
    out.push(verdictBox('cluster', 'backend', head, doc.findings));
    out.push(findingsBlock('cluster', doc.findings));
    const cards = [];
    if (doc.backend && typeof doc.backend === 'object') cards.push(networkCard('Back end', doc.backend, 'accent'));
    else cards.push(card('Switches', [['Tiers', fmtValue('tiers', doc.tiers)], ['Leaf', fmtValue('', doc.leaf_switches)],
      ['Spine', fmtValue('', doc.spine_switches)], ['Core', doc.core_switches ? fmtValue('', doc.core_switches) : null]], 'accent'));
    if (doc.frontend && typeof doc.frontend === 'object') cards.push(networkCard('Front end', doc.frontend));
    if (doc.oob && typeof doc.oob === 'object') cards.push(networkCard('Out-of-band', doc.oob));
    cards.push(card('Links and racks', [
      ['Host links', fmtValue('', doc.host_links)], ['Switch links', fmtValue('', doc.switch_links)],
      ['Racks', doc.racks ? doc.racks + (doc.network_racks ? ' + ' + doc.network_racks + ' network' : '') : null],
      ['Rows', doc.rows ? String(doc.rows) : null],
      ['Longest cable', typeof doc.max_cable_m === 'number' ? fmtValue('max_cable_m', doc.max_cable_m) : null],
    ]));
    out.push(h('div', { class: 'cards' }, cards.filter(Boolean)));
    out.push(pictureBlock('cluster'));
    out.push(bomBlock(doc.bom));
    if (Array.isArray(doc.switches) && doc.switches.length) {
      out.push(section('Switches', table(doc.switches)));
    }
    out.push(cablesBlock(doc.cables));
    if (Array.isArray(doc.port_map) && doc.port_map.length) {
      out.push(h('details', { class: 'more' }, h('summary', { text: 'Port map (' + doc.port_map.length + ' rows)' }), table(doc.port_map)));
    }
    out.push(decisionsBlock('cluster', doc.decisions));
    if (Array.isArray(doc.assumptions) && doc.assumptions.length) out.push(assumptionsBlock(doc.assumptions));
    out.push(more(doc, ['input', 'verdict', 'tiers', 'leaf_switches', 'spine_switches', 'core_switches', 'gpus',
      'host_links', 'switch_links', 'cables', 'bom', 'decisions', 'findings', 'port_map', 'backend', 'frontend', 'oob',
      'switches', 'assumptions', 'racks', 'network_racks', 'rows', 'max_cable_m']));
    return out;
  }

  function assumptionsBlock(list) {
    const cols = ['name', 'value', 'unit', 'meaning', 'source'].filter((k) => list.some((a) => a[k] !== undefined));
    return section('Assumptions', table(list, { columns: cols,
      format: { value: (v) => (typeof v === 'number' ? num4.format(v) : fmtValue('', v)) } }));
  }

  /* ---- decode ---- */

  /* The facts a part number gives, as a table a buyer reads. */
  function decodeTable(doc) {
    const pcie = doc.pcie_gen ? 'PCIe ' + (doc.pcie_gen_min && doc.pcie_gen_min !== doc.pcie_gen ? doc.pcie_gen_min + '.0/' : '') +
      doc.pcie_gen + '.0' + (doc.pcie_width ? ' x' + doc.pcie_width : '') : null;
    const shown = ['kind', 'vendor', 'family', 'protocol', 'ports', 'cage', 'port_gbps', 'ib_rate', 'pcie_gen', 'pcie_gen_min', 'pcie_width',
      'rdma', 'form_factor', 'bracket', 'driver', 'name', 'pci'];
    const rows = [['Name', doc.name], ['Vendor', doc.vendor], ['Family', [doc.family, doc.protocol].filter(Boolean).join(' ')],
      ['Ports', doc.ports ? doc.ports + ' × ' + (doc.cage || '') + (doc.port_gbps ? ' at ' + G(doc.port_gbps) : '') +
        (doc.ib_rate ? ' (' + doc.ib_rate + ')' : '') : null],
      ['Host link', pcie], ['RDMA', doc.rdma === true ? 'yes' + (Array.isArray(doc.rdma_kinds) && doc.rdma_kinds.length ? ': ' +
        doc.rdma_kinds.map((k) => FABRIC[k] || k).join(', ') : '') : doc.rdma === false ? 'no' : null],
      ['Form factor', [doc.form_factor, doc.bracket ? doc.bracket + ' bracket' : null].filter(Boolean).join(', ') || null],
      ['Driver', doc.driver], ['PCI ID', doc.pci && doc.pci.vendor ? doc.pci.vendor + ':' + doc.pci.device : null]];
    const skip = ['schema', 'notes', 'part', 'reading', 'summary', 'input', 'source', 'unverified', 'confidence', 'rdma_kinds', 'slots'];
    for (const [k, v] of Object.entries(doc)) {
      if (shown.includes(k) || skip.includes(k) || v === null || v === false || (typeof v === 'object' && !Array.isArray(v))) continue;
      if (Array.isArray(v) && v.length && typeof v[0] === 'object') continue;
      rows.push([label(k), fmtValue(k, v)]);
    }
    return rowsTable(rows);
  }

  function renderDecode(doc) {
    const title = doc.summary || [doc.vendor, doc.family, doc.protocol].filter(Boolean).join(' ');
    const out = [h('div', { class: 'verdict' },
      h('h2', { class: 'headline' }, h('code', { text: doc.part || '' }), ' ', title),
      h('p', { class: 'badges' },
        doc.confidence ? h('span', { class: 'badge', text: doc.confidence === 'catalog' ? 'from the catalog' : 'read by rule' }) : null,
        doc.rdma === true ? h('span', { class: 'badge sev-info', text: 'RDMA' + (Array.isArray(doc.rdma_kinds) ? ': ' + doc.rdma_kinds.join(', ') : '') }) : null,
        doc.rdma === false ? h('span', { class: 'badge sev-warning', text: 'no RDMA' }) : null))];
    if (Array.isArray(doc.reading) && doc.reading.length) {
      out.push(section('How it reads', h('div', { class: 'reading' }, doc.reading.map((r) =>
        h('div', { class: 'piece' }, h('code', { text: r.chars || '' }), h('span', { text: r.meaning || '' }))))));
    }
    out.push(section('What it is', decodeTable(doc)));
    if (Array.isArray(doc.notes) && doc.notes.length) {
      /* a card's notes name plan options ("give it with --frontend-nic"): the Plan tab's fields */
      out.push(section('Notes', h('ul', { class: 'notes' }, doc.notes.map((n) => h('li', null, pageText('plan', typeof n === 'string' ? n : fmtValue('', n)))))));
    }
    if (doc.source) {
      out.push(h('p', { class: 'note' }, 'Source: ' + doc.source +
        (Array.isArray(doc.unverified) && doc.unverified.length ? '. Unverified: ' + doc.unverified.join(', ') + '.' : '')));
    }
    if (Array.isArray(doc.slots) && doc.slots.length) {
      out.push(section('In a slot', table(doc.slots, { columns: ['slot', 'proto', 'ports_gbps', 'pcie_gbps', 'effective_gbps', 'limited_by'],
        titles: { slot: 'Slot', proto: 'Protocol', ports_gbps: 'Ports', pcie_gbps: 'Slot feeds', effective_gbps: 'Delivers', limited_by: 'Limited by' } }),
      h('p', { class: 'formula', text: 'delivers = min(ports, slot)' })));
    }
    for (const [k, v] of Object.entries(doc)) {
      if (k !== 'reading' && k !== 'slots' && Array.isArray(v) && v.length && typeof v[0] === 'object') out.push(section(label(k), table(v)));
    }
    return out;
  }

  /* ---- calc ---- */

  /*
   * Each calculator's answer: a sentence that answers the question, the
   * figures it rests on as a table, and the formula with this request's
   * numbers in it. Fields a view does not name are listed under "More
   * detail", so nothing in the document is hidden.
   */
  const G = (v) => fmtValue('_gbps', v);
  const P = (v) => num.format(v);
  const PROTO = { tcp: 'TCP', roce: 'RoCE v2', ib: 'InfiniBand', infiniband: 'InfiniBand' };

  function linkRows(l) {
    if (!l || typeof l !== 'object') return [];
    return [['Line rate', G(l.line_gbps)], ['Payload per packet', fmtValue('', l.payload_bytes) + ' B'],
      ['Headers per packet', fmtValue('', l.overhead_bytes) + ' B'], ['Efficiency', P(l.efficiency * 100) + ' %'],
      ['Goodput', G(l.goodput_gbps) + ' = ' + fmtValue('_gBps', l.goodput_gBps)]];
  }

  function linkFormula(l) {
    return l ? 'goodput = line × payload / (payload + headers) = ' + P(l.line_gbps) + ' Gb/s × ' + P(l.payload_bytes) +
      ' / (' + P(l.payload_bytes) + ' + ' + P(l.overhead_bytes) + ') = ' + G(l.goodput_gbps) : null;
  }

  const ALG = { ring: 'ring', tree: 'tree', sharp: 'SHARP' };

  function sci(v) {
    return typeof v === 'number' ? v.toExponential(3).replace('e+', ' × 10^') : fmtValue('', v);
  }

  /* An assumption's value from the document's assumptions list. */
  function assumed(d, name) {
    const a = Array.isArray(d.assumptions) ? d.assumptions.find((x) => x && x.name === name) : null;
    return a ? a.value : null;
  }

  function stepJob(d) {
    return (d.model || P(d.params / 1e9) + ' B parameters') + ', ' + d.phase + (d.adapters ? ' (adapters)' : '') +
      (d.parallel ? ', ' + d.parallel : '') + ' on ' + d.nodes + ' × ' + d.gpus_per_node + ' ' + d.gpu +
      (d.tp * d.pp * d.ep > 1 ? ', TP ' + d.tp + ' × PP ' + d.pp + ' × EP ' + d.ep : '') + ', ' + P(d.tokens) + ' tokens per step';
  }

  function stepAnswer(d) {
    const head = 'A ' + d.phase + ' step computes ' + fmtSeconds(d.compute_s);
    if (!Array.isArray(d.traffic) || !d.traffic.length) return head + '; no traffic crosses the network';
    if (typeof d.node_gbps !== 'number') {
      return head + ' and sends ' + fmtValue('bytes_per_node_gb', d.bytes_per_node_gb) + ' per node' +
        (d.need_gbps > 0 ? ': ' + G(d.need_gbps) + ' per node hides it' : ': no rate hides it');
    }
    return head + ' and communicates ' + fmtSeconds(d.comm_s) + ' over ' + G(d.node_gbps) + ' per node: ' +
      (d.hides ? 'the network hides under the compute' : 'the GPUs stall ' + fmtSeconds(d.stall_s) + ' per step');
  }

  const CALC_VIEWS = {
    pcie: { keys: ['gen', 'width', 'gts', 'encoding', 'signal_gbps', 'raw_gbps', 'write_gbps', 'read_gbps', 'effective_gbps', 'effective_gBps'],
      answer: (d) => 'PCIe Gen' + d.gen + ' x' + d.width + ' moves ' + G(d.effective_gbps) + ' (' + fmtValue('_gBps', d.effective_gBps) + ') each way',
      rows: (d) => [['Signalling', d.gts + ' GT/s × ' + d.width + ' lanes = ' + G(d.signal_gbps)], ['Raw', G(d.raw_gbps)],
        ['Writes', G(d.write_gbps)], ['Reads', G(d.read_gbps)], ['Effective', G(d.effective_gbps)]],
      formula: (d) => ['raw = GT/s × lanes × line code = ' + d.gts + ' × ' + d.width + ' × ' + P(d.encoding) + ' = ' + G(d.raw_gbps),
        'writes = raw × payload / (payload + headers + framing + DLLPs); reads likewise per completion',
        'effective = min(writes, reads) = ' + G(d.effective_gbps)] },
    link: { keys: ['proto', 'ib_rate', 'line_gbps', 'payload_bytes', 'overhead_bytes', 'efficiency', 'goodput_gbps', 'goodput_gBps'],
      answer: (d) => 'A ' + G(d.line_gbps) + ' link carries ' + G(d.goodput_gbps) + ' of ' + (PROTO[d.proto] || d.proto) + ' payload',
      rows: (d) => [['Protocol', (PROTO[d.proto] || d.proto) + (d.ib_rate ? ' (' + d.ib_rate + ')' : '')]].concat(linkRows(d)),
      formula: (d) => [linkFormula(d)] },
    nic: { keys: ['part', 'name', 'card_from', 'slot', 'link', 'pcie_links', 'ports', 'proto', 'port_line_gbps', 'port_gbps', 'ports_gbps',
      'pcie_gbps', 'effective_gbps', 'per_port_gbps', 'limited_by', 'idle_gbps', 'pcie'],
      answer: (d) => h('span', null, h('code', { class: 'partno', text: d.part }),
        (d.pcie_links > 1 ? ' with both links in ' + d.slot + ' slots delivers ' : ' in a ' + d.link + ' slot delivers ') +
        G(d.effective_gbps) + (d.limited_by ? ', limited by ' + (d.limited_by === 'pcie' ? (d.pcie_links > 1 ? 'the slots' : 'the slot') :
        d.limited_by === 'card' ? 'the card\'s own total' : 'its ports') : '')),
      rows: (d) => [['Card', d.name || d.part], ['Ports', d.ports + ' × ' + G(d.port_line_gbps) + ' (' + G(d.port_gbps) + ' of ' +
        (PROTO[d.proto] || d.proto) + ' each)'], ['Ports in all', G(d.ports_gbps)], ['Slot (' + d.link + ')', G(d.pcie_gbps)],
        ['Delivers', G(d.effective_gbps)], ['Per port', G(d.per_port_gbps)], ['Left idle', G(d.idle_gbps)]],
      formula: (d) => ['delivers = min(ports × port goodput, slot) = min(' + d.ports + ' × ' + P(d.port_gbps) + ', ' +
        P(d.pcie_gbps) + ') = ' + G(d.effective_gbps)] },
    load: { keys: ['size_gb', 'seconds', 'bottleneck', 'rate_gbps', 'rate_gBps', 'network_gbps', 'storage_gbps', 'link'],
      answer: (d) => fmtValue('size_gb', d.size_gb) + ' loads in ' + fmtSeconds(d.seconds) + ' (' + d.bottleneck + '-bound)',
      rows: (d) => [['Size', fmtValue('size_gb', d.size_gb)], ['Network', G(d.network_gbps)],
        ['Storage', d.storage_gbps === null ? 'keeps up' : G(d.storage_gbps)], ['Rate', G(d.rate_gbps) + ' = ' + fmtValue('_gBps', d.rate_gBps)],
        ['Time', fmtSeconds(d.seconds)]].concat(linkRows(d.link)),
      formula: (d) => ['time = size × 8 / min(network, storage) = ' + P(d.size_gb) + ' GB × 8 / ' + G(d.rate_gbps) + ' = ' + fmtSeconds(d.seconds),
        linkFormula(d.link)] },
    fit: { keys: ['model', 'params', 'precision', 'bits_per_param', 'weights_gb', 'kv_bytes_per_token', 'context', 'concurrency',
      'kv_cache_gb', 'total_gb', 'gpus', 'gpu', 'gpu_memory_gb', 'capacity_gb', 'fits', 'gpus_needed'],
      answer: (d) => (d.model || P(d.params / 1e9) + ' B parameters') + (d.fits ? ' fits in ' : ' does not fit in ') + d.gpus + ' × ' +
        d.gpu + ': it needs ' + fmtValue('total_gb', d.total_gb) + ' of ' + fmtValue('capacity_gb', d.capacity_gb) +
        (d.gpus_needed ? ' (' + d.gpus_needed + ' GPU' + (d.gpus_needed === 1 ? '' : 's') + ' would do)' : ''),
      rows: (d) => [['Parameters', P(d.params / 1e9) + ' B at ' + d.precision + ' (' + P(d.bits_per_param) + ' bits each)'],
        ['Weights', fmtValue('weights_gb', d.weights_gb)], ['KV cache', fmtValue('kv_cache_gb', d.kv_cache_gb) + ' (' + P(d.context) +
        ' tokens × ' + d.concurrency + ' request' + (d.concurrency === 1 ? '' : 's') + ')'], ['Needs', fmtValue('total_gb', d.total_gb)],
        ['GPU memory', d.gpus + ' × ' + fmtValue('gpu_memory_gb', d.gpu_memory_gb)], ['Usable', fmtValue('capacity_gb', d.capacity_gb)],
        ['Fits', d.fits ? 'yes' : 'no']],
      formula: (d) => ['weights = parameters × bits / 8 = ' + P(d.params / 1e9) + ' B × ' + P(d.bits_per_param) + ' / 8 = ' + fmtValue('weights_gb', d.weights_gb),
        'KV cache = bytes per token × context × requests = ' + P(d.kv_bytes_per_token) + ' B × ' + P(d.context) + ' × ' + d.concurrency +
        ' = ' + fmtValue('kv_cache_gb', d.kv_cache_gb),
        'needs = weights + KV cache = ' + fmtValue('total_gb', d.total_gb) + (d.fits ? ' ≤ ' : ' > ') + fmtValue('capacity_gb', d.capacity_gb) + ' usable'] },
    allreduce: { keys: ['size_gb', 'nodes', 'nics_per_node', 'algorithm', 'factor', 'bytes_per_node_gb', 'node_gbps', 'seconds',
      'latency_s', 'ring_s', 'tree_s', 'sharp_s', 'algbw_gbps', 'busbw_gbps', 'link'],
      answer: (d) => 'A ' + ALG[d.algorithm] + ' all-reduce of ' + fmtValue('size_gb', d.size_gb) + ' across ' + d.nodes + ' nodes takes ' +
        fmtSeconds(d.seconds),
      rows: (d) => [['Size', fmtValue('size_gb', d.size_gb)], ['Nodes', String(d.nodes)], ['NICs per node', String(d.nics_per_node)],
        ['Node rate', G(d.node_gbps)], ['Ring', fmtSeconds(d.ring_s) + ' (sends ' + fmtValue('bytes_per_node_gb', d.bytes_per_node_gb) + ' per node)'],
        ['Tree', fmtSeconds(d.tree_s)], ['SHARP', typeof d.sharp_s === 'number' ? fmtSeconds(d.sharp_s) : null],
        ['NCCL picks', ALG[d.algorithm] + ', ' + fmtSeconds(d.seconds) + ' (' + fmtSeconds(d.latency_s) + ' of it latency)'],
        ['Algorithm bandwidth', G(d.algbw_gbps)], ['Bus bandwidth', G(d.busbw_gbps)]].concat(linkRows(d.link)),
      formula: (d) => ['ring = 2 × (nodes − 1) / nodes × size × 8 / node rate + 2 × (nodes − 1) × latency = 2 × ' + (d.nodes - 1) + ' / ' +
        d.nodes + ' × ' + P(d.size_gb) + ' GB × 8 / ' + G(d.node_gbps) + ' + ' + 2 * (d.nodes - 1) + ' × ' + P(assumed(d, 'latency_us')) + ' µs = ' + fmtSeconds(d.ring_s),
        'tree = size × 8 / (0.9 × 0.5 × node rate) + 2 × ⌈log2 nodes⌉ × latency = ' + fmtSeconds(d.tree_s),
        typeof d.sharp_s === 'number' ? 'SHARP = size × 8 / (0.9 × node rate) + 2 × latency = ' + fmtSeconds(d.sharp_s) : null,
        'NCCL takes the least (its tuning model, src/graph/tuning.cc): ' + ALG[d.algorithm] + ' = ' + fmtSeconds(d.seconds), linkFormula(d.link)] },
    step: { keys: ['model', 'params', 'gpu', 'nodes', 'gpus_per_node', 'gpus', 'precision', 'compute_precision', 'phase', 'adapters',
      'parallel', 'tp', 'pp', 'ep', 'tokens', 'trainable_params', 'flops', 'tflops_per_gpu', 'compute_s', 'memory_bound',
      'bytes_per_node_gb', 'traffic', 'node_gbps', 'comm_s', 'hidden_s', 'stall_s', 'step_s', 'compute_comm_ratio', 'hides',
      'need_gbps', 'algorithm', 'disaggregated', 'kv_transfer', 'pools'],
      answer: (d) => stepAnswer(d),
      rows: (d) => [['Job', stepJob(d)], ['Compute', fmtSeconds(d.compute_s) + (d.memory_bound ? ' (the weight read from GPU memory sets it)' : '')]]
        .concat((Array.isArray(d.traffic) ? d.traffic : []).map((t) => [t.name, fmtValue('_gb', t.gb_per_node) + ' per node per step']))
        .concat(d.kv_transfer ? [['KV cache per request', fmtValue('_gb', d.kv_transfer.gb_per_request)],
          ['KV rate per prefill node', G(d.kv_transfer.node_gbps)],
          ['One request over one rail', typeof d.kv_transfer.one_rail_s === 'number' ? fmtSeconds(d.kv_transfer.one_rail_s) + ', ' +
            fmtSeconds(d.kv_transfer.all_rails_s) + ' over ' + d.kv_transfer.rails : null]] : [])
        .concat(d.pools ? [['Prefill server', P(d.pools.prefill_server_requests_per_s) + ' requests/s'],
          ['Decode server', P(d.pools.decode_server_requests_per_s) + ' requests/s (' + P(d.pools.decode_batch) + ' sequences, ' + fmtSeconds(d.pools.decode_step_s) + ' a step)'],
          ['For the target', typeof d.pools.prefill_servers === 'number' ? d.pools.prefill_servers + ' prefill + ' + d.pools.decode_servers + ' decode servers' : null]] : [])
        .concat([['Sent per node', fmtValue('bytes_per_node_gb', d.bytes_per_node_gb)], ['Node rate', typeof d.node_gbps === 'number' ? G(d.node_gbps) : null],
          ['Communication', typeof d.node_gbps === 'number' ? fmtSeconds(d.comm_s) + (d.algorithm ? ' (' + ALG[d.algorithm] + ')' : '') : null],
          ['Hides under', typeof d.hidden_s === 'number' ? fmtSeconds(d.hidden_s) : null],
          ['GPUs wait', typeof d.node_gbps === 'number' ? fmtSeconds(d.stall_s || 0) + ' per step' : null],
          ['Hiding it takes', !Array.isArray(d.traffic) || !d.traffic.length ? null : d.need_gbps > 0 ? G(d.need_gbps) + ' per node'
            : 'no rate: the latency alone exceeds the overlap']]),
      formula: (d) => ['compute = FLOPs / (GPUs × TFLOPS × MFU) = ' + sci(d.flops) + ' / (' + d.gpus + ' × ' + P(d.tflops_per_gpu) + ' × ' +
        P(assumed(d, 'mfu')) + ') = ' + fmtSeconds(d.compute_s)]
        .concat((Array.isArray(d.traffic) ? d.traffic : []).map((t) => t.name + ' = ' + t.formula + ' = ' + fmtValue('_gb', t.gb_per_node)))
        .concat(typeof d.node_gbps === 'number' ? ['communication = sent × 8 / node rate + latencies = ' + P(d.bytes_per_node_gb) + ' GB × 8 / ' +
          G(d.node_gbps) + ' + latencies = ' + fmtSeconds(d.comm_s),
          'hides when communication ≤ overlap × compute = ' + P(assumed(d, 'overlap')) + ' × ' + fmtSeconds(d.compute_s) + ' = ' +
          fmtSeconds(d.hidden_s) + ': ' + (d.hides ? 'it hides' : 'the GPUs stall')] : ['give a link to time the traffic']) },
    stream: { keys: ['tokens_per_s', 'concurrency', 'bytes_per_token', 'per_request_kBps', 'total_mbps', 'link_share'],
      answer: (d) => P(d.tokens_per_s) + ' tokens/s to ' + d.concurrency + ' stream' + (d.concurrency === 1 ? '' : 's') + ' need ' + P(d.total_mbps) + ' Mb/s' +
        (typeof d.link_share === 'number' ? ' (' + P(d.link_share * 100) + ' % of the link)' : ''),
      rows: (d) => [['Tokens per second', P(d.tokens_per_s)], ['Streams', String(d.concurrency)], ['Bytes per token', P(d.bytes_per_token) + ' B'],
        ['Per stream', P(d.per_request_kBps) + ' kB/s'], ['In all', P(d.total_mbps) + ' Mb/s']],
      formula: (d) => ['rate = tokens/s × bytes per token × 8 = ' + P(d.tokens_per_s) + ' × ' + P(d.bytes_per_token) + ' B × 8 = ' + P(d.total_mbps) + ' Mb/s'] },
  };

  function rowsTable(rows) {
    return h('div', { class: 'table-wrap' }, h('table', { class: 'answer-table' }, h('tbody', null,
      rows.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) =>
        h('tr', null, h('th', { scope: 'row', text: k }), h('td', null, typeof v === 'string' ? partText(v) : v))))));
  }

  function renderCalc(doc) {
    const name = String(doc.schema || '').replace(/^nicfit\.calc\.|\.v1$/g, '');
    const view = CALC_VIEWS[name];
    const out = [];
    if (view) {
      out.push(h('div', { class: 'verdict' }, h('h2', { class: 'headline answer' }, view.answer(doc))));
      out.push(section('The figures', rowsTable(view.rows(doc)),
        h('p', { class: 'formula' }, view.formula(doc).filter(Boolean).join('\n'))));
      out.push(more(doc, view.keys.concat(['assumptions'])));
    } else {
      out.push(section('Result', facts(doc, ['schema', 'assumptions'])));
    }
    if (Array.isArray(doc.assumptions) && doc.assumptions.length) out.push(assumptionsBlock(doc.assumptions));
    return out;
  }

  /* ---- the API ---- */

  async function call(method, path, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, opts);
    } catch (e) {
      return { ok: false, status: 0, doc: { error: 'the server did not answer (' + e.message + ')' } };
    }
    let doc;
    try {
      doc = await r.json();
    } catch (e) {
      doc = { error: 'HTTP ' + r.status + ' with an answer that is not JSON' };
    }
    if (!r.ok && (!doc || typeof doc.error !== 'string')) doc = { error: 'HTTP ' + r.status };
    return { ok: r.ok, status: r.status, doc };
  }

  async function picture(tab, path, spec, seq) {
    const fig = document.getElementById(tab + '-picture');
    if (!fig) return;
    let r;
    try {
      r = await fetch(path + '?format=svg', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(spec) });
    } catch (e) {
      return;
    }
    const type = r.headers.get('Content-Type') || '';
    if (!r.ok || !type.startsWith('image/svg+xml') || seq !== state.seq[tab]) return;
    const blob = await r.blob();
    if (!blob.size || seq !== state.seq[tab]) return;
    if (state.pictures[tab]) URL.revokeObjectURL(state.pictures[tab]);
    state.pictures[tab] = URL.createObjectURL(blob);
    const img = fig.querySelector('img');
    img.onload = () => scrollers(fig.parentElement);
    img.src = state.pictures[tab];
    fig.hidden = false;
  }

  /* ---- forms and the address ---- */

  function formOf(tab) {
    return document.getElementById(tab + '-form');
  }

  function specOf(form) {
    const spec = {};
    for (const el of form.elements) {
      if (!el.name || el.disabled) continue;
      if (el.type === 'checkbox') {
        /* data-off: a box whose default is on for some requests says so when unticked */
        if (el.checked) spec[el.name] = 'true';
        else if (el.dataset.off) spec[el.name] = el.dataset.off;
        continue;
      }
      const v = String(el.value || '').trim();
      if (v !== '') spec[el.name] = v;
    }
    return spec;
  }

  /* [label, shown value] of every filled field, for the printed quote. */
  function inputsOf(form) {
    const rows = [];
    for (const el of form.elements) {
      if (!el.name || el.disabled) continue;
      let v;
      if (el.type === 'checkbox') v = el.checked ? 'yes' : '';
      else if (el.tagName === 'SELECT') v = el.value ? el.options[el.selectedIndex].text : '';
      else v = String(el.value || '').trim();
      if (!v) continue;
      const lab = el.closest('label');
      const name = lab ? (lab.firstChild && lab.firstChild.nodeType === 3 ? lab.firstChild.textContent.trim() : lab.textContent.trim()) : el.name;
      rows.push([name || el.name, v]);
    }
    return rows;
  }

  function setAddress(tab, spec, push) {
    const q = new URLSearchParams(spec).toString();
    const url = '/' + tab + (q ? '?' + q : '');
    state.queries[tab] = q;
    if (location.pathname + location.search === url) return;
    if (push) history.pushState({ tab }, '', url);
    else history.replaceState({ tab }, '', url);
  }

  /* Put a value into a field, adding the option when a select lacks it. */
  function setField(el, value) {
    if (el.type === 'checkbox') {
      el.checked = value === 'true' || value === '1' || value === 'yes' || value === 'on';
      return;
    }
    if (el.tagName === 'SELECT' && value !== '' && ![...el.options].some((o) => o.value === value)) {
      el.append(h('option', { value, text: value + ' (not in the catalog)' }));
    }
    el.value = value;
  }

  /* Settings in the address that the form has no field for: kept and sent. */
  function setExtras(form, params) {
    const box = form.querySelector('.extras') || h('div', { class: 'extras' });
    clear(box);
    for (const [k, v] of params) {
      if (form.elements.namedItem(k) && !form.elements.namedItem(k).dataset.extra) continue;
      const input = h('input', { type: 'hidden', name: k, value: v, 'data-extra': '1' });
      const chip = h('span', { class: 'chip' }, input, k + ' = ' + v, ' ',
        h('button', { type: 'button', class: 'x', 'aria-label': 'remove ' + k, text: '×' }));
      chip.querySelector('button').addEventListener('click', () => {
        chip.remove();
        run(form.dataset.tab, true);
      });
      box.append(chip);
    }
    if (box.childNodes.length) {
      box.prepend(h('p', { class: 'hint', text: 'More settings from the link:' }));
      const actions = form.querySelector('.actions');
      form.insertBefore(box, actions);
    } else {
      box.remove();
    }
  }

  /* The cluster takes a switch or a radix, and a node count or a GPU count, not both. */
  function syncCluster() {
    const f = formOf('cluster').elements;
    f.radix.disabled = !!f.switch.value;
    /* a link that gave both is sent as it is, and refused as the command line refuses it */
    f.nodes.disabled = !!f.gpus.value && !state.bothCounts;
  }

  /* The catalog's baseboard of a server (HGX, DGX, rack-scale trays): its GPU and positions, or null. */
  function baseboardOf(id) {
    const sv = ((state.catalog && state.catalog.servers) || []).find((s) => s.id === id);
    if (!sv || !sv.baseboard_gpu) return null;
    const n = (sv.slots || []).filter((s) => s.gpu === 'baseboard' || s.kind === 'baseboard').length;
    return { gpu: sv.baseboard_gpu, count: n };
  }

  /*
   * A baseboard server comes with its GPUs: the GPU and the count are the
   * catalog's, shown and locked (disabled fields are not sent, and the plan
   * takes the baseboard's GPUs by default), so the form cannot ask a DGX
   * for a PCIe GPU or for two of its eight.
   */
  function syncBaseboard() {
    const f = formOf('plan').elements;
    const note = document.getElementById('plan-baseboard');
    const bb = baseboardOf(f.server.value);
    if (bb && !f.gpu.disabled) state.unlocked = { gpu: f.gpu.value, count: f.gpus_per_server.value };
    if (!bb && f.gpu.disabled && state.unlocked) {
      /* back to a server with PCIe slots: the GPU and count asked before the baseboard */
      setField(f.gpu, state.unlocked.gpu);
      f.gpus_per_server.value = state.unlocked.count;
    }
    f.gpu.disabled = !!bb;
    f.gpus_per_server.disabled = !!bb;
    note.hidden = !bb;
    if (!bb) return;
    setField(f.gpu, bb.gpu);
    if (bb.count) f.gpus_per_server.value = String(bb.count);
    const sel = f.gpu.options[f.gpu.selectedIndex];
    note.textContent = 'This server comes with ' + (bb.count ? bb.count + ' × ' : '') +
      (sel ? sel.text : bb.gpu) + ' on its baseboard: the plan uses them.';
  }

  function fillForm(tab, params) {
    const form = formOf(tab);
    if (tab === 'calc') {
      const name = params.get('calc');
      if (name && CALCS[name]) form.elements.calc.value = name;
      calcFields();
    }
    if (tab === 'plan') {
      /* the link's settings first; syncBaseboard() then locks what the server sets */
      form.elements.gpu.disabled = false;
      form.elements.gpus_per_server.disabled = false;
      state.unlocked = null;
    }
    const seen = new URLSearchParams();
    for (const [k, v] of params) {
      const el = form.elements.namedItem(k);
      if (el && !(el instanceof RadioNodeList) && !el.dataset.extra) setField(el, v);
      else seen.append(k, v);
    }
    for (const el of form.querySelectorAll('input[type=checkbox]')) {
      if (params.toString() && !params.has(el.name)) el.checked = false;
    }
    setExtras(form, seen);
    if (tab === 'cluster' && params.has('gpus') && !params.has('nodes')) form.elements.nodes.value = '';
    if (tab === 'cluster') {
      state.bothCounts = !!(params.get('gpus') && params.get('nodes'));
      syncCluster();
    }
    if (tab === 'plan') syncBaseboard();
  }

  /* ---- errors beside their field, and what the live region says ---- */

  /* "body:1:42: servers: '0': out of range" names its field after the position. */
  function errorField(form, msg) {
    const m = /^(?:[^:\s]+(?::\d+:\d+)?: )?([a-z_]+): /.exec(msg || '');
    const el = m && form.elements.namedItem(m[1]);
    return el && !(el instanceof RadioNodeList) && el.type !== 'hidden' ? el : null;
  }

  function errorText(msg) {
    return String(msg || '').replace(/^[^:\s]+:\d+:\d+: /, '').replace(/^body: /, '');
  }

  function clearFieldErrors(form) {
    for (const el of form.querySelectorAll('[aria-invalid]')) {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
    for (const p of form.querySelectorAll('.field-error')) p.remove();
  }

  function markField(el, text) {
    if (!el.id) el.id = el.form.id + '-' + el.name;
    const msg = h('p', { class: 'field-error', id: el.id + '-error', text });
    el.setAttribute('aria-invalid', 'true');
    el.setAttribute('aria-describedby', msg.id);
    el.after(msg);
    const box = el.closest('details');
    if (box) box.open = true;
  }

  /* A box that scrolls sideways (a wide table on a phone) takes the focus, so
   * keyboard users can scroll it too, and is named by its section's heading. */
  function scrollers(root) {
    for (const box of root.querySelectorAll('.table-wrap, .picture, pre, .formula')) {
      if (box.scrollWidth > box.clientWidth + 1) {
        const head = box.closest('section, details, figure');
        const hd = head && head.querySelector('h3, summary');
        box.setAttribute('tabindex', '0');
        box.setAttribute('role', 'region');
        box.setAttribute('aria-label', (hd ? hd.textContent : 'table') + ' (scrolls sideways)');
      } else if (box.getAttribute('role') === 'region') {
        box.removeAttribute('tabindex');
        box.removeAttribute('role');
        box.removeAttribute('aria-label');
      }
    }
  }

  /* The live region reads the answer's headline and its counts, not the whole report. */
  function summaryOf(out) {
    const head = out.querySelector('.headline');
    const badges = [...out.querySelectorAll('.verdict .badge')].map((b) => b.textContent);
    return (head ? head.textContent : 'Answer ready') + (badges.length ? ' (' + badges.join(', ') + ')' : '');
  }

  function announce(text) {
    const st = document.getElementById('status');
    st.textContent = text.length > 400 ? text.slice(0, 400) + '…' : text;
  }

  /* Open "More options" when the link set one of them, and say how many are set. */
  function syncAdvanced(form) {
    const box = form.querySelector('details.advanced');
    if (!box) return;
    let n = 0;
    for (const el of box.querySelectorAll('input, select')) {
      if (el.disabled) continue;
      if (el.type === 'checkbox' ? el.checked : String(el.value || '') !== '') n++;
    }
    box.querySelector('summary').textContent = 'More options' + (n ? ' (' + n + ' set)' : '');
    if (n) box.open = true;
  }

  /* The case menu names the example whose settings the form holds. */
  function isDefault(form, key, value) {
    const el = form.elements.namedItem(key);
    if (!el || el instanceof RadioNodeList) return false;
    if (el.tagName === 'SELECT') {
      const d = [...el.options].find((o) => o.defaultSelected) || el.options[0];
      return !!d && d.value === value;
    }
    return el.defaultValue === value;
  }

  function syncExample(form, spec) {
    const sel = document.getElementById('plan-examples');
    if (sel.value) return;
    const x = (state.examples || []).find((e) => {
      const es = e.spec || {};
      return Object.keys(es).every((k) => String(es[k]) === spec[k]) &&
        Object.keys(spec).every((k) => k in es || isDefault(form, k, spec[k]));
    });
    if (x) sel.value = x.name;
  }

  /* ---- running a tab ---- */

  async function run(tab, push) {
    const form = formOf(tab);
    const out = document.getElementById(tab + '-result');
    if (tab === 'cluster') syncCluster();
    const spec = specOf(form);
    const seq = (state.seq[tab] || 0) + 1;
    state.seq[tab] = seq;
    setAddress(tab, spec, push);
    if (tab === 'plan') syncExample(form, spec);
    syncAdvanced(form);
    out.classList.add('busy');
    let res;
    let body = spec;
    if (tab === 'decode') {
      res = await call('GET', '/api/decode/' + encodeURIComponent(spec.part || ''));
    } else if (tab === 'calc') {
      body = Object.assign({}, spec);
      delete body.calc;
      res = await call('POST', '/api/calc/' + encodeURIComponent(spec.calc || 'pcie'), body);
    } else {
      res = await call('POST', form.dataset.api, spec);
    }
    if (seq !== state.seq[tab]) return;
    out.classList.remove('busy');
    clear(out);
    clearFieldErrors(form);
    if (!res.ok) {
      const field = tab === 'decode' ? form.elements.part : errorField(form, res.doc.error);
      if (res.status === 404 && tab !== 'decode' && /no such|nothing at/.test(res.doc.error)) {
        out.append(errorBox('this server does not answer ' + tab + ' yet (' + res.doc.error + ')'));
      } else if (field) {
        markField(field, errorText(res.doc.error));
        out.append(errorBox(h('a', { href: '#' + field.id, 'data-focus': field.id, text: fieldLabel(field) }), ': see the message beside the field.'));
      } else {
        out.append(errorBox(res.doc.error));
      }
      announce('Cannot answer: ' + (field ? fieldLabel(field) + ': ' : '') + errorText(res.doc.error));
      state.docs[tab] = null;
      return;
    }
    state.docs[tab] = res.doc;
    const parts = tab === 'plan' ? renderPlan(res.doc, inputsOf(form))
      : tab === 'cluster' ? renderCluster(res.doc, inputsOf(form))
        : tab === 'decode' ? renderDecode(res.doc) : renderCalc(res.doc);
    out.append(...parts.filter(Boolean));
    announce(summaryOf(out));
    scrollers(out);
    out.append(h('p', { class: 'downloads' }, 'Download: ',
      h('a', { href: '#', 'data-download': 'json', text: 'JSON' }), ' · ',
      tab === 'plan' || tab === 'cluster' ? h('a', { href: '#', 'data-download': 'md', text: 'Markdown' }) : null,
      tab === 'plan' || tab === 'cluster' ? ' · ' : null,
      h('a', { href: '#', 'data-download': 'text', text: 'text' }),
      /* a back end to accept: the day-1 runbook of this plan (POST /api/accept) */
      tab === 'plan' && res.doc.backend && res.doc.backend.needed ? ' · ' : null,
      tab === 'plan' && res.doc.backend && res.doc.backend.needed
        ? h('a', { href: '#', 'data-download': 'accept', text: 'acceptance runbook' }) : null));
    /* the runbook's outputs, judged by the server as nicfit accept --results judges a directory */
    if (tab === 'plan' && res.doc.backend && res.doc.backend.needed) {
      out.append(h('p', { class: 'accept-upload' },
        h('label', null, 'Judge the acceptance results: ',
          h('input', { type: 'file', multiple: true, accept: '.txt', 'data-accept-results': 'plan' })),
        ' the NAME.txt files the runbook\'s script kept (up to the server\'s upload limit, 1 MiB by default)'),
      h('pre', { class: 'accept-report', id: 'plan-accept-report', hidden: true }));
    }
    if (tab === 'plan' || tab === 'cluster') picture(tab, form.dataset.api, spec, seq);
  }

  /* Upload the chosen result files with the plan's spec; show the judged report as text. */
  async function judgeResults(tab, input) {
    const report = document.getElementById(tab + '-accept-report');
    const files = Array.from(input.files || []).filter((f) => /\.txt$/.test(f.name) && !/\.server\.txt$/.test(f.name));
    const results = {};
    for (const f of files) results[f.name] = await f.text();
    const body = JSON.stringify({ spec: specOf(formOf(tab)), results: results });
    report.hidden = false;
    report.classList.add('busy');
    let text;
    try {
      const r = await fetch('/api/accept/results?format=text', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body });
      text = await r.text();
      if (!r.ok) {
        let msg = text;
        try { msg = JSON.parse(text).error; } catch (e) { /* the server's text as it came */ }
        text = 'Cannot judge them: ' + msg + (r.status === 413
          ? ' (judge the folder with nicfit accept ... --results DIR instead)' : '');
      }
    } catch (e) {
      text = 'Cannot judge them: ' + e.message;
    }
    report.classList.remove('busy');
    report.textContent = text;
    announce(text.split('\n')[0]);
  }

  async function download(tab, fmt) {
    const form = formOf(tab);
    const spec = specOf(form);
    let path;
    let opts;
    if (tab === 'decode') {
      path = '/api/decode/' + encodeURIComponent(spec.part || '') + '?format=' + fmt;
      opts = {};
    } else if (fmt === 'accept') {
      path = '/api/accept?format=md';
      opts = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) };
    } else {
      const body = Object.assign({}, spec);
      delete body.calc;
      path = (tab === 'calc' ? '/api/calc/' + encodeURIComponent(spec.calc) : form.dataset.api) + '?format=' + fmt +
        (fmt === 'json' ? '&pretty=1' : '');
      opts = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    }
    const r = await fetch(path, opts);
    if (!r.ok) return;
    const blob = await r.blob();
    const name = fmt === 'accept' ? 'nicfit-accept.md'
      : 'nicfit-' + tab + (fmt === 'json' ? '.json' : fmt === 'md' ? '.md' : '.txt');
    const a = h('a', { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  /* ---- calculators: fields per formula ---- */

  function calcFields() {
    const form = formOf('calc');
    const name = form.elements.calc.value || 'pcie';
    const def = CALCS[name];
    const box = clear(document.getElementById('calc-fields'));
    document.getElementById('calc-about').textContent = def.about;
    for (const [key, text, kind, dflt] of def.fields) {
      let input;
      if (kind.startsWith('select:')) {
        input = h('select', { name: key }, kind.slice(7).split(',').map((o) => h('option', { value: o, text: o || '(default)' })));
      } else if (kind.startsWith('catalog:')) {
        input = h('select', { name: key, 'data-catalog': kind.slice(8), 'data-empty': '(none)' });
        fillSelect(input);
      } else {
        input = h('input', { name: key, type: kind === 'number' ? 'number' : 'text', step: kind === 'number' ? 'any' : null,
          spellcheck: 'false' });
      }
      input.value = dflt;
      box.append(h('label', null, text, input));
    }
  }

  /* ---- the catalog in the selects ---- */

  function optionText(kind, e) {
    if (kind === 'gpus' && e.memory_gib) return e.name + ' (' + e.memory_gib + ' GiB)';
    if (kind === 'models' && e.params) return e.name + ' (' + num.format(e.params / 1e9) + ' B)';
    if (kind === 'servers' && e.pcie_gen) return e.name + ' · PCIe Gen' + e.pcie_gen;
    return e.name || e.id;
  }

  /* Servers and GPUs in groups by vendor, then PCIe generation ("Dell · PCIe Gen4"). */
  function groupOf(kind, e) {
    if ((kind !== 'servers' && kind !== 'gpus') || !e.vendor) return null;
    return e.vendor + (e.pcie_gen ? ' · PCIe Gen' + e.pcie_gen : '');
  }

  function fillSelect(sel) {
    const kind = sel.dataset.catalog;
    const list = state.catalog && Array.isArray(state.catalog[kind]) ? state.catalog[kind] : [];
    const keep = sel.value;
    clear(sel);
    if (sel.dataset.empty) sel.append(h('option', { value: '', text: sel.dataset.empty }));
    const grouped = list.some((e) => groupOf(kind, e));
    const sorted = grouped ? [...list].sort((a, b) =>
      (a.vendor || '').localeCompare(b.vendor || '') || (a.pcie_gen || 0) - (b.pcie_gen || 0) ||
      (a.name || a.id).localeCompare(b.name || b.id)) : list;
    const groups = new Map();
    for (const e of sorted) {
      const opt = h('option', { value: e.id, text: optionText(kind, e) });
      const g = groupOf(kind, e);
      if (!g) { sel.append(opt); continue; }
      if (!groups.has(g)) sel.append(groups.set(g, h('optgroup', { label: g })).get(g));
      groups.get(g).append(opt);
    }
    /* the planner's default server, as the command line's */
    if (!keep && kind === 'servers' && !sel.dataset.empty && list.some((e) => e.id === 'generic-gen4')) sel.value = 'generic-gen4';
    if (keep) setField(sel, keep);
  }

  async function loadExamples() {
    const res = await call('GET', '/api/plan/examples');
    state.examples = res.ok && Array.isArray(res.doc.examples) ? res.doc.examples : [];
    const sel = document.getElementById('plan-examples');
    /* the server wrote the link's example as an option of its own: the list replaces it */
    for (const o of [...sel.options]) if (o.value) o.remove();
    for (const x of state.examples) sel.append(h('option', { value: x.name, text: x.title }));
    sel.addEventListener('change', () => {
      const x = state.examples.find((e) => e.name === sel.value);
      if (x) open('plan', new URLSearchParams(x.spec), true);
    });
  }

  function exampleLink(x) {
    return h('a', { href: '/plan?' + new URLSearchParams(x.spec).toString(), text: x.title });
  }

  async function loadCatalog() {
    const res = await call('GET', '/api/catalog');
    if (res.ok) state.catalog = res.doc;
    for (const sel of document.querySelectorAll('select[data-catalog]')) fillSelect(sel);
    syncBaseboard();
    const dl = document.getElementById('part-list');
    for (const n of (state.catalog && state.catalog.nics) || []) {
      dl.append(h('option', { value: n.part || n.id, text: n.name || '' }));
    }
    return res.ok;
  }

  /* ---- tabs ---- */

  function tabOfPath(path) {
    const t = path.replace(/^\/+|\/+$/g, '');
    return TABS.includes(t) ? t : 'plan';
  }

  function show(tab) {
    state.tab = tab;
    for (const t of TABS) {
      document.getElementById('tab-' + t).hidden = t !== tab;
      const a = document.querySelector('.tabs a[data-tab="' + t + '"]');
      if (t === tab) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    document.body.dataset.tab = tab;
  }

  function welcome(tab) {
    const out = clear(document.getElementById(tab + '-result'));
    if (tab === 'plan') {
      out.append(h('div', { class: 'welcome' },
        h('h2', { text: 'Plan the network for GPU servers' }),
        h('p', { text: 'Pick a server, its GPUs and the model you will run. nicfit says whether you need a back-end RDMA fabric, which card goes in which slot, the cables, and a priced bill of materials, with the reason for every choice.' }),
        (state.examples || []).length ? h('div', null, h('p', { text: 'Or open one of these cases:' }),
          h('ul', { class: 'cases' }, state.examples.map((x) => h('li', null, exampleLink(x))))) : null));
    } else if (tab === 'cluster') {
      out.append(h('div', { class: 'welcome' }, h('h2', { text: 'Size a cluster fabric' }),
        h('p', { text: 'Switches, tiers, ports and cables for N nodes, rail-optimized or not, with a bill of materials.' })));
    } else if (tab === 'decode') {
      out.append(h('div', { class: 'welcome' }, h('h2', { text: 'What does a part number mean?' }),
        h('p', { text: 'Type a ConnectX ordering part number (MCX…), an Intel adapter name or a catalog id: nicfit reads generation, ports, speed, PCIe and RDMA support from it.' })));
    }
  }

  function open(tab, params, push) {
    show(tab);
    /* ?example=NAME opens that case with its settings in the form. */
    const ex = tab === 'plan' && params && params.get('example');
    const x = ex && (state.examples || []).find((e) => e.name === ex);
    if (x) {
      const merged = new URLSearchParams(x.spec);
      for (const [k, v] of params) if (k !== 'example') merged.set(k, v);
      params = merged;
    }
    if (tab === 'plan') document.getElementById('plan-examples').value = x ? x.name : '';
    if (params && [...params.keys()].length) {
      fillForm(tab, params);
      run(tab, push);
    } else if (tab === 'calc') {
      if (!formOf('calc').querySelector('#calc-fields').childNodes.length) calcFields();
      run(tab, push);
    } else {
      setAddress(tab, {}, push);
      welcome(tab);
    }
  }

  /* ---- wiring ---- */

  function debounce(fn, ms) {
    let t = 0;
    return (...a) => {
      clearTimeout(t);
      t = setTimeout(() => fn(...a), ms);
    };
  }

  function wire() {
    const calcSel = formOf('calc').elements.calc;
    for (const name of Object.keys(CALCS)) calcSel.append(h('option', { value: name, text: name }));
    calcSel.addEventListener('change', () => {
      calcFields();
      run('calc', false);
    });

    for (const tab of TABS) {
      const form = formOf(tab);
      const later = debounce(() => run(tab, false), 250);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        run(tab, false);
      });
      form.addEventListener('change', (ev) => {
        if (ev.target.name === 'calc' || ev.target.id === 'plan-examples') return;
        if (tab === 'plan') document.getElementById('plan-examples').value = '';
        if (tab === 'plan' && ev.target.name === 'server') syncBaseboard();
        if (tab === 'cluster' && (ev.target.name === 'gpus' || ev.target.name === 'nodes')) state.bothCounts = false;
        if (tab === 'cluster') syncCluster();
        if (tab !== 'decode') later();
      });
      form.addEventListener('input', (ev) => {
        if (ev.target.type === 'number' && ev.target.value !== '') later();
      });
      form.addEventListener('click', async (ev) => {
        const b = ev.target.closest('button[data-action]');
        if (!b) return;
        if (b.dataset.action === 'print') {
          if (!state.docs[tab]) await run(tab, false);
          window.print();
        } else if (b.dataset.action === 'copy') {
          try {
            await navigator.clipboard.writeText(location.href);
            b.textContent = 'Link copied';
          } catch (e) {
            b.textContent = 'Copy the address bar';
          }
          setTimeout(() => { b.textContent = 'Copy link'; }, 1500);
        }
      });
      document.getElementById(tab + '-result').addEventListener('change', (ev) => {
        const input = ev.target.closest('input[data-accept-results]');
        if (!input) return;
        ev.stopPropagation(); /* a file chosen is not a change of the plan */
        judgeResults(tab, input);
      });
      document.getElementById(tab + '-result').addEventListener('click', (ev) => {
        const a = ev.target.closest('a[data-download]');
        if (a) {
          ev.preventDefault();
          download(tab, a.dataset.download);
          return;
        }
        const jump = ev.target.closest('a[href^="#"]');
        if (jump) {
          ev.preventDefault();
          const target = jump.dataset.focus ? document.getElementById(jump.dataset.focus)
            : document.querySelector(jump.getAttribute('href') + ' h3');
          if (target) {
            target.scrollIntoView({ block: 'start' });
            target.focus();
          }
          return;
        }
        const apply = ev.target.closest('button[data-apply-key]');
        if (apply) {
          const el = form.elements.namedItem(apply.dataset.applyKey);
          if (!el || el instanceof RadioNodeList) {
            const params = new URLSearchParams(specOf(form));
            params.set(apply.dataset.applyKey, apply.dataset.applyValue);
            open(tab, params, true);
            return;
          }
          if (apply.dataset.applyClear) {
            if (el.type === 'checkbox') el.checked = false;
            else el.value = '';
            if (tab === 'plan') document.getElementById('plan-examples').value = '';
            run(tab, true);
          } else if (apply.dataset.applyValue) {
            setField(el, apply.dataset.applyValue);
            if (tab === 'plan') document.getElementById('plan-examples').value = '';
            run(tab, true);
          } else {
            const box = el.closest('details');
            if (box) box.open = true;
            el.scrollIntoView({ block: 'center' });
            el.focus();
          }
          return;
        }
        const link = ev.target.closest('a[href^="/"]');
        if (link && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey) {
          ev.preventDefault();
          const u = new URL(link.href);
          open(tabOfPath(u.pathname), u.searchParams, true);
        }
      });
    }

    for (const a of document.querySelectorAll('.tabs a')) {
      a.addEventListener('click', (ev) => {
        if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
        ev.preventDefault();
        const tab = a.dataset.tab;
        if (tab === state.tab) return;
        show(tab);
        const q = state.queries[tab];
        if (q !== undefined) {
          history.pushState({ tab }, '', '/' + tab + (q ? '?' + q : ''));
          if (!document.getElementById(tab + '-result').childNodes.length) open(tab, new URLSearchParams(q), false);
        } else {
          open(tab, new URLSearchParams(), true);
        }
      });
    }

    window.addEventListener('resize', debounce(() => scrollers(document.querySelector('main')), 200));
    window.addEventListener('popstate', () => {
      open(tabOfPath(location.pathname), new URLSearchParams(location.search), false);
    });
  }

  async function start() {
    wire();
    show(tabOfPath(location.pathname));
    await Promise.all([loadCatalog(), loadExamples()]);
    open(tabOfPath(location.pathname), new URLSearchParams(location.search), false);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}());
