--catalog tests/cli/data/hostile-catalog.json plan --example=training --backend-nic mcx556a-ecat --format md
# exit 1
