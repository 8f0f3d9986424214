calc fit --model llama-3.1-405b --precision fp8 --gpus 1xh100-sxm5-80gb
