decode 900-9D3B6-00CV-AAH --json
