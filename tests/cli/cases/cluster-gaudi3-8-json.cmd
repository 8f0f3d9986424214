cluster --nodes 8 --gpu gaudi3-oam --switch z9864f-on --no-frontend --no-oob --json
