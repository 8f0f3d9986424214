serve --bind example.org --port 0
# exit 64
