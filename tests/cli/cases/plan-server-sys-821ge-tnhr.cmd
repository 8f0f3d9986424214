plan --server sys-821ge-tnhr --gpu h200-sxm-141gb
