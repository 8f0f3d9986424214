decode mcx556a-ecatt
# exit 65
