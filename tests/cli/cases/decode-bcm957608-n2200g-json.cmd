decode --json BCM957608-N2200G
