accept --plan tests/cli/cases/audit-dump-ibv-alone-json.out
# exit 65
