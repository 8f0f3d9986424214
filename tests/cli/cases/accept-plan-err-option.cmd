accept --plan tests/cli/cases/plan-dgx-32-ib-json.out --servers 16
# exit 64
