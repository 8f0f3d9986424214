calc fit --model llama-3.1-70b --gpus 1xh100-sxm5-80gb --context 131072 --concurrency 32 --json
