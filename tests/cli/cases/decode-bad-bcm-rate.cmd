decode BCM957508-P1400G
# exit 65
