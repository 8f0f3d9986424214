calc fit --model llama-3-70b --precision int4 --gpus 1xa40
