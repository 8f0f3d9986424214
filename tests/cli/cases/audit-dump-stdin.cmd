audit --dump -
# stdin: cat tests/fixtures/dumps/public/club-3090-1229-topo-tree.txt
# exit 3
