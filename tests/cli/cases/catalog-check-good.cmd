catalog check tests/cli/data/prices.json
