-o host,broken accept --example=training --backend-cards 2 --servers 3 --results tests/fixtures/accept/training-rail
# exit 2
