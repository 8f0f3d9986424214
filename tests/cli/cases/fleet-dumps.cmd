fleet --all-hosts --dumps tests/fixtures/dumps/fleet
