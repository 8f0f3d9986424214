calc link --speed EDR -j
