calc fit --model llama-3-70b --precision fp16 --gpus 2xa40 --context 8192 --concurrency 4 -j
