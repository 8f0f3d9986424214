calc fit --params 13B --precision int8 --gpus 2x24GiB
