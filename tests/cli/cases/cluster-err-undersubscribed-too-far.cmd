# an undersubscription past 1:2 is refused, naming the option
cluster --nodes 64 --gpu mi325x --nic pollara-400 --switch z9864f-on --oversubscription 1:3
# exit 64
