snapshot --sysfs /nonexistent/root build/nowhere-snap
# exit 66
