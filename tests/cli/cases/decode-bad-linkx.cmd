decode MCP1600-Q003
# exit 65
