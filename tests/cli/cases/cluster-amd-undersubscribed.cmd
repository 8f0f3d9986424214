# AMD's recommended subscription: 64 MI325X nodes with a Pollara 400 per GPU on Tomahawk 5 (Dell Z9864F-ON) leaves at 1:1.16, 16% more uplink than node bandwidth (AMD's MI3XX cluster design); uplinks = ceil(down / ratio), rounded up to equal trunks
cluster --nodes 64 --gpu mi325x --nic pollara-400 --switch z9864f-on --rail-optimized --no-frontend --no-oob --oversubscription 1:1.16
