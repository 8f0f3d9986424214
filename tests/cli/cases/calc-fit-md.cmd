calc fit --model llama-3-70b --precision fp8 --gpus 1xa40 --format md
