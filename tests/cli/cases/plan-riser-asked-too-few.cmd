plan --server dl380-gen10-plus --gpu a40 --gpus-per-server 2 --riser-config standard
# exit 2
