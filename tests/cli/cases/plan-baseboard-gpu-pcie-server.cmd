plan --server generic-gen5 --gpu h100-sxm5-80gb
# exit 2
