calc fit --model deepseek-v3 --precision fp8 --gpus 8xh200-nvl --context 32768 --concurrency 8
