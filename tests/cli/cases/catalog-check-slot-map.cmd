catalog check tests/cli/data/bad-slot-map-catalog.json
# exit 65
