help findings
