calc fit --model llama-3.1-70b --precision bf16 --gpus 8xgaudi3-oam --context 32768 --concurrency 8
