accept --example=training --backend-cards 2 --results tests/fixtures/accept/training-pass
