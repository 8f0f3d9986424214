# stdin: cat tests/cli/data/fleet/clean.jsonl
fleet -
