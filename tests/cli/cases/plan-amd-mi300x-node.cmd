plan --server as-8125gs-tnmr2 --model llama-3.1-405b --precision fp8 --concurrency 32 --context 8192
