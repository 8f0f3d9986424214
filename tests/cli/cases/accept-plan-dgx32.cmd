accept --plan tests/cli/cases/plan-dgx-32-ib-json.out
