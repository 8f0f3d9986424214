audit --dump tests/fixtures/dumps/public
