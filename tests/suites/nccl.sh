#!/bin/sh
# Every NCCL environment variable nicfit tells a user about, and every value
# it suggests for one, must be one that NCCL documents: NCCL ignores a level
# it does not know (NCCL_NET_GDR_LEVEL=NODE does nothing). The lists below
# are NCCL's documentation, Environment Variables (NCCL 2.28):
# https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
# Checked: the library's, the CLI's and the web page's sources, the catalog
# data, the man pages, README and docs/ (not docs/reference/, which quotes
# NCCL's own names), and every golden output.
set -u
python3 - <<'PY'
import glob, re, sys

LEVELS = {'LOC', 'NVL', 'PIX', 'PXB', 'PHB', 'SYS'}
KNOWN = {
    'NCCL_NET_GDR_LEVEL': {'LOC', 'PIX', 'PXB', 'PHB', 'SYS'},
    'NCCL_P2P_LEVEL': LEVELS,
    'NCCL_NET_GDR_C2C': {'0', '1'},
    'NCCL_P2P_DISABLE': {'1'},
    'NCCL_DEBUG': {'VERSION', 'WARN', 'INFO', 'TRACE'},
    'NCCL_IB_GID_INDEX': None,   # an integer
    'NCCL_TOPO_FILE': None,      # a path
    'NCCL_TOPO_DUMP_FILE': None, # a path
    # verify names these when a log shows them set, and suggests a few
    'NCCL_IB_DISABLE': {'0', '1'},
    'NCCL_IB_HCA': None,         # a list of HCA names
    'NCCL_NET': None,            # "IB", "Socket" or a plugin's name
    # RoCE GID selection (since 2.21), as src/transport/net_ib/connect.cc reads them
    'NCCL_IB_ROCE_VERSION_NUM': {'1', '2'},
    'NCCL_IB_ADDR_FAMILY': {'AF_INET', 'AF_INET6'},
    'NCCL_IB_ADDR_RANGE': None,  # an address/prefix
    'NCCL_SHM_DISABLE': {'1'},
    # DMA-BUF registration of GPU memory (NCCL 2.13 on; RCCL's log names it when it is off)
    'NCCL_DMABUF_ENABLE': {'0', '1'},
    'NCCL_SOCKET_IFNAME': None,  # interface prefixes
    'NCCL_ALGO': {'Tree', 'Ring', 'CollnetDirect', 'CollnetChain', 'NVLS', 'NVLSTree', 'PAT'},
    'NCCL_PROTO': {'LL', 'LL128', 'Simple'},
    # nccl-tests' own, not NCCL's: the bound its summary line checks the average
    # against (NVIDIA/nccl-tests src/common.cu, getenv); verify names it, sets no value
    'NCCL_TESTS_MIN_BW': None,
    'NCCL_DEBUG_SUBSYS': {'INIT', 'COLL', 'P2P', 'SHM', 'NET', 'GRAPH', 'TUNING', 'ENV',
                          'ALLOC', 'CALL', 'PROXY', 'NVLS', 'BOOTSTRAP', 'REG', 'PROFILE',
                          'RAS', 'ALL'},
}
files = sorted(set(glob.glob('src/**/*.[ch]', recursive=True) +
                   glob.glob('src/**/*.def', recursive=True) +
                   glob.glob('data/*.json') + glob.glob('src/serve/assets/*') +
                   glob.glob('docs/*.1') + glob.glob('docs/*.md') + glob.glob('README*') +
                   glob.glob('tests/cli/cases/*.out')))
# NAME, NAME=VALUE, and a second value offered as "=VALUE or VALUE" / "(or VALUE"
pat = re.compile(r'\b(NCCL_[A-Z0-9_]+)\b(?:=([A-Za-z0-9_]+))?'
                 r'(?:\s*(?:\(|,)?\s*or\s+([A-Z][A-Z0-9]+)\b)?')
bad = []
for f in files:
    text = open(f, encoding='utf-8', errors='replace').read()
    for m in pat.finditer(text):
        name, val, alt = m.groups()
        line = text.count('\n', 0, m.start()) + 1
        if name not in KNOWN:
            bad.append('%s:%d: %s is not an NCCL variable nicfit may suggest' % (f, line, name))
            continue
        ok = KNOWN[name]
        for v in (val, alt if val else None):
            if v is None or ok is None:
                continue
            if v not in ok and not (name.endswith('_LEVEL') and v.isdigit()):
                bad.append('%s:%d: %s=%s is not a value NCCL documents' % (f, line, name, v))
for i, b in enumerate(bad, 1):
    print('not ok %d - %s' % (i, b))
print('ok %d - NCCL variables and values in %d files' % (len(bad) + 1, len(files)))
PY
