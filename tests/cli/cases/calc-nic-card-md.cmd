calc nic --part e810-cqda2 --slot gen4x16 --format md
