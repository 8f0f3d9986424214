decode "$(printf 'MCX416A\001-CCAT')"
# exit 65
