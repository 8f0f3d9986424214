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
    allreduce: { about: 'Time of one ring all-reduce across nodes (gradient exchange).',
      fields: [['size', 'Size (16GB)', 'text', '16GB'], ['nodes', 'Nodes', 'number', '2'], ['link', 'Link', 'text', '100G'],
        ['proto', 'Protocol', 'select:roce,ib,tcp', 'roce'], ['nics_per_node', 'NICs per node', 'number', '']] },
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
      return h('td', { class: numeric[c] ? 'num' : null,
        text: (opts.format && opts.format[c]) ? opts.format[c](v, r) : fmtValue(c, v) });
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
      dl.append(h('dt', { text: t }), h('dd', { text: fmtValue(k, v) }));
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
      box.append(h('h4', { text: label(k) }));
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

  function card(title, rows, tone) {
    const dl = h('dl', null);
    for (const [k, v] of rows) {
      if (v === null || v === undefined || v === '') continue;
      dl.append(h('dt', { text: k }), h('dd', { text: v }));
    }
    return h('div', { class: 'card' + (tone ? ' ' + tone : '') }, h('h4', { text: title }), dl);
  }

  function errorBox(msg) {
    return h('div', { class: 'error', role: 'alert' }, h('strong', { text: 'Cannot answer: ' }), msg);
  }

  /* ---- shared parts of plan and cluster ---- */

  function bomBlock(bom) {
    if (!bom || !Array.isArray(bom.lines)) return null;
    const hasRole = bom.lines.some((l) => l.role);
    const cols = ['part', 'description'].concat(hasRole ? ['role'] : [], ['qty', 'unit_usd', 'total_usd']);
    const titles = { part: 'Part', description: 'Description', role: 'For', qty: 'Qty', unit_usd: 'Unit', total_usd: 'Total' };
    const format = {
      unit_usd: (v) => (v === null || v === undefined ? 'unpriced' : usd.format(v)),
      total_usd: (v) => (v === null || v === undefined ? '—' : usd.format(v)),
      qty: (v) => fmtValue('qty', v),
    };
    const foot = h('tfoot', null, h('tr', null,
      h('th', { colspan: cols.length - 1, scope: 'row', text: 'Total (priced lines)' }),
      h('td', { class: 'num total', text: typeof bom.total_usd === 'number' ? usd.format(bom.total_usd) : '—' })));
    const notes = [];
    if (bom.prices_as_of) notes.push(h('p', { class: 'note', text: 'Prices as of ' + bom.prices_as_of + '.' }));
    const unpriced = Array.isArray(bom.unpriced) ? bom.unpriced : [];
    if (unpriced.length) {
      notes.push(h('p', { class: 'note warn' },
        unpriced.length + ' item' + (unpriced.length === 1 ? ' has' : 's have') +
        ' no sourced price and ' + (unpriced.length === 1 ? 'is' : 'are') + ' left out of the total: ',
        unpriced.map((u) => (typeof u === 'object' ? (u.part || u.id || fmtValue('', u)) : String(u))).join(', '),
        '. Add your prices with --catalog.'));
    }
    return section('Bill of materials',
      table(bom.lines, { columns: cols, titles, format, class: 'bom', foot }), notes);
  }

  function cablesBlock(cables) {
    if (!Array.isArray(cables) || !cables.length) return null;
    if (typeof cables[0] !== 'object') return section('Cables', h('ul', null, cables.map((c) => h('li', { text: String(c) }))));
    const known = ['network', 'link', 'description', 'ends', 'length_m', 'qty'];
    const cols = known.filter((k) => cables.some((c) => c[k] !== undefined));
    return section('Cables', table(cables, cols.length >= 3 ? { columns: cols,
      titles: { network: 'Network', link: 'Link', description: 'Cable', ends: 'Ends', length_m: 'Length', qty: 'Qty' } } : {}));
  }

  function decisionsBlock(decisions) {
    if (!Array.isArray(decisions) || !decisions.length) return null;
    return section('Why', h('ol', { class: 'why' }, decisions.map((d) =>
      h('li', null, h('span', { class: 'rule', text: d.rule || '' }), h('span', { text: d.text || fmtValue('', d) })))));
  }

  function findingsBlock(findings) {
    if (!Array.isArray(findings) || !findings.length) return null;
    return section('Findings', h('ul', { class: 'findings' }, findings.map((f) =>
      h('li', { class: 'sev-' + (f.severity || 'info') },
        h('span', { class: 'badge', text: f.severity || 'info' }),
        f.code ? h('code', { text: f.code }) : null,
        h('span', { text: ' ' + (f.message || '') }),
        f.fix ? h('div', { class: 'fix', text: 'Fix: ' + f.fix }) : null))));
  }

  function pictureBlock(tab) {
    return h('figure', { class: 'picture', id: tab + '-picture', hidden: true },
      h('img', { alt: tab === 'plan' ? 'Topology of the planned servers' : 'Fabric of the cluster' }));
  }

  /* Quote header and inputs, shown only when printing. */
  function printHeader(title, inputs) {
    const now = new Date();
    const rows = inputs.map(([k, v]) => h('tr', null, h('th', { scope: 'row', text: k }), h('td', { text: v })));
    return h('div', { class: 'print-only quote-head' },
      h('h1', { text: title }),
      h('p', { text: 'Prepared ' + now.toISOString().slice(0, 10) + ' with nicfit · ' + location.href }),
      h('table', { class: 'inputs-table' }, h('tbody', null, rows)));
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
    const counts = {};
    for (const x of doc.findings || []) counts[x.severity] = (counts[x.severity] || 0) + 1;
    out.push(printHeader('Network plan and quote', inputs));
    out.push(h('div', { class: 'verdict ' + (b.needed ? 'backend' : 'frontend') },
      h('p', { class: 'headline', text: planVerdict(doc) }),
      h('p', { class: 'badges' }, ['critical', 'warning', 'info'].filter((k) => counts[k]).map((k) =>
        h('span', { class: 'badge sev-' + k, text: counts[k] + ' ' + k + (counts[k] === 1 ? '' : 's') })))));

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
      out.push(section('Step time: all-reduce of ' + fmtValue('gradient_gb', ar.gradient_gb) + ' of gradients',
        table(ar.options, { columns: ['label', 'node_gbps', 'seconds'],
          titles: { label: 'Network', node_gbps: 'Per node', seconds: 'Per step' } })));
    }
    out.push(decisionsBlock(doc.decisions));
    out.push(findingsBlock(doc.findings));
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
    const out = [printHeader('Cluster fabric and quote', inputs)];
    const sw = [];
    if (doc.leaf_switches) sw.push(doc.leaf_switches + ' leaf');
    if (doc.spine_switches) sw.push(doc.spine_switches + ' spine');
    if (doc.core_switches) sw.push(doc.core_switches + ' core');
    const nodes = doc.input && doc.input.nodes;
    const head = typeof doc.verdict === 'string' && doc.verdict ? doc.verdict
      : 'Back end: ' + (doc.tiers ? doc.tiers + '-tier fabric' : 'fabric') + (sw.length ? ', ' + sw.join(' + ') + ' switches' : '') +
        (nodes ? ' for ' + nodes + ' node' + (nodes === 1 ? '' : 's') + (doc.gpus ? ' (' + doc.gpus + ' GPUs)' : '') : '') + '.';
    const counts = {};
    for (const x of doc.findings || []) counts[x.severity] = (counts[x.severity] || 0) + 1;
    out.push(h('div', { class: 'verdict backend' }, h('p', { class: 'headline', text: head }),
      h('p', { class: 'badges' }, ['critical', 'warning', 'info'].filter((k) => counts[k]).map((k) =>
        h('span', { class: 'badge sev-' + k, text: counts[k] + ' ' + k + (counts[k] === 1 ? '' : 's') })))));
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
    out.push(decisionsBlock(doc.decisions));
    out.push(findingsBlock(doc.findings));
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

  function renderDecode(doc) {
    const title = doc.summary || [doc.vendor, doc.family, doc.protocol].filter(Boolean).join(' ');
    const out = [h('div', { class: 'verdict' },
      h('p', { class: 'headline' }, h('code', { text: doc.part || '' }), ' ', title),
      h('p', { class: 'badges' },
        doc.confidence ? h('span', { class: 'badge', text: doc.confidence === 'catalog' ? 'from the catalog' : 'read by rule' }) : null,
        doc.rdma === true ? h('span', { class: 'badge sev-info', text: 'RDMA' + (Array.isArray(doc.rdma_kinds) ? ': ' + doc.rdma_kinds.join(', ') : '') }) : null,
        doc.rdma === false ? h('span', { class: 'badge sev-warning', text: 'no RDMA' }) : null))];
    if (Array.isArray(doc.reading) && doc.reading.length) {
      out.push(section('How it reads', h('div', { class: 'reading' }, doc.reading.map((r) =>
        h('div', { class: 'piece' }, h('code', { text: r.chars || '' }), h('span', { text: r.meaning || '' }))))));
    }
    out.push(section('What it is', facts(doc, ['schema', 'notes', 'part', 'reading', 'summary', 'input', 'source',
      'unverified', 'confidence', 'rdma_kinds'])));
    if (Array.isArray(doc.notes) && doc.notes.length) {
      out.push(section('Notes', h('ul', { class: 'notes' }, doc.notes.map((n) => h('li', { text: typeof n === 'string' ? n : fmtValue('', n) })))));
    }
    if (doc.source) {
      out.push(h('p', { class: 'note' }, 'Source: ' + doc.source +
        (Array.isArray(doc.unverified) && doc.unverified.length ? '. Unverified: ' + doc.unverified.join(', ') + '.' : '')));
    }
    for (const [k, v] of Object.entries(doc)) {
      if (k !== 'reading' && Array.isArray(v) && v.length && typeof v[0] === 'object') out.push(section(label(k), table(v)));
    }
    return out;
  }

  /* ---- calc ---- */

  function renderCalc(doc) {
    const out = [];
    out.push(section('Result', facts(doc, ['schema', 'assumptions'])));
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'assumptions' || !Array.isArray(v) || !v.length || typeof v[0] !== 'object') continue;
      out.push(section(label(k), table(v)));
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
    fig.querySelector('img').src = state.pictures[tab];
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
        if (el.checked) spec[el.name] = 'true';
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

  /* The cluster takes a switch or a radix, not both. */
  function syncCluster() {
    const f = formOf('cluster').elements;
    f.radix.disabled = !!f.switch.value;
  }

  function fillForm(tab, params) {
    const form = formOf(tab);
    if (tab === 'calc') {
      const name = params.get('calc');
      if (name && CALCS[name]) form.elements.calc.value = name;
      calcFields();
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
    if (tab === 'cluster') syncCluster();
  }

  /* ---- running a tab ---- */

  async function run(tab, push) {
    const form = formOf(tab);
    const out = document.getElementById(tab + '-result');
    const spec = specOf(form);
    const seq = (state.seq[tab] || 0) + 1;
    state.seq[tab] = seq;
    setAddress(tab, spec, push);
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
    if (!res.ok) {
      if (res.status === 404 && tab !== 'decode' && /no such|nothing at/.test(res.doc.error)) {
        out.append(errorBox('this server does not answer ' + tab + ' yet (' + res.doc.error + ')'));
      } else {
        out.append(errorBox(res.doc.error));
      }
      state.docs[tab] = null;
      return;
    }
    state.docs[tab] = res.doc;
    const parts = tab === 'plan' ? renderPlan(res.doc, inputsOf(form))
      : tab === 'cluster' ? renderCluster(res.doc, inputsOf(form))
        : tab === 'decode' ? renderDecode(res.doc) : renderCalc(res.doc);
    out.append(...parts.filter(Boolean));
    out.append(h('p', { class: 'downloads' }, 'Download: ',
      h('a', { href: '#', 'data-download': 'json', text: 'JSON' }), ' · ',
      tab === 'plan' || tab === 'cluster' ? h('a', { href: '#', 'data-download': 'md', text: 'Markdown' }) : null,
      tab === 'plan' || tab === 'cluster' ? ' · ' : null,
      h('a', { href: '#', 'data-download': 'text', text: 'text' })));
    if (tab === 'plan' || tab === 'cluster') picture(tab, form.dataset.api, spec, seq);
  }

  async function download(tab, fmt) {
    const form = formOf(tab);
    const spec = specOf(form);
    let path;
    let opts;
    if (tab === 'decode') {
      path = '/api/decode/' + encodeURIComponent(spec.part || '') + '?format=' + fmt;
      opts = {};
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
    const a = h('a', { href: URL.createObjectURL(blob), download: 'nicfit-' + tab + (fmt === 'json' ? '.json' : fmt === 'md' ? '.md' : '.txt') });
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

  function fillSelect(sel) {
    const kind = sel.dataset.catalog;
    const list = state.catalog && Array.isArray(state.catalog[kind]) ? state.catalog[kind] : [];
    const keep = sel.value;
    clear(sel);
    if (sel.dataset.empty) sel.append(h('option', { value: '', text: sel.dataset.empty }));
    for (const e of list) sel.append(h('option', { value: e.id, text: optionText(kind, e) }));
    if (keep) setField(sel, keep);
  }

  async function loadExamples() {
    const res = await call('GET', '/api/plan/examples');
    state.examples = res.ok && Array.isArray(res.doc.examples) ? res.doc.examples : [];
    const sel = document.getElementById('plan-examples');
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
      document.getElementById(tab + '-result').addEventListener('click', (ev) => {
        const a = ev.target.closest('a[data-download]');
        if (a) {
          ev.preventDefault();
          download(tab, a.dataset.download);
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
