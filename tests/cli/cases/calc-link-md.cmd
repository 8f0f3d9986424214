calc link --speed 100GbE --proto roce --format md
