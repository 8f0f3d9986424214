accept --example=training --script --results tests/fixtures/accept/training-pass
# exit 64
