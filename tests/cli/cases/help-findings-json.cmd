help findings --json
