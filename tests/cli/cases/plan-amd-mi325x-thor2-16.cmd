plan --server as-8125gs-tnmr2 --gpu mi325x --servers 16 --backend-nic bcm957608-p2200gqf00 --switch z9864f-on --model llama-3.1-405b --workload training
# exit 1
