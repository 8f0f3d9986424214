plan --server "$(head -c 131000 /dev/zero | tr "\\0" x)"
# exit 65
