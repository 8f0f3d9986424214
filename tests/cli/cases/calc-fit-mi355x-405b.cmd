calc fit --model llama-3.1-405b --precision bf16 --gpus 8xmi355x
