verify tests/fixtures/verify/no-such-file.txt
# exit 66
