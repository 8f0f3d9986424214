calc stream --tokens-per-s 50 --concurrency 1000 --link 10G --format md
