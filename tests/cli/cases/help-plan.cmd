help plan
