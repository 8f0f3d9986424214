calc fit --model llama-3-8b --gpus 1x64MiB --json
