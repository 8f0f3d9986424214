audit --sysfs /nonexistent/root
# exit 66
