help fleet
