calc fit --model deepseek-v3 --precision fp8 --gpus 8xmi355x --context 32768 --concurrency 16
