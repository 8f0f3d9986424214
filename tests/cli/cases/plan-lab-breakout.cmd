plan --example=lab --servers 8 --switch sn2700
# exit 1
