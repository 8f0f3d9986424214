serve --port 70000
# exit 64
