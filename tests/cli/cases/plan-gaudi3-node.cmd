plan --server generic-gaudi3-8oam --model llama-3.1-70b --precision bf16
