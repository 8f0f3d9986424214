decode MCP4Y10-N002 --json
