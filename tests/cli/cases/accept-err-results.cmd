accept --example=training --results tests/fixtures/accept/no-such-dir
# exit 66
